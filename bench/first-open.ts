/**
 * The first open of a 100,000-entry session without a saved index, for a before/after of builds:
 * `node --import tsx bench/first-open.ts [ROUNDS] [BUILD.js ...]` (the worktree's dist/tole.js
 * unless builds are named; run it under `/work/bin/slots-both` on the shared machine). It writes
 * bench/startup.ts's `writeSession(dir, 100_000)` file, starts each build once to write its code
 * cache, then runs `--resume FILE --read-only` in a 120x40 pty, the builds alternating in each
 * round, until the frame with the status bar and the tree's ◀ (`startUntil`), noting when a provisional frame
 * (drawn from the file's tail while the open checks it: `checking session…`) came first. At the checked frame it reads
 * from /proc the process's CPU (all threads), the main thread's CPU (the open's scan and the
 * screen; the check runs on a worker) and the minor page faults so far (each first touch of a
 * 4 KiB page: ~15-20 µs apiece on the 2-core VM tole is measured on).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEnv, startUntil, TOLE, warmCodeCaches, writeSession } from './startup';

interface AtFrame {
  readonly wallMs: number;
  /** The provisional frame drawn from the file's tail while the open checks it (`checking session…`), if one came. */
  readonly provisionalMs: number | null;
  readonly cpuMs: number;
  readonly mainCpuMs: number;
  readonly faults: number;
}

/** Clock ticks of 10 ms: user + system CPU and minor faults of a process or one of its threads. */
function statOf(path: string): { cpuMs: number; faults: number } {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { cpuMs: (Number(fields[11]) + Number(fields[12])) * 10, faults: Number(fields[7]) };
}

async function firstOpen(bin: string, file: string, env: NodeJS.ProcessEnv, cwd: string): Promise<AtFrame> {
  const { pty, ms, earlyMs } = await startUntil(
    [bin, '--resume', file, '--read-only'],
    ['seq ', '◀'],
    env,
    cwd,
    'checking session',
  );
  const all = statOf(`/proc/${pty.pid}/stat`);
  const main = statOf(`/proc/${pty.pid}/task/${pty.pid}/stat`);
  const exited = new Promise<void>((resolve) => pty.onExit(() => resolve()));
  pty.kill('SIGTERM');
  await exited;
  return { wallMs: ms, provisionalMs: earlyMs, cpuMs: all.cpuMs, mainCpuMs: main.cpuMs, faults: all.faults };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const [roundsArg, ...named] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 5);
const bins = named.length > 0 ? named : [TOLE];
const dir = mkdtempSync(join(tmpdir(), 'tole-first-open-'));
try {
  const file = writeSession(dir, 100_000);
  const env = startEnv(dir);
  await warmCodeCaches(bins, env, dir);
  const runs = bins.map(() => [] as AtFrame[]);
  for (let round = 0; round < rounds; round++)
    for (const [i, bin] of bins.entries()) runs[i]!.push(await firstOpen(bin, file, env, dir));
  for (const [i, bin] of bins.entries()) {
    const list = runs[i]!;
    const row = (name: string, pick: (run: AtFrame) => number, unit: string): string =>
      `  ${name}: ${list.map((run) => Math.round(pick(run))).join(' / ')} (median ${Math.round(median(list.map(pick)))}) ${unit}`;
    process.stdout.write(
      [
        bin,
        row('provisional frame (checking session…), wall; -1: none drawn', (run) => run.provisionalMs ?? -1, 'ms'),
        row('first checked frame, wall', (run) => run.wallMs, 'ms'),
        row('CPU at the frame, all threads', (run) => run.cpuMs, 'ms'),
        row('CPU at the frame, main thread', (run) => run.mainCpuMs, 'ms'),
        row('minor page faults at the frame', (run) => run.faults, ''),
        '',
      ].join('\n'),
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
