/**
 * Screen benchmarks through a real pseudo-terminal: time to the first frame of the built `tole`
 * beside a bare Node process printing one line (`runStartBench`, with `tole --version`), the same
 * for sessions of 10,000 and 100,000 entries, and keypress-to-frame latency in the tree of the
 * large one.
 * Run alone with `npm run build && node --import tsx bench/startup.ts`.
 */
import { spawn as spawnChild } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawn, type IPty } from 'node-pty';
import { encodeCommit, encodeHeader, headerCrc } from '../src/core/storage/line-codec';
import { LINE_CRC, STORAGE_VERSION, type SessionHeader } from '../src/core/storage/records';
import { closeSync, openSync, writeSync } from 'node:fs';
import { seededRandom, systemClock } from '../src/core/clock';
import { SessionStore } from '../src/core/storage/session-store';
import { indexKeyIn } from '../src/cli/index-key';
import { formatRows, type Row } from './storage';

/** The built tole; TOLE_BIN points the start-up rows at another build (an earlier one, for a before/after). */
export const TOLE = process.env['TOLE_BIN'] ?? join(import.meta.dirname, '..', 'dist', 'tole.js');
const RUNS = 5;
/** The status bar: in every whole frame. */
const STATUS_MARK = 'seq ';
/** The tree's checked-out row: a resumed session's tree is drawn. */
const HEAD_MARK = '◀';
/** The frame writer sends each frame as one synchronized update: this ends it. */
const FRAME_END = '\x1b[?2026l';

interface Started {
  readonly pty: IPty;
  readonly ms: number;
  /** When a frame first showed the `early` text asked for (null: none did, or none was asked). */
  readonly earlyMs: number | null;
}

/** The cursor position report tole asks for when its screen opens (src/tui/frame/repeat-probe.ts). */
const POSITION_ASKED = '\x1b[6n';
/** xterm's answer after tole's `─` and a repeat of two: row 1, column 4 (it repeats characters). */
const POSITION_ANSWER = '\x1b[1;4R';

/**
 * Answers every cursor position report asked in `seen` past the first `answered`, at once, as a
 * terminal does (a pseudo-terminal alone answers nothing). tole's first frame waits for no answer;
 * answering keeps the frames after it drawn as a terminal that repeats gets them. Returns how many
 * are answered now.
 */
function answerAsATerminal(pty: IPty, seen: string, answered: number): number {
  let asked = 0;
  for (let at = seen.indexOf(POSITION_ASKED); at !== -1; at = seen.indexOf(POSITION_ASKED, at + 1)) asked++;
  for (let i = answered; i < asked; i++) pty.write(POSITION_ANSWER);
  return asked;
}

/** Spawns `node args` in a 120x40 pseudo-terminal; resolves once a whole frame holding every mark has arrived. */
export function startUntil(
  args: string[],
  marks: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  /** A text an earlier frame may show (the provisional frame's): when it first did is `earlyMs`. */
  early?: string,
): Promise<Started> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const pty = spawn(process.execPath, args, { cols: 120, rows: 40, cwd, env: env as Record<string, string> });
    let seen = '';
    let answered = 0;
    let earlyMs: number | null = null;
    const timer = setTimeout(
      () =>
        reject(
          new Error(`no frame with ${marks.map((m) => `"${m}"`).join(', ')} within 30 s; saw: ${seen.slice(-400)}`),
        ),
      30_000,
    );
    const sub = pty.onData((data) => {
      seen += data;
      answered = answerAsATerminal(pty, seen, answered);
      const end = seen.lastIndexOf(FRAME_END);
      const frame = seen.slice(0, end);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (early !== undefined && earlyMs === null && end !== -1 && frame.includes(early)) earlyMs = ms;
      if (end !== -1 && marks.every((mark) => frame.includes(mark))) {
        clearTimeout(timer);
        sub.dispose();
        resolve({ pty, ms, earlyMs });
      }
    });
  });
}

async function medianOf(runs: number, once: () => Promise<number>): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < runs; i++) values.push(await once());
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

