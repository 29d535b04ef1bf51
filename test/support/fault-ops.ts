import { nodeFileOps, type FileOps } from '../../src/core/storage/file-ops';

export type WriteFault = 'enospc-after-partial' | 'zero-count' | null;

/** Real file operations with switchable faults: a disk that fills mid-write, a failing fdatasync. */
export interface FaultyOps extends FileOps {
  writeFault: WriteFault;
  failFdatasync: boolean;
  /** A directory's fsync fails with EIO (the file fsyncs go on working). */
  failDirectoryFsync: boolean;
  writes: number;
  fdatasyncs: number;
  /** In order: `write`, `fdatasync`, and `fsync-dir <path>` for each directory fsync that succeeded. */
  readonly log: string[];
}

export function faultyOps(): FaultyOps {
  const directories = new Map<number, string>();
  const ops: FaultyOps = {
    ...nodeFileOps,
    writeFault: null,
    failFdatasync: false,
    failDirectoryFsync: false,
    writes: 0,
    fdatasyncs: 0,
    log: [],
    openSync(path, flags, mode) {
      const fd = nodeFileOps.openSync(path, flags, mode);
      if (nodeFileOps.kindOf(path) === 'directory') directories.set(fd, path);
      return fd;
    },
    closeSync(fd) {
      directories.delete(fd);
      nodeFileOps.closeSync(fd);
    },
    fsyncSync(fd) {
      const directory = directories.get(fd);
      if (directory !== undefined && ops.failDirectoryFsync)
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO', errno: -5 });
      nodeFileOps.fsyncSync(fd);
      if (directory !== undefined) ops.log.push(`fsync-dir ${directory}`);
    },
    writeSync(fd, buffer, offset, length, position) {
      ops.writes++;
      ops.log.push('write');
      if (ops.writeFault === 'zero-count') return 0;
      if (ops.writeFault === 'enospc-after-partial') {
        nodeFileOps.writeSync(fd, buffer, offset, Math.max(1, Math.floor(length / 2)), position);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
      }
      return nodeFileOps.writeSync(fd, buffer, offset, length, position);
    },
    fdatasyncSync(fd) {
      ops.fdatasyncs++;
      ops.log.push('fdatasync');
      if (ops.failFdatasync) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5 });
      nodeFileOps.fdatasyncSync(fd);
    },
  };
  return ops;
}
