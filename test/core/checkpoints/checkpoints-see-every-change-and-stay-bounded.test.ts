/**
 * A checkpoint holds the workspace as it was, whatever changed it between checkpoints and however
 * (tole lists what changed with one `git status`, and keeps its index
 * between checkpoints): a change that keeps the size and the mtime, a mode, a file turned into a
 * symlink or a directory and back, a case-only rename, another tole's checkpoint in between. And
 * the checkpoint directory is repacked once it holds more loose objects than the policy allows,
 * every checkpoint still restorable afterwards.
 */
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import type { RepackPolicy } from '../../../src/core/checkpoints/repack-policy';
import { tempDirs, type TempDirs } from '../../support/agent-fixtures';
import { treeState, type TreeState } from '../../support/workspace-state';
import { inCheckpoints } from '../../support/checkpoint-reads';

let dirs: TempDirs;
beforeEach(() => {
  dirs = tempDirs('tole-checkpoint-changes-');
});
afterEach(() => dirs.remove());

function tole(repack?: RepackPolicy): Checkpoints {
  return Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, ...(repack ? { repack } : {}) });
}

async function take(checkpoints: Checkpoints): Promise<string> {
  const taken = await checkpoints.take();
  if (!taken.ok) throw new Error(`checkpoint failed: ${taken.reason}`);
  return taken.id;
}

function looseObjects(checkpoints: Checkpoints): number {
  return Number(/^count: (\d+)$/m.exec(inCheckpoints(checkpoints, 'count-objects', '-v'))?.[1]);
}

const at = (...parts: string[]): string => join(dirs.root, ...parts);

/**
 * 256 small source files in four folders: more loose objects than a policy of 256 allows. git
 * counts loose objects in one of its 256 object folders (objects/17) and packs past
 * looseObjects / 256 there: these files' blobs put three in it, so `gc --auto` packs after the
 * first checkpoint (the tests below check that it did).
 */
function writeSourceFiles(): void {
  for (let d = 0; d < 4; d++) {
    mkdirSync(at(`pkg${d}`));
    for (let f = 0; f < 64; f++) writeFileSync(at(`pkg${d}`, `mod${f}.ts`), `export const v = ${d * 64 + f};\n`);
  }
}

describe('a checkpoint holds every change made since the last one', () => {
  it('restores each of a series of changes no tool announced, byte, mode and kind', async () => {
    const [a, b] = [tole(), tole()];
    mkdirSync(at('src'));
    writeFileSync(at('src', 'same-size.ts'), 'export const a = 1;\n');
    writeFileSync(at('run.sh'), '#!/bin/sh\n');
    writeFileSync(at('becomes-link.txt'), 'a file first\n');
    writeFileSync(at('becomes-dir'), 'a file first\n');
    writeFileSync(at('case.txt'), 'lower case name\n');
    writeFileSync(at('gone.txt'), 'removed later\n');
    const changes: (() => void)[] = [
      // The same size and the old mtime put back: only the ctime says it changed.
      () => {
        writeFileSync(at('src', 'same-size.ts'), 'export const a = 2;\n');
        utimesSync(at('src', 'same-size.ts'), new Date(2020, 0, 1), new Date(2020, 0, 1));
      },
      () => {
        chmodSync(at('run.sh'), 0o755);
        rmSync(at('becomes-link.txt'));
        symlinkSync('src/same-size.ts', at('becomes-link.txt'));
      },
      () => {
        rmSync(at('becomes-dir'));
        mkdirSync(at('becomes-dir', 'inner'), { recursive: true });
        writeFileSync(at('becomes-dir', 'inner', 'file.txt'), 'inside\n');
      },
      () => {
        renameSync(at('case.txt'), at('CASE.txt'));
        rmSync(at('gone.txt'));
      },
      () => {
        rmSync(at('becomes-dir'), { recursive: true });
        writeFileSync(at('becomes-dir'), 'a file again\n');
        mkdirSync(at('new', 'deep'), { recursive: true });
        writeFileSync(at('new', 'deep', 'made.txt'), 'new\n');
      },
    ];
    const taken: { id: string; state: TreeState }[] = [{ state: treeState(dirs.root), id: await take(a) }];
    for (const [i, change] of changes.entries()) {
      change();
      // The toles take turns: each finds the index as the other left it.
      taken.push({ state: treeState(dirs.root), id: await take(i % 2 === 0 ? b : a) });
    }
    for (const [i, { id, state }] of [...taken].reverse().entries()) {
      await (i % 2 === 0 ? a : b).restore(id);
      expect(treeState(dirs.root)).toEqual(state);
    }
  });
});

