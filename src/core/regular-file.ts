import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

/**
 * The bytes of the regular file at `path` (a symlink followed), read through the descriptor that
 * was checked. Opened without blocking, so a FIFO (which waits for a writer) or a device (a
 * terminal waits for a key, /dev/zero never ends) that a repository's symlink or another user
 * put there is found not a file and never read: that throws, with code ENOTREG. `accepts` checks
 * more of the same descriptor's stats (who owns the file); a file it refuses throws ENOTACCEPTED.
 */
export function readRegularFile(path: string, accepts?: (stats: Stats) => boolean): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      const kind = stats.isDirectory() ? 'a directory' : stats.isFIFO() ? 'a FIFO' : 'a device or socket';
      throw Object.assign(new Error(`${path} is ${kind}, not a regular file: not read`), { code: 'ENOTREG' });
    }
    if (accepts && !accepts(stats))
      throw Object.assign(new Error(`${path} is not a file this reader takes: not read`), { code: 'ENOTACCEPTED' });
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
