import { basename, dirname, join } from 'node:path';
import { randomHex, type Random } from '../clock';
import { StorageError } from './errors';
import { fsyncDirectory, type FileOps } from './file-ops';

/**
 * A session is written only through a name that is its file's one name. The lock is a file beside
 * the name, so a second name (a symlink to the file, or a hard link, as a repository or a sync
 * can hand over) would let a second tole take a second lock and write the same file; and a
 * symlink would have tole write wherever it points, outside the sessions folder. Read-only opens
 * still read through it.
 *
 * One second name is tole's own: `tole pull` and `tole convert` build a session under a temp name
 * beside it (`.` + 12 hex digits + `-` + the session's name), link it into place and then remove
 * the temp name, so a crash between the two leaves the session with two names. That name, when it
 * still names the same file, is removed (and the removal made durable) before the open goes on.
 */
export function refuseSecondName(ops: FileOps, path: string): void {
  let name = ops.nameOf?.(path);
  if (name && !name.symlink && name.names === 2 && removeOwnTempName(ops, path)) name = ops.nameOf?.(path);
  if (!name || (!name.symlink && name.names <= 1)) return;
  const what = name.symlink ? `${path} is a symbolic link` : `the file ${path} has ${name.names} names (hard links)`;
  throw new StorageError(
    'unreadable',
    `the session ${path} was not opened for writing: ${what}, and tole writes a session only through its one name, so that no second tole can write it by another name; nothing was written. Read it with --read-only, or copy it to a file of its own (cp, not ln) and open the copy`,
    { path, ownRemedy: true },
  );
}

/** The temp name `tole pull` and `tole convert` build the session `target` under, beside it. */
export function linkedTempNameOf(target: string, random: Random): string {
  return join(dirname(target), `.${randomHex(random, 6)}-${basename(target)}`);
}

/** Whether `candidate` is a name `linkedTempNameOf` gives for a session named `sessionName`. */
function isOwnTempNameOf(candidate: string, sessionName: string): boolean {
  return (
    candidate.length === sessionName.length + 14 &&
    candidate.endsWith(`-${sessionName}`) &&
    /^\.[0-9a-f]{12}-/.test(candidate)
  );
}

/** Removes a crashed pull's or convert's temp name of `path`'s file; whether one was removed. */
function removeOwnTempName(ops: FileOps, path: string): boolean {
  if (!ops.namesIn) return false;
  const dir = dirname(path);
  const id = ops.fileIdOf(path);
  const own = ops
    .namesIn(dir)
    .filter((candidate) => isOwnTempNameOf(candidate, basename(path)))
    .map((candidate) => join(dir, candidate))
    .find((candidate) => id !== null && ops.fileIdOf(candidate) === id);
  if (own === undefined) return false;
  ops.unlinkSync(own);
  fsyncDirectory(ops, dir);
  return true;
}
