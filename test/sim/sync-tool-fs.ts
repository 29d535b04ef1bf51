/**
 * The file tools' filesystem calls (src/core/tools/tool-fs.ts) made with node's synchronous
 * calls, for the fault simulator: the same real files in the schedule's workspace, the same
 * flags (O_NOFOLLOW, O_EXCL, O_DIRECTORY), the same dev/ino and `/proc/self/fd` answers, the same
 * errors (a rejected promise with the errno code), but no trip through the thread pool per call.
 * A profile of a shard spent its idle time, most of a tenth of it, waiting on those trips.
 *
 * Only what edit_file and write_file reach is here (the simulator runs no other file tool): a
 * handle method they do not call is missing, and calling one fails loudly.
 */
import {
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { ToolFs } from '../../src/core/tools/tool-fs';

/** The handle methods the file tools call, on a descriptor opened synchronously. */
class SyncHandle {
  constructor(readonly fd: number) {}

  async stat(options?: { bigint?: boolean }) {
    return fstatSync(this.fd, options);
  }

  async readFile(): Promise<Buffer> {
    return readFileSync(this.fd);
  }

  async read(buffer: Buffer, offset: number, length: number, position: number) {
    return { bytesRead: readSync(this.fd, buffer, offset, length, position), buffer };
  }

  /** The whole file as one chunk from the start, then closed, as a read stream closes its handle at the end. */
  async *createReadStream(): AsyncGenerator<Buffer> {
    try {
      const size = Number(fstatSync(this.fd).size);
      const bytes = Buffer.alloc(size);
      let filled = 0;
      while (filled < size) {
        const read = readSync(this.fd, bytes, filled, size - filled, filled);
        if (read === 0) break;
        filled += read;
      }
      yield bytes.subarray(0, filled);
    } finally {
      closeSync(this.fd);
    }
  }

  async writeFile(data: string, encoding: BufferEncoding): Promise<void> {
    writeFileSync(this.fd, data, encoding);
  }

  async chmod(mode: number): Promise<void> {
    fchmodSync(this.fd, mode);
  }

  async sync(): Promise<void> {
    fsyncSync(this.fd);
  }

  async close(): Promise<void> {
    closeSync(this.fd);
  }
}

/** Calls `call` inside a promise, so that its throw is a rejection, as the promise calls' errors are. */
function later<A extends unknown[], R>(call: (...args: A) => R): (...args: A) => Promise<R> {
  return async (...args) => call(...args);
}

export const SYNC_TOOL_FS = {
  lstat: later(lstatSync),
  readlink: later(readlinkSync),
  // The native realpath(3), as fs/promises' realpath is: one call, where realpathSync's JavaScript
  // walk lstat'ed each component of the path (a sixth of the tools' filesystem time in a profile).
  realpath: later(realpathSync.native),
  open: async (path: string, flags: number, mode?: number) =>
    new SyncHandle(openSync(path, flags, mode)) as unknown as FileHandle,
  mkdir: later(mkdirSync),
  readdir: later(readdirSync),
  rmdir: later(rmdirSync),
  unlink: later(unlinkSync),
  rename: later(renameSync),
  rm: later(rmSync),
} as unknown as ToolFs;
