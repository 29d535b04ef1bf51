/**
 * The PATH tole runs programs with: the user's, less every entry that leads into the workspace.
 * An empty entry (`/usr/bin::/bin`, a trailing `:` left by `PATH=$PATH:$EXTRA`), `.` or any other
 * relative entry names the folder a program is started in, the workspace; an absolute one may lie
 * inside it (`$PWD/node_modules/.bin`). Through such an entry `rg` or `tree` the read-only check
 * passed would run the repository's own program of that name, unconfined where there is no
 * sandbox; and tole's own starts (`bash` for a hook, `git` for checkpoints, `bwrap` as the
 * sandbox itself) would run the repository's, which a confined command may have written. Each
 * entry is compared by its real path, so a link into the workspace counts, also one that leads to
 * a folder not made yet (the part that exists is resolved).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

const FALLBACK = '/usr/bin:/bin';

/** `dir`'s real path: its nearest existing folder resolved, the rest (not made yet) appended (absolute and normalized). */
export function realOrResolved(dir: string): string {
  const absolute = path.resolve(dir);
  const rest: string[] = [];
  for (let at = absolute; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), ...rest);
    } catch {
      if (path.dirname(at) === at) return absolute;
      rest.unshift(path.basename(at));
    }
  }
}

/** True when `candidate` is `dir` or lies below it (both absolute and normalized: a real or resolved path). */
export function isWithin(candidate: string, dir: string): boolean {
  return candidate === dir || candidate.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

export function pathOutsideWorkspace(value: string, workspaceRoot: string): string {
  const root = realOrResolved(workspaceRoot);
  const kept = value
    .split(':')
    .filter(
      (dir) => path.isAbsolute(dir) && !isWithin(realOrResolved(dir), root) && !isWithin(path.resolve(dir), root),
    );
  return kept.length > 0 ? kept.join(':') : FALLBACK;
}

/**
 * Leaves out of `env`'s PATH, in place, every entry that leads into `workspaceRoot` (tole's
 * start: process.env, read by every program tole and its libraries start, and by the sandbox's
 * search for bubblewrap). A PATH that is already so is not written again.
 */
export function keepPathOutOfWorkspace(env: NodeJS.ProcessEnv, workspaceRoot: string): void {
  const value = env['PATH'];
  if (value === undefined) return;
  const kept = pathOutsideWorkspace(value, workspaceRoot);
  if (kept !== value) env['PATH'] = kept;
}
