import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { planLines } from '../../../src/core/checkpoints/plan-text';
import { tempDirs, type TempDirs } from '../../support/agent-fixtures';

/** File names that are not UTF-8 (Latin-1 `café.txt`, a stray byte) go through checkpoints as bytes. */
let dirs: TempDirs;
beforeEach(() => {
  dirs = tempDirs('tole-checkpoint-bytes-');
});
afterEach(() => dirs.remove());

const latin1Cafe = Buffer.from('caf\xe9.txt', 'latin1');
const bigOdd = Buffer.from('big-\xff.bin', 'latin1');

function inWorkspace(name: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${dirs.root}/`), name]);
}

function namesInWorkspace(): Buffer[] {
  return readdirSync(dirs.root, { encoding: 'buffer' });
}

describe('a file name that is not UTF-8', () => {
  it('is in the checkpoint, comes back byte for byte, and is shown escaped', async () => {
    writeFileSync(inWorkspace(latin1Cafe), 'latin-1 name\n');
    writeFileSync(inWorkspace(Buffer.from('plain.txt')), 'plain\n');
    const checkpoints = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    const taken = await checkpoints.take();
    if (!taken.ok) throw new Error(taken.reason);
    const tree = spawnSync('git', ['ls-tree', '-z', '--name-only', taken.id], {
      env: { PATH: process.env['PATH'], GIT_DIR: checkpoints.directory, GIT_CONFIG_GLOBAL: '/dev/null' },
    }).stdout;
    expect(tree.includes(Buffer.concat([latin1Cafe, Buffer.from([0])]))).toBe(true);

    rmSync(inWorkspace(latin1Cafe));
    writeFileSync(inWorkspace(Buffer.from('new-\xe8.txt', 'latin1')), 'made later\n');
    const plan = await checkpoints.plan(taken.id);
    expect(plan).toMatchObject({ added: ['caf\\xe9.txt'], removed: ['new-\\xe8.txt'], changed: [] });
    expect(planLines(plan)).toEqual(expect.arrayContaining(['+ caf\\xe9.txt', '- new-\\xe8.txt']));

    await checkpoints.restore(taken.id);
    expect(readFileSync(inWorkspace(latin1Cafe), 'utf8')).toBe('latin-1 name\n');
    expect(
      namesInWorkspace()
        .map((n) => n.toString('latin1'))
        .sort(),
    ).toEqual(['caf\xe9.txt', 'plain.txt']);
  });

  it('is named in the left-out list when it is too large, and a restore leaves it alone', async () => {
    writeFileSync(inWorkspace(bigOdd), Buffer.alloc(3000, 1));
    const checkpoints = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, maxFileBytes: 2000 });
    const taken = await checkpoints.take();
    if (!taken.ok) throw new Error(taken.reason);
    expect(taken.leftOut).toEqual([
      { path: 'big-\\xff.bin', raw: bigOdd.toString('base64'), why: 'too-large', bytes: 3000 },
    ]);
    writeFileSync(inWorkspace(bigOdd), 'small now\n');
    const plan = await checkpoints.plan(taken.id);
    expect(plan).toMatchObject({ added: [], changed: [], removed: [] });
    expect(planLines(plan).join('\n')).toContain('big-\\xff.bin');
    await checkpoints.restore(taken.id);
    expect(existsSync(inWorkspace(bigOdd))).toBe(true);
  });
});
