import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type FileOps, nodeFileOps } from '../../../src/core/storage/file-ops';
import { lockPathFor, unlockSession } from '../../../src/core/storage/lock-file';
import { createStore, openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/** The real file operations, with every whole-file read of something not a regular file noted (it would wait for a writer). */
function notingOps(): { ops: FileOps; blockingReads: string[] } {
  const blockingReads: string[] = [];
  const ops: FileOps = {
    ...nodeFileOps,
    readFileSync: (path) => {
      if (nodeFileOps.kindOf(path) !== 'file') {
        blockingReads.push(path);
        throw Object.assign(new Error(`the read of ${path} would wait for a writer`), { code: 'EAGAIN' });
      }
      return nodeFileOps.readFileSync(path);
    },
  };
  return { ops, blockingReads };
}

describe.skipIf(process.platform === 'win32')('a FIFO where a session lock file should be', () => {
  it('is never read (that read waits forever): the open is refused as locked, and tole unlock removes it only when forced', () => {
    const store = createStore(dir.path);
    const path = store.path;
    store.close();
    execFileSync('mkfifo', [lockPathFor(path)]);
    const { ops, blockingReads } = notingOps();

    expect(() => openStore(path, { ops })).toThrowError(
      expect.objectContaining({ kind: 'locked', message: expect.stringContaining('cannot be read') }),
    );
    expect(unlockSession(ops, path).removed).toBe(false);
    expect(existsSync(lockPathFor(path))).toBe(true);
    expect(unlockSession(ops, path, true).removed).toBe(true);
    expect(blockingReads).toEqual([]);
    openStore(path, { ops }).close();
    expect(blockingReads).toEqual([]);
  });
});
