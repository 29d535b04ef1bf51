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

/**
 * `dir`'s real path, resolved as the kernel does: one part at a time, a link followed before a `..`
 * after it is taken (`/outside/link/../tools`, where the link leads into the workspace, is the
 * workspace's `tools`, not `/outside/tools`). The parts from the first that does not exist yet are
 * appended as written (absolute and normalized).
 */
export function realOrResolved(dir: string): string {
  const parts = (path.isAbsolute(dir) ? dir : `${process.cwd()}/${dir}`).split('/');
  let at = '/';
  for (const [index, part] of parts.entries()) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      at = path.dirname(at);
      continue;
    }
    const next = path.join(at, part);
    try {
      at = realpathSync(next);
    } catch {
      return path.resolve(next, ...parts.slice(index + 1));
    }
  }
  return at;
}

/** True when `candidate` is `dir` or lies below it (both absolute and normalized: a real or resolved path). */
export function isWithin(candidate: string, dir: string): boolean {
  return candidate === dir || candidate.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/**
 * `value` less every entry that is relative or leads into one of `folders` (the workspace: the
 * folder tole starts in and the repository roots above it, see workspace-folders.ts).
 */
export function pathOutsideWorkspace(value: string, folders: string | readonly string[]): string {
  const roots = [
    ...new Set(
      (typeof folders === 'string' ? [folders] : folders).flatMap((f) => [realOrResolved(f), path.resolve(f)]),
    ),
  ];
  const inside = (dir: string): boolean => roots.some((root) => isWithin(dir, root));
  const kept = value
    .split(':')
    .filter((dir) => path.isAbsolute(dir) && !inside(realOrResolved(dir)) && !inside(path.resolve(dir)));
  return kept.length > 0 ? kept.join(':') : FALLBACK;
}

/**
 * Leaves out of `env`'s PATH, in place, every entry that leads into `folders` (tole's start:
 * process.env, read by every program tole and its libraries start, and by the sandbox's search for
 * bubblewrap). A PATH that is already so is not written again.
 */
export function keepPathOutOfWorkspace(env: NodeJS.ProcessEnv, folders: string | readonly string[]): void {
  const value = env['PATH'];
  if (value === undefined) return;
  const kept = pathOutsideWorkspace(value, folders);
  if (kept !== value) env['PATH'] = kept;
}