/** A session of `entries` user/assistant entries in one chain, written with the line codec. */
export function writeSession(dir: string, entries: number): string {
  const id = `1700000000000000000-${entries.toString(16).padStart(6, '0').slice(-6)}`;
  const path = join(dir, `${id}.jsonl`);
  const header: SessionHeader = {
    v: 1,
    kind: 'header',
    id,
    storageVersion: STORAGE_VERSION,
    createdAt: 1_700_000_000_000,
    cwd: dir,
    lineCrc: LINE_CRC,
  };
  const fd = openSync(path, 'w');
  const headerBytes = encodeHeader(header);
  writeSync(fd, headerBytes);
  let crc = headerCrc(headerBytes.subarray(0, -1));
  let seq = 0;
  let parent: string | null = null;
  const chunk: Buffer[] = [];
  for (let i = 1; i <= entries; i++) {
    const id = `e_${i}`;
    const user = i % 2 === 1;
    const payload = user
      ? { text: `question ${i}: how does the store replay a torn tail?` }
      : {
          text: `answer ${i}: it cuts the bad final line away and fsyncs. `.repeat(4),
          toolCalls: [],
          model: 'bench',
          finishReason: 'stop',
        };
    const line = encodeCommit(
      [
        {
          kind: 'entry',
          seq: ++seq,
          timestamp: 1_700_000_000_000 + i,
          id,
          parentId: parent,
          type: user ? 'user' : 'assistant',
          payload,
        },
        { kind: 'register', op: 'set', seq: ++seq, namespace: 'lane.leaf', key: 'main', value: id },
        {
          kind: 'register',
          op: 'set',
          seq: ++seq,
          namespace: 'lane.head',
          key: 'head',
          value: { lane: 'main', entryId: id },
        },
      ],
      crc,
    );
    crc = line.crc;
    chunk.push(line.bytes);
    parent = id;
    if (chunk.length >= 1000) writeSync(fd, Buffer.concat(chunk.splice(0)));
  }
  if (chunk.length) writeSync(fd, Buffer.concat(chunk));
  closeSync(fd);
  return path;
}

async function firstFrameMs(args: string[], env: NodeJS.ProcessEnv, cwd: string, bin = TOLE): Promise<number> {
  return (await firstFrame(args, env, cwd, bin)).ms;
}

/** Wall time to the first frame, and the CPU time tole used until then (steadier on a busy machine). */
async function firstFrame(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  bin = TOLE,
): Promise<{ ms: number; cpuMs: number }> {
  // A resumed session's first frame counts once its tree is drawn, not before.
  const marks = args.includes('--resume') ? [STATUS_MARK, HEAD_MARK] : [STATUS_MARK];
  const { pty, ms } = await startUntil([bin, ...args], marks, env, cwd);
  const cpuMs = cpuMsOf(pty.pid);
  pty.kill('SIGTERM');
  return { ms, cpuMs };
}

/** User + system CPU of a process so far, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Median time from an arrow key in the tree to the end of the frame it causes. */
async function keypressMs(path: string, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const { pty } = await startUntil([TOLE, '--resume', path, '--read-only'], [STATUS_MARK, HEAD_MARK], env, cwd);
  await new Promise((r) => setTimeout(r, 500));
  const latencies: number[] = [];
  pty.write('\t'); // focus the tree
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 30; i++) {
    const started = process.hrtime.bigint();
    const frame = new Promise<void>((resolve) => {
      const sub = pty.onData((data) => {
        if (!data.includes(FRAME_END)) return;
        sub.dispose();
        resolve();
      });
    });
    pty.write(i % 2 === 0 ? '\x1b[A' : '\x1b[B');
    await frame;
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    await new Promise((r) => setTimeout(r, 60));
  }
  pty.kill('SIGTERM');
  latencies.sort((a, b) => a - b);
  return latencies[Math.floor(latencies.length / 2)]!;
}

/** Spawns `node args` without a terminal; resolves with the time until it exits. */
function exitMs(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawnChild(process.execPath, args, { cwd, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
  });
}

export const CPU_PRELOAD = join(import.meta.dirname, 'cpu-at-first-frame.mjs');

/**
 * The CPU time and, where the line says them (cpu-at-first-frame.mjs does), the resident memory and
 * minor page faults of `node args` at its first frame.
 */
