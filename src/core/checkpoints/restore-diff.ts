import { folderInTheWay, folderInTheWayMessage } from './folders-in-the-way';
import { git, type GitTarget } from './git-command';
import { lstatOrNull, nulBuffers, pathKey, pathText, under } from './path-bytes';
import type { LeftOut, RestorePlan } from './restore-plan';

/**
 * What restoring checkpoint `id` would create, overwrite and remove, from the tree of the
 * workspace as it is now (`now`, just scanned): the two trees compared, the paths the checkpoint
 * left out kept as they are. Throws when a folder stands where the checkpoint holds a file that
 * the restore would have to write or remove.
 */
export async function restoreDiff(target: GitTarget, id: string, now: string, stop: AbortSignal): Promise<RestorePlan> {
  const leftOut = await leftOutOf(target, id, stop);
  const keep = new Set(
    leftOut.map((l) => pathKey(l.raw === undefined ? Buffer.from(l.path) : Buffer.from(l.raw, 'base64'))),
  );
  const diff = ['diff-tree', '-r', '-z', '--no-renames', now, `${id}^{tree}`];
  const raw = nulBuffers(await git(target, diff, stop));
  const added: Buffer[] = [];
  const changed: Buffer[] = [];
  const removed: Buffer[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const status = raw[i]!.toString('latin1').split(' ')[4]?.[0];
    const path = raw[i + 1]!;
    if (status === 'D') {
      if (!keep.has(pathKey(path))) removed.push(path);
    } else if (status === 'A') {
      (lstatOrNull(under(target.workTree, path)) !== null ? changed : added).push(path);
    } else {
      changed.push(path);
    }
  }
  const inTheWay = folderInTheWay(target.workTree, changed, removed);
  if (inTheWay !== null) throw new Error(folderInTheWayMessage(inTheWay));
  return {
    checkpoint: id,
    added: added.map(pathText),
    changed: changed.map(pathText),
    removed: removed.map(pathText),
    leftOut,
    bytes: { added, changed, removed },
  };
}

/** What checkpoint `id` left out, as its commit message says (nothing when it says nothing readable). */
async function leftOutOf(target: GitTarget, id: string, stop: AbortSignal): Promise<LeftOut[]> {
  const body = (await git(target, ['cat-file', 'commit', id], stop)).toString('utf8');
  const message = body.slice(body.indexOf('\n\n') + 2).trim();
  try {
    const parsed = JSON.parse(message) as { leftOut?: LeftOut[] };
    return Array.isArray(parsed.leftOut) ? parsed.leftOut : [];
  } catch {
    return [];
  }
}