describe("tole's index", () => {
  it('is made again from the workspace when git cannot read it, and the checkpoint still holds every file', async () => {
    const checkpoints = tole();
    writeFileSync(at('a.txt'), 'a\n');
    await take(checkpoints);
    writeFileSync(at('b.txt'), 'b\n');
    await take(checkpoints);
    const damages = [
      // Its shared part removed (the index is kept split), then the index itself overwritten.
      () => {
        for (const name of readdirSync(checkpoints.directory))
          if (name.startsWith('sharedindex.')) rmSync(join(checkpoints.directory, name));
      },
      () => writeFileSync(join(checkpoints.directory, 'index'), 'not an index'),
    ];
    for (const [i, damage] of damages.entries()) {
      damage();
      writeFileSync(at(`after-${i}.txt`), `${i}\n`);
      const state = treeState(dirs.root);
      const id = await take(checkpoints);
      writeFileSync(at('a.txt'), 'changed afterwards\n');
      await checkpoints.restore(id);
      expect(treeState(dirs.root)).toEqual(state);
    }
  });
});

describe('the checkpoint directory is repacked', () => {
  it('once it holds more loose objects than the policy allows, and every checkpoint is still there and restorable', async () => {
    writeSourceFiles();
    const checkpoints = tole({ looseObjects: 256, inBackground: false });
    const ids = [await take(checkpoints)];
    const states = [treeState(dirs.root)];
    await checkpoints.settled();
    // The 256 blobs of the first checkpoint were packed; what is loose is what came after.
    expect(looseObjects(checkpoints)).toBeLessThan(64);
    expect(readdirSync(join(checkpoints.directory, 'objects', 'pack')).some((n) => n.endsWith('.pack'))).toBe(true);
    for (let i = 0; i < 2; i++) {
      writeFileSync(at('pkg0', 'mod0.ts'), `export const v = 'round ${i}';\n`);
      rmSync(at(`pkg${i + 1}`, 'mod1.ts'));
      states.push(treeState(dirs.root));
      ids.push(await take(checkpoints));
    }
    await checkpoints.settled();
    for (const id of ids) expect(await checkpoints.has(id)).toBe(true);
    await checkpoints.restore(ids[0]!);
    expect(treeState(dirs.root)).toEqual(states[0]);
  });

  it('while another tole takes checkpoints, losing none of either', async () => {
    writeSourceFiles();
    // One repacks after each of its checkpoints (its threshold is low), the other never needs to.
    const [packer, other] = [tole({ looseObjects: 256, inBackground: false }), tole()];
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      writeFileSync(at('pkg0', `round-${round}.ts`), `export const round = ${round};\n`);
      ids.push(...(await Promise.all([take(packer), take(other)])));
      await Promise.all([packer.settled(), other.settled()]);
    }
    const chain = new Set(inCheckpoints(packer, 'rev-list', 'refs/tole/checkpoints').trim().split('\n'));
    for (const id of ids) expect(chain.has(id)).toBe(true);
    expect(inCheckpoints(packer, 'fsck', '--connectivity-only', '--no-dangling')).toBe('');
    expect(looseObjects(packer)).toBeLessThan(64);
  });

  it('not while there are fewer loose objects than that', async () => {
    writeFileSync(at('one.txt'), 'one\n');
    const checkpoints = tole();
    await take(checkpoints);
    await checkpoints.settled();
    expect(looseObjects(checkpoints)).toBeGreaterThan(0);
    expect(readdirSync(join(checkpoints.directory, 'objects', 'pack')).filter((n) => n.endsWith('.pack'))).toEqual([]);
  });
});
