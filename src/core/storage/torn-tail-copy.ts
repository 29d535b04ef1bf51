import { dirname } from 'node:path';
import { describeIoError, StorageError } from './errors';
import { fsyncDirectory, type FileOps, writeWhole } from './file-ops';

/**
 * Copies the bytes about to be cut to `<file>.torn-<time>`, durably (the copy and its directory
 * entry fsynced), and returns its path. The tail is at most one commit line, so it is read whole.
 */
export function saveTornBytes(
  ops: FileOps,
  fd: number,
  path: string,
  offset: number,
  length: number,
  nowMs: number,
  nonce: string,
): string {
  const bytes = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = ops.readSync(fd, bytes, got, length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, '');
  // The opener's nonce tells apart two repairs in the same millisecond (or under a fixed clock).
  for (const aside of [`${path}.torn-${stamp}`, `${path}.torn-${stamp}-${nonce}`]) {
    let asideFd: number;
    try {
      asideFd = ops.openSync(aside, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !aside.endsWith(nonce)) continue;
      throw new StorageError(
        'not-committed',
        `the torn tail of ${path} was left in place: its ${length} bytes could not be copied aside (${describeIoError(error)})`,
        { path, cause: error },
      );
    }
    try {
      writeWhole(ops, asideFd, bytes.subarray(0, got), 0);
      ops.fdatasyncSync(asideFd);
      ops.closeSync(asideFd);
      fsyncDirectory(ops, dirname(path));
    } catch (error) {
      throw new StorageError(
        'not-committed',
        `the torn tail of ${path} was left in place: its ${length} bytes could not be copied to ${aside} (${describeIoError(error)})`,
        { path, cause: error },
      );
    }
    return aside;
  }
  throw new Error('assert: unreachable');
}
