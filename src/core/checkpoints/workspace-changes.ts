import { git, type GitTarget } from './git-command';
import { isUtf8 } from 'node:buffer';
import { lstatOrNull, nulBuffers, pathKey, pathText, under } from './path-bytes';
import type { LeftOut } from './restore-plan';

/**
 * What changed in the workspace since tole's index last took it in: the tracked paths whose file
 * differs from the index (modified, deleted, of another kind) and the untracked ones that no
 * ignore rule hides (a nested repository as its folder, with a `/` at the end). One git lists
 * both: `status`, which reads the index once, compares the files' stat data on git's preload
 * threads (re-reading a file only where its stat data changed and its bytes may not have), and
 * lists the untracked paths from git's untracked cache, which reads again only the folders whose
 * stat data changed since it last looked (`core.untrackedCache`; git uses it for `-uall` only when
 * `status.showUntrackedFiles` is `all` too). It keeps the refreshed stat data and the cache in the
 * index, unless another git holds the index's lock then.
 *
 * status also compares the index with HEAD, which in tole's directory is the last scan's commit
 * (checkpoint-directory.ts), whose tree the index holds: a walk of the few trees that differ, if
 * any. Those differences (the first column) say nothing about the workspace and are not read.
 *
 * `read-only` (a scan the change journal vouched for) writes nothing: with git's fsmonitor on, a
 * status that marks any entry looked at again writes the whole index (8.8 MB at 100,000 files,
 * ~40 ms), not the split part; what it would keep is only the stat data of the few paths the
 * journal named, which the next scan looks at again anyway.
 */
export async function workspaceChanges(
  target: GitTarget,
  stop: AbortSignal,
  keep: 'write-index' | 'read-only' = 'write-index',
): Promise<Buffer[]> {
  return changedInStatus(await git(target, keep === 'read-only' ? ['--no-optional-locks', ...STATUS] : STATUS, stop));
}

const STATUS = [
  '-c',
  'core.splitIndex=true',
  '-c',
  'core.untrackedCache=true',
  '-c',
  'status.showUntrackedFiles=all',
  'status',
  '--porcelain=v2',
  '-z',
  '--untracked-files=all',
  '--ignored=no',
  '--no-renames',
  '--ignore-submodules=all',
];

/**
 * The paths `status --porcelain=v2 -z` names as changed in the workspace: an entry whose second
 * status letter (index against workspace) is not `.`, and every untracked one (`?`). An entry's
 * path follows a fixed number of space-separated fields, so a path with spaces is read whole.
 */
export function changedInStatus(out: Buffer): Buffer[] {
  const records = nulBuffers(out);
  const changed: Buffer[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const kind = record[0];
    if (kind === UNTRACKED) changed.push(record.subarray(2));
    const fields = FIELDS_BEFORE_PATH.get(kind ?? -1);
    if (fields === undefined) continue;
    if (record[3] !== UNCHANGED) changed.push(afterFields(record, fields));
    // A rename's record is followed by the path it came from, a field of its own.
    if (kind === RENAMED) i++;
  }
  return changed;
}

const UNTRACKED = 0x3f; // '?'
const UNCHANGED = 0x2e; // '.'
const RENAMED = 0x32; // '2'

/** Space-separated fields before the path: `1 XY sub mH mI mW hH hI`, `2 … Xscore`, `u XY sub m1 m2 m3 mW h1 h2 h3`. */
const FIELDS_BEFORE_PATH = new Map<number, number>([
  [0x31, 8],
  [RENAMED, 9],
  [0x75, 10],
]);

/** The bytes of `record` after its first `fields` space-separated fields. */
function afterFields(record: Buffer, fields: number): Buffer {
  let at = 0;
  for (let i = 0; i < fields; i++) at = record.indexOf(0x20, at) + 1;
  return record.subarray(at);
}

/**
 * What a scan does with each changed path: a nested repository (its folder, listed with a `/`) is
 * left out; a file larger than `maxFileBytes` is left out and dropped from the index; a path one
 * of whose folders is no longer a folder (a symlink, a file, nothing: `a/b` made a link while the
 * index holds `a/b/x`) is dropped, as git refuses to stage a path beyond a symlink; every other
 * path is staged (added, updated, or removed when it is gone).
 */
export function sortChanges(
  workTree: string,
  listed: readonly Buffer[],
  maxFileBytes: number,
): { candidates: Buffer[]; stage: Buffer[]; drop: Buffer[]; leftOut: LeftOut[] } {
  // A path is listed once at most; the Map keeps it once whatever git prints.
  const candidates = [...new Map(listed.map((path) => [pathKey(path), path])).values()];
  const stage: Buffer[] = [];
  const drop: Buffer[] = [];
  const leftOut: LeftOut[] = [];
  const named = (path: Buffer): { path: string; raw?: string } =>
    isUtf8(path) ? { path: pathText(path) } : { path: pathText(path), raw: path.toString('base64') };
  const folders = new FolderCheck(workTree);
  for (const path of candidates) {
    if (path[path.length - 1] === 0x2f) {
      leftOut.push({ ...named(path.subarray(0, -1)), why: 'nested-repository' });
      continue;
    }
    if (!folders.allFolders(path)) {
      drop.push(path);
      continue;
    }
    const stat = lstatOrNull(under(workTree, path));
    if (stat?.isFile() && stat.size > maxFileBytes) {
      leftOut.push({ ...named(path), why: 'too-large', bytes: stat.size });
      drop.push(path);
    } else {
      stage.push(path);
    }
  }
  return { candidates, stage, drop, leftOut };
}

/** Whether every folder on a path's way is a real folder (not a symlink), each folder looked at once per scan. */
class FolderCheck {
  private readonly seen = new Map<string, boolean>();

  constructor(private readonly workTree: string) {}

  allFolders(path: Buffer): boolean {
    for (let end = path.indexOf(0x2f); end > 0; end = path.indexOf(0x2f, end + 1))
      if (!this.isFolder(path.subarray(0, end))) return false;
    return true;
  }

  private isFolder(folder: Buffer): boolean {
    const key = pathKey(folder);
    let known = this.seen.get(key);
    if (known === undefined) {
      known = lstatOrNull(under(this.workTree, folder))?.isDirectory() === true;
      this.seen.set(key, known);
    }
    return known;
  }
}
