/**
 * Find in the tree, keypress to frame, in the built `tole` (a real pseudo-terminal, 120x40): a
 * 100,000-entry session resumed read-only, the tree focused, `/` opened. Measured: the first key
 * once the field has prepared (the process went idle after `/`), a letter every entry holds (every
 * row marked); the keys after it; a backspace; and the first key typed at once after `/` (nothing
 * prepared). Wall time from writing the key to the end of the frame showing the count it causes,
 * plus the CPU time tole used in between (from /proc, in 10 ms ticks). tree-find.ts measures the
 * search alone; this adds the frame.
 * Run alone with `npm run build && node --import tsx bench/tree-find-frame.ts`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IPty } from 'node-pty';
import { startUntil, TOLE, writeSession } from './startup';
import { formatRows, type Row } from './storage';

const ENTRIES = 100_000;
const ROUNDS = 5;
const FRAME_START = '\x1b[?2026h';
const FRAME_END = '\x1b[?2026l';

/** User + system CPU of a process so far, ms (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Resolves once the process used no CPU for `quietMs` (its work between frames is done). */
async function settled(pid: number, quietMs = 400): Promise<void> {
  let last = cpuMsOf(pid);
  let quietSince = Date.now();
  while (Date.now() - quietSince < quietMs) {
    await new Promise((r) => setTimeout(r, 50));
    const now = cpuMsOf(pid);
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    }
  }
}

/**
 * Writes `key`; resolves with the wall ms and tole's CPU ms until a frame ends whose output since
 * the key holds `until` (a frame writes only what changed: `/./` takes the first frame whole).
 */
function keyToFrame(pty: IPty, key: string, until: RegExp): Promise<{ ms: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const cpuBefore = cpuMsOf(pty.pid);
    const timer = setTimeout(
      () => reject(new Error(`no frame matching ${until} within 20 s: ${seen.slice(-300)}`)),
      20_000,
    );
    const started = process.hrtime.bigint();
    const sub = pty.onData((data) => {
      seen += data;
      // A frame of one short row is written whole without the synchronized-update marks.
      const whole = !seen.includes(FRAME_START) || seen.lastIndexOf(FRAME_END) > seen.lastIndexOf(FRAME_START);
      if (!whole || !until.test(seen)) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      sub.dispose();
      resolve({ ms, cpuMs: cpuMsOf(pty.pid) - cpuBefore });
    });
    pty.write(key);
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function runTreeFindFrameBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-find-frame-'));
  const env = {
    ...process.env,
    TOLE_HOME: join(dir, 'home'),
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'bench',
  };
  const t = { prepared: [] as number[], next: [] as number[], back: [] as number[], cold: [] as number[] };
  const cpu = { prepared: [] as number[], cold: [] as number[] };
  try {
    const path = writeSession(dir, ENTRIES);
    // "question i: how does the store replay a torn tail?" / "answer i: it cuts the bad final line away …"
    const all = `${ENTRIES} found`;
    for (let round = 0; round < ROUNDS; round++) {
      for (const prepared of [true, false]) {
        const { pty } = await startUntil([TOLE, '--resume', path, '--read-only'], ['seq ', '◀'], env, dir);
        await settled(pty.pid);
        pty.write('\t'); // the tree
        await settled(pty.pid);
        if (prepared) {
          await keyToFrame(pty, '/', /find: /);
          await settled(pty.pid);
          const first = await keyToFrame(pty, 't', new RegExp(all));
          t.prepared.push(first.ms);
          cpu.prepared.push(first.cpuMs);
          await settled(pty.pid);
          for (const [key, until] of [
            ['o', /./],
            ['r', /./],
            ['n', /./],
          ] as const) {
            t.next.push((await keyToFrame(pty, key, until)).ms);
            await settled(pty.pid, 150);
          }
          t.back.push((await keyToFrame(pty, '\x7f', /./)).ms);
        } else {
          // `/` and the key together: the field has had no time to prepare.
          const cold = await keyToFrame(pty, '/t', new RegExp(all));
          t.cold.push(cold.ms);
          cpu.cold.push(cold.cpuMs);
        }
        pty.kill('SIGTERM');
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const k = ENTRIES.toLocaleString('en');
  const row = (name: string, values: number[], unit: string, target?: string): Row => ({
    name,
    tole: median(values),
    baseline: 16,
    unit,
    ratio: median(values) / 16,
    ...(target ? { target } : {}),
  });
  return [
    row(
      `find: first key to frame after the field prepared ("t", every row marked), ${k} entries`,
      t.prepared,
      'ms',
      '< 16 ms',
    ),
    row('  the same, tole CPU (10 ms ticks)', cpu.prepared, 'ms CPU'),
    row(`find: keys after it ("to", "tor", "torn") to frame, ${k} entries`, t.next, 'ms', '< 16 ms'),
    row(`find: backspace to frame, ${k} entries`, t.back, 'ms', '< 16 ms'),
    row(`find: "/" and the first key at once (nothing prepared) to frame, ${k} entries`, t.cold, 'ms', '≤ 200 ms'),
    row('  the same, tole CPU (10 ms ticks)', cpu.cold, 'ms CPU'),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${formatRows(await runTreeFindFrameBench())}\n`);
  process.exit(0);
}
