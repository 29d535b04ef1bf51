import type { Stats } from 'node:fs';
import type { LeftOut } from './restore-plan';
import { lstatOrNull, pathKey, pathText, under } from './path-bytes';
import type { PathChange } from './tree-edit';

/**
 * What became of the paths tole's own calls named since its last checkpoint, read from the
 * workspace now: each one's new blob, or its removal (gone, or grown too large to keep). Or the
 * reason only a scan of the whole workspace can say: a path whose meaning for git a few stats
 * cannot settle (a symlink on the way, a folder, a nested repository, an ignored path, a
 * `.gitignore` or `.gitattributes` that may change what every other path means).
 */

interface KnownChangeIO {
  /**
   * Reads the file's bytes as a blob (as git would stage them) and returns its id, or null when
   * the file at the path is no longer the regular file `seen` (a symlink swapped in, say).
   */
  hashFile(path: Buffer, seen: Stats): Promise<string | null>;
  /** Whether git's ignore rules (the user's and tole's built-in list) leave the path out. */
  ignored(path: Buffer): Promise<boolean>;
}

type KnownChanges =
  | { readonly ok: true; readonly changes: PathChange[]; readonly leftOut: LeftOut[] }
  | { readonly ok: false; readonly scan: string };

const RULE_FILES = new Set(['.gitignore', '.gitattributes']);

export async function knownChanges(
  root: string,
  named: readonly Buffer[],
  leftOutBefore: readonly LeftOut[],
  maxFileBytes: number,
  io: KnownChangeIO,
): Promise<KnownChanges> {
  const changes: PathChange[] = [];
  let leftOut = [...leftOutBefore];
  for (const path of named) {
    const parts = path.toString('latin1').split('/');
    const shown = pathText(path);
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p === '.git'))
      return { ok: false, scan: `${shown} is not a plain workspace path` };
    if (RULE_FILES.has(parts[parts.length - 1]!))
      return { ok: false, scan: `${shown} holds git rules for other paths` };
    // Bytes git would read as quoting (`--stdin-paths`) or pathspec magic (`check-ignore`).
    if (path.includes(0x0a) || path[0] === 0x22 || path[0] === 0x3a)
      return { ok: false, scan: `${shown} cannot be named to git on a line` };
    const onTheWay = folderOnTheWay(root, path);
    if (onTheWay !== null) return { ok: false, scan: `${shown}: ${onTheWay}` };
    const stat = lstatOrNull(under(root, path));
    leftOut = leftOut.filter((l) => !isAtOrUnder(leftOutBytes(l), path));
    if (stat === null) {
      changes.push({ path, entry: null });
    } else if (!stat.isFile()) {
      return { ok: false, scan: `${shown} is ${stat.isDirectory() ? 'a folder' : 'not a regular file'}` };
    } else if (stat.size > maxFileBytes) {
      changes.push({ path, entry: null });
      leftOut.push({ ...leftOutName(path), why: 'too-large', bytes: stat.size });
    } else {
      // An ignored file is never read. The read (tole's own, from the file the look saw) costs
      // far less than git's answer: nothing is gained by starting it beside.
      if (await io.ignored(path)) return { ok: false, scan: `${shown} is ignored` };
      const id = await io.hashFile(path, stat);
      if (id === null) return { ok: false, scan: `${shown} changed while tole read it` };
      changes.push({ path, entry: { mode: (stat.mode & 0o100) !== 0 ? '100755' : '100644', id } });
    }
  }
  return { ok: true, changes, leftOut };
}

/**
 * Why a folder on the way to a path needs a scan (a symlink or a file in its place, a nested
 * repository), or null. A folder that is gone ends the walk: the path is gone with it.
 */
function folderOnTheWay(root: string, path: Buffer): string | null {
  for (let slash = path.indexOf(0x2f); slash >= 0; slash = path.indexOf(0x2f, slash + 1)) {
    const folder = path.subarray(0, slash);
    const stat = lstatOrNull(under(root, folder));
    if (stat === null) return null;
    if (stat.isSymbolicLink()) return `${pathText(folder)} is a symlink`;
    if (!stat.isDirectory()) return `${pathText(folder)} is not a folder`;
    if (lstatOrNull(under(root, Buffer.concat([folder, DOT_GIT]))) !== null)
      return `${pathText(folder)} is a nested repository`;
  }
  return null;
}

const DOT_GIT = Buffer.from('/.git');

function leftOutName(path: Buffer): { path: string; raw?: string } {
  const text = pathText(path);
  return Buffer.from(text).equals(path) ? { path: text } : { path: text, raw: path.toString('base64') };
}

function leftOutBytes(l: LeftOut): Buffer {
  return l.raw === undefined ? Buffer.from(l.path) : Buffer.from(l.raw, 'base64');
}

function isAtOrUnder(path: Buffer, folder: Buffer): boolean {
  if (pathKey(path) === pathKey(folder)) return true;
  return path.length > folder.length && path[folder.length] === 0x2f && path.subarray(0, folder.length).equals(folder);
}
