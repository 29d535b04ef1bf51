import { execFileSync } from 'node:child_process';
import { existsSync, statfsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from './after-the-test';
import { spreadInodesUnder } from './spread-inodes';

/** statfs's f_type of ext2/3/4 and of a tmpfs (linux/magic.h). */
const EXT4_MAGIC = 0xef53;
const TMPFS_MAGIC = 0x01021994;

const flags = (dir: string): string => execFileSync('lsattr', ['-d', dir], { encoding: 'utf8' }).split(' ')[0]!;
const hasChattr = ((): boolean => {
  try {
    execFileSync('chattr', ['--help'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
})();

describe("a tier's temp directory on ext4", () => {
  it.runIf(hasChattr)('carry the top-directory mark where the disk is ext4', () => {
    const dir = tempDirForTest('tole-spread-');
    const ext4 = statfsSync(dir).type === EXT4_MAGIC;
    expect(flags(dir)).not.toContain('T');
    expect(spreadInodesUnder(dir)).toBe(ext4);
    if (ext4) expect(flags(dir)).toContain('T');
  });

  it.runIf(existsSync('/dev/shm') && statfsSync('/dev/shm').type === TMPFS_MAGIC)(
    'are left as they are on another file system, without failing',
    () => {
      expect(spreadInodesUnder(tempDirForTest('tole-spread-', '/dev/shm'))).toBe(false);
    },
  );

  it('are left as they are where chattr is not there, without failing', () => {
    const dir = tempDirForTest('tole-spread-');
    expect(spreadInodesUnder(dir, { PATH: '/nonexistent' })).toBe(false);
    if (hasChattr) expect(flags(dir)).not.toContain('T');
  });
});
