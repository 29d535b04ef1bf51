import { StorageError } from './errors';
import type { FileOps } from './file-ops';

/**
 * A session is written only through a name that is its file's one name. The lock is a file beside
 * the name, so a second name (a symlink to the file, or a hard link, as a repository or a sync
 * can hand over) would let a second tole take a second lock and write the same file; and a
 * symlink would have tole write wherever it points, outside the sessions folder. Read-only opens
 * still read through it.
 */
export function refuseSecondName(ops: FileOps, path: string): void {
  const name = ops.nameOf?.(path);
  if (!name || (!name.symlink && name.names <= 1)) return;
  const what = name.symlink ? `${path} is a symbolic link` : `the file ${path} has ${name.names} names (hard links)`;
  throw new StorageError(
    'unreadable',
    `the session ${path} was not opened for writing: ${what}, and tole writes a session only through its one name, so that no second tole can write it by another name; nothing was written. Read it with --read-only, or copy it to a file of its own (cp, not ln) and open the copy`,
    { path, ownRemedy: true },
  );
}
