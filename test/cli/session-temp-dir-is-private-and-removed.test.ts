/**
 * The session's own temp directory (what a sandboxed command sees at /tmp) is made fresh for
 * each session, readable by its owner alone, and removed with what a command left in it.
 */
import { mkdirSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSessionTempDir, removeSessionTempDir } from '../../src/cli/session-temp-dir';
import { tempDirForFile } from '../support/after-the-test';

const parent = tempDirForFile('tole-session-tmp-test-');

describe('the session temp directory', () => {
  it('is new for each session and mode 0700', () => {
    const one = makeSessionTempDir(parent);
    const two = makeSessionTempDir(parent);
    expect(one).not.toBe(two);
    expect(statSync(one).mode & 0o777).toBe(0o700);
  });

  it('is removed whole, without following a link a command left in it', () => {
    const dir = makeSessionTempDir(parent);
    const keep = path.join(parent, 'keep');
    mkdirSync(keep);
    writeFileSync(path.join(keep, 'file'), 'kept');
    mkdirSync(path.join(dir, 'nested'));
    writeFileSync(path.join(dir, 'nested', 'left.txt'), 'x');
    symlinkSync(keep, path.join(dir, 'link'));
    removeSessionTempDir(dir);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(path.join(keep, 'file'))).toBe(true);
  });

  it('is removed when tole exits', () => {
    makeSessionTempDir(parent);
    expect(process.listeners('exit').some((listener) => listener.name === 'removeAll')).toBe(true);
  });
});
