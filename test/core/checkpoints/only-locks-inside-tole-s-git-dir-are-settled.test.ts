/**
 * tole removes a stale git lock only inside its own checkpoint directory. "Inside" is read by
 * path, not by text: a file whose name begins with two dots (`..x.lock`) is inside, a sibling
 * whose name only begins with the directory's (`<dir>x/…`) or a path that climbs out is not.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, settleLock } from '../../../src/core/checkpoints/git-locks';
import { tempDirForTest } from '../../support/after-the-test';

describe("a git lock in tole's checkpoint directory", () => {
  it('is inside when its name or a folder on the way begins with two dots', () => {
    const dir = tempDirForTest('tole-locks-');
    expect(isInside(dir, path.join(dir, '..x.lock'))).toBe(true);
    expect(isInside(dir, path.join(dir, '..refs', 'tole', 'checkpoints.lock'))).toBe(true);
    expect(isInside(dir, path.join(dir, 'index.lock'))).toBe(true);
  });

  it('is outside when it is the directory itself, a sibling with a longer name, or climbs out', () => {
    const dir = tempDirForTest('tole-locks-');
    expect(isInside(dir, dir)).toBe(false);
    expect(isInside(dir, `${dir}x/index.lock`)).toBe(false);
    expect(isInside(dir, `${dir}/../index.lock`)).toBe(false);
    expect(isInside(dir, `${dir}/refs/../../index.lock`)).toBe(false);
    expect(isInside(dir, '/index.lock')).toBe(false);
  });

  it('a stale one named `..x.lock` is removed; one outside the directory is left alone', () => {
    const parent = tempDirForTest('tole-locks-');
    const dir = path.join(parent, 'checkpoints');
    mkdirSync(dir);
    const dotted = path.join(dir, '..x.lock');
    const sibling = path.join(parent, 'checkpointsx.lock');
    writeFileSync(dotted, '');
    writeFileSync(sibling, '');
    expect(settleLock(dir, dotted)).toBe('removed-stale');
    expect(existsSync(dotted)).toBe(false);
    expect(settleLock(dir, sibling)).toBe('held');
    expect(existsSync(sibling)).toBe(true);
  });
});
