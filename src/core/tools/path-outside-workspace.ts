/**
 * The PATH a model's command runs with: the user's, less every entry that leads into the
 * workspace. An empty entry (`/usr/bin::/bin`, a trailing `:` left by `PATH=$PATH:$EXTRA`), `.` or
 * any other relative entry names the command's own folder, the workspace; an absolute one may lie
 * inside it (`$PWD/node_modules/.bin`). Through such an entry `rg` or `tree` the read-only check
 * passed would run the repository's own program of that name, unconfined where there is no
 * sandbox. Each entry that exists is compared by its real path, so a link into the workspace counts.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

const FALLBACK = '/usr/bin:/bin';

function realOrResolved(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function isWithin(candidate: string, dir: string): boolean {
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
