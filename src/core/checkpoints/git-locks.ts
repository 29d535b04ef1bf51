import { lstatSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { isWithin } from '../tools/path-outside-workspace';
import { isIdleGitOfSomeTole, isIdleGitOfThisProcess } from './idle-gits';

/**
 * git's own lock files in tole's checkpoint directory (`index.lock`, `refs/tole/checkpoints.lock`,
 * `packed-refs.lock`). One held by a running git (another tole's checkpoint) is waited for; one
 * whose git is gone (a tole killed mid-checkpoint) is removed. Whether a git is running for the
 * directory is read from /proc: tole runs git with GIT_DIR set to it in the environment. A git
 * that keeps running and waits idle on its stdin (idle-gits.ts), this tole's or another's on the
 * same workspace, holds no lock and does not count: else a second tole's idle gits would keep a
 * killed tole's lock in place, and checkpoints would fail in both for as long as they run.
 */

/** The lock file a failed git run names ("Unable to create '/x/index.lock': File exists"), if any. */
export function lockInMessage(stderr: string): string | null {
  return /Unable to create '([^']+\.lock)': File exists/.exec(stderr)?.[1] ?? null;
}

/** Whether `lock` lies inside `gitDir` (only tole's own directory's locks are ever removed). */
export function isInside(gitDir: string, lock: string): boolean {
  const dir = resolve(gitDir);
  const file = resolve(lock);
  return file !== dir && isWithin(file, dir);
}

type GitActivity = 'running' | 'none' | 'unknown';

/** Whether some git process runs with GIT_DIR=`gitDir`: `unknown` when a git's environment cannot be read. */
function gitActivity(gitDir: string): GitActivity {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 'unknown';
  }
  const needle = Buffer.from(`\0GIT_DIR=${gitDir}\0`);
  let unreadable = false;
  for (const pid of entries) {
    if (Number(pid) === process.pid || isIdleGitOfThisProcess(Number(pid))) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm !== 'git' && !comm.startsWith('git-')) continue;
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]);
      if (environ.includes(needle) && !isIdleGitOfSomeTole(Number(pid))) return 'running';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ESRCH')
        unreadable = true;
    }
  }
  return unreadable ? 'unknown' : 'none';
}

/** The identity of a lock file (inode and times), or null when it is gone. */
function identity(path: string): string | null {
  const stat = lstatSync(path, { throwIfNoEntry: false, bigint: true });
  return stat ? `${stat.dev}:${stat.ino}:${stat.mtimeNs}:${stat.ctimeNs}` : null;
}

type LockOutcome = 'gone' | 'removed-stale' | 'held';

/**
 * What to do about a git lock file in tole's directory: `gone` (already released: run again),
 * `removed-stale` (no git runs for the directory: it was removed, run again), `held` (a git runs,
 * or tole cannot tell: wait and run again, or give up with git's message).
 */
export function settleLock(gitDir: string, lock: string): LockOutcome {
  if (!isInside(gitDir, lock)) return 'held';
  const before = identity(lock);
  if (before === null) return 'gone';
  if (gitActivity(gitDir) !== 'none') return 'held';
  // Removed only if it is still the file seen before the look at /proc (no git came and went).
  if (identity(lock) !== before) return 'gone';
  try {
    unlinkSync(lock);
  } catch {
    return 'gone';
  }
  return 'removed-stale';
}
