/**
 * A restore that puts a file back where the workspace now holds a folder: git's checkout would
 * delete the folder with everything in it, also what no checkpoint keeps (a nested repository,
 * an ignored file, a file too large to checkpoint), which the restore's own checkpoint of the
 * present could not bring back. Such a restore is refused, named, before anything is written; a
 * folder holding only files the checkpoints keep is replaced as before (undoable).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { tempDirForTest } from '../../support/after-the-test';
import { userGit } from '../../support/workspace-state';

/** A workspace whose checkpoint holds the file `x`, which is then replaced by a folder `x` holding `inside`. */
async function fileBecameFolder(inside: Record<string, string>, setup?: (root: string) => void) {
  const root = tempDirForTest('tole-restore-folder-ws-');
  const home = tempDirForTest('tole-restore-folder-home-');
  setup?.(root);
  writeFileSync(join(root, 'x'), 'the file x\n');
  const checkpoints = Checkpoints.create({ home, workspaceRoot: root, maxFileBytes: 2000 });
  const taken = await checkpoints.take();
  if (!taken.ok) throw new Error(taken.reason);
  rmSync(join(root, 'x'));
  for (const [path, text] of Object.entries(inside)) {
    mkdirSync(join(root, 'x', path, '..'), { recursive: true });
    writeFileSync(join(root, 'x', path), text);
  }
  return { root, checkpoints, id: taken.id };
}

describe('a restore that would put a file where a folder is now', () => {
  it('is refused when the folder holds a nested repository, and nothing is written', async () => {
    const { root, checkpoints, id } = await fileBecameFolder({ 'notes.txt': 'mine\n' });
    userGit(join(root, 'x'), 'init', '-q');
    const refusal = /the folder x .*x\/\.git\/.*no checkpoint keeps.*nothing was written\. Move x out of the way/;
    await expect(checkpoints.plan(id)).rejects.toThrow(refusal);
    await expect(checkpoints.restore(id)).rejects.toThrow(refusal);
    expect(existsSync(join(root, 'x', '.git', 'HEAD'))).toBe(true);
    expect(readFileSync(join(root, 'x', 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('is refused when the folder holds an ignored file', async () => {
    const { root, checkpoints, id } = await fileBecameFolder({ 'a/debug.log': 'kept\n' }, (ws) =>
      writeFileSync(join(ws, '.gitignore'), '*.log\n'),
    );
    await expect(checkpoints.restore(id)).rejects.toThrow(
      /the folder x .*also x\/a\/debug\.log, which no checkpoint keeps/,
    );
    expect(readFileSync(join(root, 'x', 'a', 'debug.log'), 'utf8')).toBe('kept\n');
  });

  it('is refused when the folder holds a file too large to checkpoint', async () => {
    const { root, checkpoints, id } = await fileBecameFolder({ 'big.bin': 'b'.repeat(3000) });
    await expect(checkpoints.restore(id)).rejects.toThrow(/also x\/big\.bin, which no checkpoint keeps/);
    expect(readFileSync(join(root, 'x', 'big.bin'), 'utf8')).toHaveLength(3000);
  });

  it('replaces a folder whose every file the checkpoints keep, and the restore can be undone', async () => {
    const { root, checkpoints, id } = await fileBecameFolder({ 'a.txt': 'a\n', 'deep/b.txt': 'b\n' });
    const before = await checkpoints.take();
    if (!before.ok) throw new Error(before.reason);
    const plan = await checkpoints.restore(id);
    expect(plan.removed.toSorted()).toEqual(['x/a.txt', 'x/deep/b.txt']);
    expect(readFileSync(join(root, 'x'), 'utf8')).toBe('the file x\n');
    await checkpoints.restore(before.id);
    expect(readFileSync(join(root, 'x', 'deep', 'b.txt'), 'utf8')).toBe('b\n');
  });
});