export function atFirstFrame(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ cpuMs: number; rssMb: number | undefined; faults: number | undefined }> {
  return new Promise((resolve, reject) => {
    const pty = spawn(process.execPath, args, { cols: 120, rows: 40, cwd, env: env as Record<string, string> });
    let seen = '';
    let answered = 0;
    const timer = setTimeout(() => reject(new Error(`no CPU figure within 30 s; saw: ${seen.slice(-400)}`)), 30_000);
    pty.onData((data) => {
      seen += data;
      answered = answerAsATerminal(pty, seen, answered);
      const found = /cpu-at-first-frame ([\d.]+) ms(?: rss ([\d.]+) MB)?(?: faults (\d+))?/.exec(seen);
      if (!found) return;
      clearTimeout(timer);
      pty.kill();
      resolve({
        cpuMs: Number(found[1]),
        rssMb: found[2] === undefined ? undefined : Number(found[2]),
        faults: found[3] === undefined ? undefined : Number(found[3]),
      });
    });
  });
}

/** Medians of `runs` rounds; each round runs every measure once, in turn, so that load drift hits all alike. */
export async function interleavedMedians(
  runs: number,
  measures: readonly (() => Promise<number>)[],
): Promise<number[]> {
  const values = measures.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) for (const [j, measure] of measures.entries()) values[j]!.push(await measure());
  return values.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
}

/**
 * The environment of a start bench in `dir`: tole's home and code cache there (the cache as a user
 * has it after the first start, once warmCodeCaches ran), and a provider that is never reached.
 */
export function startEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TOLE_HOME: join(dir, 'home'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'bench',
  };
}

/** Each build starts once and stays long enough to write its code cache, as after a user's first start. */
export async function warmCodeCaches(bins: readonly string[], env: NodeJS.ProcessEnv, dir: string): Promise<void> {
  for (const bin of bins) {
    const { pty } = await startUntil([bin], [STATUS_MARK], env, dir);
    await new Promise((r) => setTimeout(r, 2500));
    pty.kill('SIGTERM');
  }
}

/**
 * Start-up: the first frame of a new session in a pseudo-terminal beside a bare Node process
 * printing one line there, and `tole --version` from start to exit beside `node -e 0`.
 * Run alone with `npm run build && node --import tsx bench/run.mts start`.
 */
