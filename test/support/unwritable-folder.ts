/**
 * A folder a test makes unwritable (nothing can be created in it or removed from it) and writable
 * again: immutable as root (root ignores modes), read-only otherwise.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirForFile } from './after-the-test';

export const asRoot = process.getuid?.() === 0;

export function setWritable(dir: string, writable: boolean): void {
  if (asRoot) spawnSync('chattr', [writable ? '-i' : '+i', dir]);
  else chmodSync(dir, writable ? 0o755 : 0o555);
}

/**
 * Whether this machine lets a test make a folder unwritable (root without CAP_LINUX_IMMUTABLE cannot).
 * Ask while the tests are collected, so its folder goes when the block that asked ends.
 */
export function canMakeUnwritable(): boolean {
  const dir = tempDirForFile('tole-unwritable-probe-');
  setWritable(dir, false);
  try {
    writeFileSync(join(dir, 'probe'), 'x');
    return false;
  } catch {
    return true;
  } finally {
    setWritable(dir, true);
  }
}
