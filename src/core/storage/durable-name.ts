import { dirname } from 'node:path';
import { describeIoError, StorageError } from './errors';
import { fsyncDirectory, type FileOps } from './file-ops';

/**
 * Makes the name of a session file about to take commits durable, before the first is
 * acknowledged: an earlier rewrite renamed the file into place (compaction, convert, pull) and
 * that rename's directory fsync may have failed, so after a crash the name could still fall back
 * to the file it replaced, taking every commit acknowledged since along. A failure opens nothing.
 */
export function makeNameDurable(ops: FileOps, path: string): void {
  try {
    fsyncDirectory(ops, dirname(path));
  } catch (error) {
    throw new StorageError(
      'not-committed',
      `the directory of ${path} could not be fsynced (${describeIoError(error)}), so the file's name might not survive a crash; nothing was written: open the session again`,
      { path, cause: error },
    );
  }
}