export async function runStartBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-start-'));
  const env = startEnv(dir);
  // A first start after an install: no code cache, and none can be written (a file is where its folder would be).
  writeFileSync(join(dir, 'no-cache'), '');
  const coldEnv = { ...env, XDG_CACHE_HOME: join(dir, 'no-cache', 'cache') };
  try {
    // TOLE_BEFORE=<an earlier build's tole.js> adds its rows, measured in the same rounds.
    const before = process.env['TOLE_BEFORE'];
    const builds = before ? [TOLE, before] : [TOLE];
    await warmCodeCaches(builds, env, dir);
    const [bare, cold, ...frames] = await interleavedMedians(9, [
      async () => {
        const { pty, ms } = await startUntil(
          ['-e', `process.stdout.write('ready${FRAME_END}\\n'); setTimeout(() => {}, 5000)`],
          ['ready'],
          env,
          dir,
        );
        pty.kill();
        return ms;
      },
      () => firstFrameMs([], coldEnv, dir),
      ...builds.map((bin) => () => firstFrameMs([], env, dir, bin)),
    ]);
    const bareCpuScript = `const { user, system } = process.cpuUsage(); console.log('cpu-at-first-frame ' + ((user + system) / 1000).toFixed(1) + ' ms rss 0 MB faults ' + process.resourceUsage().minorPageFault); setTimeout(() => {}, 5000)`;
    // The page faults of the same runs: bare node's first, then each build's.
    const faults: number[][] = [[], ...builds.map(() => [])];
    const cpuAndFaults = (i: number, args: string[]) => async (): Promise<number> => {
      const at = await atFirstFrame(args, env, dir);
      faults[i]!.push(at.faults ?? Number.NaN);
      return at.cpuMs;
    };
    const [bareCpu, ...cpus] = await interleavedMedians(9, [
      cpuAndFaults(0, ['-e', bareCpuScript]),
      ...builds.map((bin, i) => cpuAndFaults(i + 1, ['--import', CPU_PRELOAD, bin])),
    ]);
    const [bareFaults, ...buildFaults] = faults.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
    const [bareExit, ...versions] = await interleavedMedians(9, [
      () => exitMs(['-e', '0'], env, dir),
      ...builds.map((bin) => () => exitMs([bin, '--version'], env, dir)),
    ]);
    const coldRow: Row = {
      name: 'first frame, new session, first start (no code cache yet)',
      tole: cold!,
      baseline: bare!,
      unit: 'ms',
      ratio: cold! / bare!,
    };
    return [
      coldRow,
      ...builds.flatMap((_bin, i): Row[] => {
        const which = i === 0 ? '' : ' (TOLE_BEFORE)';
        return [
          {
            name: `first frame, new session${which}`,
            tole: frames[i]!,
            baseline: bare!,
            unit: 'ms',
            ratio: frames[i]! / bare!,
            ...(i === 0 ? { target: '≤ 150 ms' } : {}),
          },
          {
            name: `CPU time to that first frame (baseline: bare node's at its line)${which}`,
            tole: cpus[i]!,
            baseline: bareCpu!,
            unit: 'ms CPU',
            ratio: cpus[i]! / bareCpu!,
          },
          {
            name: `minor page faults until that first frame (baseline: bare node's at its line)${which}`,
            tole: buildFaults[i]!,
            baseline: bareFaults!,
            unit: 'faults',
            ratio: buildFaults[i]! / bareFaults!,
          },
          {
            name: `tole --version, start to exit${which}`,
            tole: versions[i]!,
            baseline: bareExit!,
            unit: 'ms',
            ratio: versions[i]! / bareExit!,
          },
        ];
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runStartupBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-screen-'));
  const env = {
    ...process.env,
    TOLE_HOME: join(dir, 'home'),
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'bench',
  };
  try {
    const bare = await medianOf(RUNS, async () => {
      const { pty, ms } = await startUntil(
        ['-e', `process.stdout.write('ready${FRAME_END}\\n'); setTimeout(() => {}, 5000)`],
        ['ready'],
        env,
        dir,
      );
      pty.kill();
      return ms;
    });
    const rows: Row[] = [];
    const large = writeSession(dir, 100_000);
    const small = writeSession(dir, 10_000);
    const firstFrameRow = async (n: number, path: string, how: string, target?: string): Promise<void> => {
      const ms = await medianOf(3, () => firstFrameMs(['--resume', path, '--read-only'], env, dir));
      rows.push({
        name: `first frame, ${n.toLocaleString('en')}-entry session${how}`,
        tole: ms,
        baseline: bare,
        unit: 'ms',
        ratio: ms / bare,
        ...(target ? { target } : {}),
      });
    };
    await firstFrameRow(10_000, small, '');
    // The bench writes the file itself, so it has no saved index yet: the first open of a session
    // tole did not write. A writable open (what resuming it in tole does) then saves the index.
    await firstFrameRow(100_000, large, ', no saved index (first open)', '≤ 500 ms');
    // Saved with the key tole vouches for indexes with ($TOLE_HOME/index.key): an index without it
    // is not taken, and the open replays the file.
    SessionStore.open(large, {
      clock: systemClock,
      random: seededRandom(1),
      indexKey: indexKeyIn(env.TOLE_HOME),
    }).close();
    await firstFrameRow(100_000, large, ', saved index beside it', '< 500 ms');
    const cpu = await medianOf(3, async () => (await firstFrame(['--resume', large, '--read-only'], env, dir)).cpuMs);
    const bareCpu = await medianOf(RUNS, async () => {
      const { pty } = await startUntil(
        ['-e', `process.stdout.write('ready${FRAME_END}\\n'); setTimeout(() => {}, 5000)`],
        ['ready'],
        env,
        dir,
      );
      const used = cpuMsOf(pty.pid);
      pty.kill();
      return used;
    });
    rows.push({
      name: 'CPU until the first frame, 100,000-entry session (saved index), vs a bare node -e',
      tole: cpu,
      baseline: bareCpu,
      unit: 'ms CPU',
      ratio: cpu / bareCpu,
    });
    const key = await keypressMs(large, env, dir);
    rows.push({
      name: 'tree keypress to frame, 100k entries',
      tole: key,
      baseline: 16,
      unit: 'ms',
      ratio: key / 16,
      target: '< 16 ms',
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatRows(await runStartupBench())}\n`);
  process.exit(0);
}
