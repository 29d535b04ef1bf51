/**
 * Where a run's CPU goes, file by file: with TOLE_FILE_CPU_LOG=FILE set, each test file appends one
 * JSON line to FILE when it ends: its path, its worker's pid, when it started and ended (ms since
 * the epoch), the CPU its worker process used meanwhile (`self`, `selfSys`: the whole process, so
 * in a threads pool it holds the other thread's file too), the CPU of the children it started and
 * waited for (`children`: tole, git, bash and what they started), the CPU of its own thread
 * (`thread`), and the worker's RSS and heap at the end (MB). Unset, it does nothing. bench/RESULTS.md
 * ("Where the whole run's time goes") reads such a log.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

const log = process.env.TOLE_FILE_CPU_LOG;

/** utime, stime, cutime, cstime of a /proc stat file, in seconds. */
function cpuOf(path: string): number[] {
  const fields = (readFileSync(path, 'utf8').split(') ')[1] ?? '').split(' ');
  return [11, 12, 13, 14].map((i) => Number(fields[i]) / 100);
}

if (log) {
  let file = '?';
  let process0: number[] = [];
  let thread0: number[] = [];
  let wall0 = 0;
  // The first argument is the hook's fixtures (none); the second, the file's suite.
  // biome-ignore lint/correctness/noEmptyPattern: vitest hands hooks their fixtures through a destructured first argument.
  beforeAll(({}, suite) => {
    file = (suite as { file?: { filepath?: string } }).file?.filepath ?? '?';
    process0 = cpuOf('/proc/self/stat');
    thread0 = cpuOf('/proc/thread-self/stat');
    wall0 = Date.now();
  });
  afterAll(() => {
    const [user, sys, cuser, csys] = cpuOf('/proc/self/stat').map((v, i) => v - (process0[i] ?? 0));
    const [tuser, tsys] = cpuOf('/proc/thread-self/stat').map((v, i) => v - (thread0[i] ?? 0));
    const round = (n: number): number => Math.round(n * 100) / 100;
    const memory = process.memoryUsage();
    const line = {
      file,
      pid: process.pid,
      wall0,
      wall1: Date.now(),
      self: round(user! + sys!),
      selfSys: round(sys!),
      children: round(cuser! + csys!),
      thread: round(tuser! + tsys!),
      rss: Math.round(memory.rss / 2 ** 20),
      heap: Math.round(memory.heapUsed / 2 ** 20),
    };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}
