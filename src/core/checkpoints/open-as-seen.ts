import { closeSync, constants, fstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { under } from './path-bytes';

/**
 * Opens a workspace file as the regular file an `lstat` of its path saw, or returns null: between
 * that look and a read, another process may have put a symlink in its place (or in the place of a
 * folder on its way), and a read through the path would then take a file from outside the
 * workspace for this path's bytes. So the file is opened without following a symlink at its last
 * step (O_NOFOLLOW; O_NONBLOCK, so that a FIFO put there does not block the open), and kept only
 * when the open file is the one seen (same device and inode, still a regular file) and the kernel
 * names it by the workspace path itself (`/proc/self/fd`): a symlinked folder on the way would make
 * that name another. A read of the returned descriptor (file-blobs.ts) reads that file, whatever is
 * at the path by then.
 *
 * `realRoot` is the workspace root with its own symlinks resolved (the kernel's name starts with it).
 */
export function openAsSeen(realRoot: string, path: Buffer, seen: Stats): number | null {
  const full = under(realRoot, path);
  let fd: number;
  try {
    fd = openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return null;
  }
  try {
    const opened = fstatSync(fd);
    if (opened.isFile() && opened.dev === seen.dev && opened.ino === seen.ino) {
      const named = readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' });
      if (named.equals(full)) return fd;
    }
  } catch {
    // No /proc, or the descriptor cannot be named: the file cannot be vouched for.
  }
  closeSync(fd);
  return null;
}
