import { realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import { parentOf, pathText, under } from './path-bytes';

/**
 * Removes a file of the workspace for a restore, and the folders it leaves empty; never through a
 * symlinked folder that leads out of the workspace.
 */
export function removeInWorkspace(workTree: string, path: Buffer): void {
  // Compared as real paths: the workspace may be named through a symlink.
  const root = realpathOrNull(workTree) ?? workTree;
  const rootBytes = Buffer.from(`${root}/`);
  const inside = (dir: Buffer | null): dir is Buffer =>
    dir !== null && dir.length > rootBytes.length && dir.subarray(0, rootBytes.length).equals(rootBytes);
  const full = under(root, path);
  // Never follow a symlinked parent out of the workspace.
  const parentPath = parentOf(full);
  const parent = parentPath === null ? null : realpathBytesOrNull(parentPath);
  if (parent === null || (!parent.equals(Buffer.from(root)) && !inside(parent))) return;
  unlinkFile(full, path);
  for (let dir = parentOf(full); inside(dir); dir = parentOf(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      break;
    }
  }
}

/**
 * Removes the file (a restore removes only files and symlinks: what a checkpoint's tree holds);
 * one already gone is fine. Node's rmSync, given a file it may not unlink (EPERM), went on to list
 * it as a folder and said "ENOTDIR: not a directory, scandir": the error says what happened instead.
 */
function unlinkFile(full: Buffer, path: Buffer): void {
  try {
    unlinkSync(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new Error(removalFailure(pathText(path), code, (error as Error).message), { cause: error });
  }
}

/** Why a file of the workspace could not be removed, and what to do. */
export function removalFailure(path: string, code: string | undefined, message: string): string {
  if (code === 'EPERM' || code === 'EACCES' || code === 'EROFS')
    return `${path} could not be removed: permission denied (${code}): the folder holding it is read-only, immutable (chattr +i) or on a read-only file system, or the file itself is immutable or append-only; make them writable (chattr -i, chmod u+w on the folder), then restore again`;
  if (code === 'EISDIR')
    return `${path} could not be removed: it is a folder now, and a restore removes only files; move it out of the way, then restore again`;
  return `${path} could not be removed: ${message}`;
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function realpathBytesOrNull(path: Buffer): Buffer | null {
  try {
    return realpathSync(path, { encoding: 'buffer' });
  } catch {
    return null;
  }
}
