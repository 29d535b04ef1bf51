/**
 * A restore may put a file where the workspace now holds a folder. git's checkout then deletes the
 * folder with everything in it, also what no checkpoint keeps (ignored files such as node_modules,
 * a nested repository, a file too large to checkpoint), so the restore's own checkpoint of the
 * present could not bring it back. Such a restore is refused before any file is written.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { lstatOrNull, pathKey, pathText, under } from './path-bytes';

/** A folder a restore would replace with a file, and the first thing in it no checkpoint keeps. */
export interface FolderInTheWay {
  readonly folder: string;
  readonly holds: string;
}

/**
 * For each of `writes` that is a folder in `workTree` now, the first path inside it that the
 * restore would not remove itself (`removed`, which the restore's checkpoint of the present holds);
 * null when there is none. A folder whose every file the restore removes anyway is not in the way.
 */
export function folderInTheWay(
  workTree: string,
  writes: readonly Buffer[],
  removed: readonly Buffer[],
): FolderInTheWay | null {
  const removing = new Set(removed.map(pathKey));
  for (const path of writes) {
    if (lstatOrNull(under(workTree, path))?.isDirectory() !== true) continue;
    const holds = firstKeptInside(workTree, path, removing);
    if (holds !== null) return { folder: pathText(path), holds: pathText(holds) };
  }
  return null;
}

/** A path under folder `path` (recursively) not in `removing`; empty folders do not count. */
function firstKeptInside(workTree: string, path: Buffer, removing: ReadonlySet<string>): Buffer | null {
  let entries: Dirent<Buffer>[];
  try {
    entries = readdirSync(under(workTree, path), { encoding: 'buffer', withFileTypes: true });
  } catch {
    // A folder that cannot be listed cannot be vouched for: it is in the way.
    return path;
  }
  for (const entry of entries) {
    const inside = Buffer.concat([path, Buffer.from('/'), entry.name]);
    if (entry.isDirectory()) {
      const kept = firstKeptInside(workTree, inside, removing);
      if (kept !== null) return kept;
    } else if (!removing.has(pathKey(inside))) {
      return inside;
    }
  }
  return null;
}

/** What a refused restore says: what would be lost, and what to do. */
export function folderInTheWayMessage(found: FolderInTheWay): string {
  return (
    `restoring would put a file where the folder ${found.folder} is now, and git would delete the folder with all it holds, ` +
    `also ${found.holds}, which no checkpoint keeps and no restore could bring back; nothing was written. ` +
    `Move ${found.folder} out of the way (or empty it yourself), then restore again.`
  );
}
