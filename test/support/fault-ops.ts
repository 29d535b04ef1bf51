import { nodeFileOps, type FileOps } from '../../src/core/storage/file-ops';

export type WriteFault = 'enospc-after-partial' | 'zero-count' | null;

/** Real file operations with switchable faults: a disk that fills mid-write, a failing fdatasync. */
export interface FaultyOps extends FileOps {
  writeFault: WriteFault;
  failFdatasync: boolean;
  writes: number;
  fdatasyncs: number;
}

export function faultyOps(): FaultyOps {
  const ops: FaultyOps = {
    ...nodeFileOps,
    writeFault: null,
    failFdatasync: false,
    writes: 0,
    fdatasyncs: 0,
    writeSync(fd, buffer, offset, length, position) {
      ops.writes++;
      if (ops.writeFault === 'zero-count') return 0;
      if (ops.writeFault === 'enospc-after-partial') {
        nodeFileOps.writeSync(fd, buffer, offset, Math.max(1, Math.floor(length / 2)), position);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
      }
      return nodeFileOps.writeSync(fd, buffer, offset, length, position);
    },
    fdatasyncSync(fd) {
      ops.fdatasyncs++;
      if (ops.failFdatasync) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5 });
      nodeFileOps.fdatasyncSync(fd);
    },
  };
  return ops;
}
