import { readFileSync } from 'node:fs';

/**
 * The gits of this process that keep running (git-pipe.ts) and wait for a request, by pid. Between
 * requests such a git holds none of git's lock files (`cat-file`, `hash-object`, `mktree`,
 * `check-ignore` and `check-attr` take none; `update-ref --stdin` takes the ref's lock inside one
 * request's transaction and lets it go before it answers), so a lock file found while they wait
 * is not theirs: git-locks.ts does not count them among the gits running for a directory, and a
 * killed tole's stale lock is removed while this tole's gits keep running.
 */
const idle = new Set<number>();

/** The requests of tole's gits that keep running (git-pipe.ts): the git's first argument, and what makes it read requests on its stdin. */
const PIPED: ReadonlyMap<string, string> = new Map([
  ['update-ref', '--stdin'],
  ['cat-file', '--batch'],
  ['hash-object', '--stdin-paths'],
  ['mktree', '--batch'],
  ['check-ignore', '--stdin'],
  ['check-attr', '--stdin'],
]);

/** read(2)'s number in /proc/PID/syscall, where tole knows it. */
const READ_SYSCALL: Readonly<Record<string, string>> = { x64: '0', arm64: '63' };

/**
 * Whether `pid` is a git of any tole's that keeps running (another tole's as well as this one's:
 * two sessions on one workspace) and waits, idle, for its next request: its command line is one
 * of git-pipe.ts's, and the kernel says it is blocked reading its stdin (/proc/PID/syscall: read
 * on fd 0). Such a git holds no lock file: tole writes each request whole in one write, and git
 * takes the ref's lock only once it has read the request's `commit` and lets it go before it reads
 * again. Anything tole cannot read or parse is not idle (a lock is then waited for, as before).
 */
export function isIdleGitOfSomeTole(pid: number): boolean {
  const read = READ_SYSCALL[process.arch];
  if (read === undefined) return false;
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
    const wants = PIPED.get(argv[1] ?? '');
    if (wants === undefined || !argv.includes(wants)) return false;
    const [number, fd] = readFileSync(`/proc/${pid}/syscall`, 'latin1').trim().split(' ');
    return number === read && fd === '0x0';
  } catch {
    return false;
  }
}

export function markIdle(pid: number | undefined, isIdle: boolean): void {
  if (pid === undefined) return;
  if (isIdle) idle.add(pid);
  else idle.delete(pid);
}

export function isIdleGitOfThisProcess(pid: number): boolean {
  return idle.has(pid);
}
