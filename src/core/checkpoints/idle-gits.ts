/**
 * The gits of this process that keep running (git-pipe.ts) and wait for a request, by pid. Between
 * requests such a git holds none of git's lock files (`cat-file`, `hash-object`, `mktree`,
 * `check-ignore` and `check-attr` take none; `update-ref --stdin` takes the ref's lock inside one
 * request's transaction and lets it go before it answers), so a lock file found while they wait
 * is not theirs: git-locks.ts does not count them among the gits running for a directory, and a
 * killed tole's stale lock is removed while this tole's gits keep running.
 */
const idle = new Set<number>();

export function markIdle(pid: number | undefined, isIdle: boolean): void {
  if (pid === undefined) return;
  if (isIdle) idle.add(pid);
  else idle.delete(pid);
}

export function isIdleGitOfThisProcess(pid: number): boolean {
  return idle.has(pid);
}
