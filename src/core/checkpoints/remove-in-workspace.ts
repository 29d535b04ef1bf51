import { realpathSync, rmdirSync, rmSync } from 'node:fs';
import { parentOf, under } from './path-bytes';

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
  rmSync(full, { force: true });
  for (let dir = parentOf(full); inside(dir); dir = parentOf(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      break;
    }
  }
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
