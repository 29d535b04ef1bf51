/**
 * A folder the index holds files under, made a symlink (or a file, or a symlink made a folder),
 * is checkpointed as it now stands: git refuses to stage a path beyond a symlink, so what the
 * index held under the old folder is dropped before the link is staged. The first case is the
 * one the scan property found (a/b/x.txt, then a/b a link).
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';
import { inCheckpoints } from '../../support/checkpoint-reads';

/** Each path in checkpoint `id` with its mode (`120000` a symlink, `100644` a file). */
function held(checkpoints: Checkpoints, id: string): string[] {
  return inCheckpoints(checkpoints, 'ls-tree', '-r', '--format=%(objectmode) %(path)', id).trim().split('\n');
}

function workspace(): { root: string; checkpoints: Checkpoints } {
  const dir = tempDirForTest('tole-folder-made-a-link-');
  const root = join(dir, 'workspace');
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  const checkpoints = Checkpoints.create({ home: join(dir, 'home'), workspaceRoot: root });
  afterTheTest(() => checkpoints.close());
  return { root, checkpoints };
}

async function take(checkpoints: Checkpoints): Promise<string> {
  const taken = await checkpoints.take();
  if (!taken.ok) throw new Error(taken.reason);
  return taken.id;
}

describe('a folder made a symlink', () => {
  it('is held as the link, and the files the folder held are gone from the checkpoint', async () => {
    const { root, checkpoints } = workspace();
    writeFileSync(join(root, 'a', 'b', 'x.txt'), '');
    expect(held(checkpoints, await take(checkpoints))).toEqual(['100644 a/b/x.txt']);
    rmSync(join(root, 'a', 'b'), { recursive: true });
    symlinkSync('x.txt', join(root, 'a', 'b'));
    writeFileSync(join(root, 'x.txt'), '');
    expect(held(checkpoints, await take(checkpoints))).toEqual(['120000 a/b', '100644 x.txt']);
    writeFileSync(join(root, '.gitignore'), '*.txt\n');
    expect(held(checkpoints, await take(checkpoints))).toEqual(['100644 .gitignore', '120000 a/b', '100644 x.txt']);
  });

  it('is held as the link when the link leads to a folder holding the same names', async () => {
    const { root, checkpoints } = workspace();
    mkdirSync(join(root, 'c'));
    writeFileSync(join(root, 'a', 'b', 'x.txt'), 'in the folder');
    writeFileSync(join(root, 'c', 'x.txt'), 'where the link leads');
    await take(checkpoints);
    rmSync(join(root, 'a', 'b'), { recursive: true });
    symlinkSync('../c', join(root, 'a', 'b'));
    expect(held(checkpoints, await take(checkpoints))).toEqual(['120000 a/b', '100644 c/x.txt']);
  });

  it('and back: a link made a folder, a folder made a file, a link to the workspace itself', async () => {
    const { root, checkpoints } = workspace();
    rmSync(join(root, 'a', 'b'), { recursive: true });
    symlinkSync('x.txt', join(root, 'a', 'b'));
    expect(held(checkpoints, await take(checkpoints))).toEqual(['120000 a/b']);
    rmSync(join(root, 'a', 'b'));
    mkdirSync(join(root, 'a', 'b'));
    writeFileSync(join(root, 'a', 'b', 'x.txt'), 'x');
    expect(held(checkpoints, await take(checkpoints))).toEqual(['100644 a/b/x.txt']);
    rmSync(join(root, 'a'), { recursive: true });
    writeFileSync(join(root, 'a'), 'now a file');
    expect(held(checkpoints, await take(checkpoints))).toEqual(['100644 a']);
    rmSync(join(root, 'a'));
    symlinkSync('.', join(root, 'a'));
    expect(held(checkpoints, await take(checkpoints))).toEqual(['120000 a']);
  });

  it('a restore of the checkpoint before it brings the folder back in place of a link to outside, writing nothing there', async () => {
    const { root, checkpoints } = workspace();
    const outside = join(root, '..', 'outside');
    mkdirSync(outside);
    writeFileSync(join(root, 'a', 'b', 'x.txt'), 'in the folder\n');
    const before = await take(checkpoints);
    rmSync(join(root, 'a', 'b'), { recursive: true });
    symlinkSync(outside, join(root, 'a', 'b'));
    expect(held(checkpoints, await take(checkpoints))).toEqual(['120000 a/b']);

    await checkpoints.restore(before);

    expect(lstatSync(join(root, 'a', 'b')).isDirectory()).toBe(true);
    expect(readFileSync(join(root, 'a', 'b', 'x.txt'), 'utf8')).toBe('in the folder\n');
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
  });
});
