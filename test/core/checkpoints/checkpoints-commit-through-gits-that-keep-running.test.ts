/**
 * Every checkpoint, a scan's as a known-path one's, writes its commit itself (loose-object.ts) and
 * moves the ref through a git that keeps running (piped-ref.ts): a bash call's checkpoint starts
 * no `commit-tree`, no `hash-object` for its commit and no `update-ref` of its own, and the first
 * one reads the ref's head from its file, not by a `rev-parse`. Where those gits cannot move the ref (another tole moved it, a lock
 * file), a git of its own does, as before; a hanging one is stopped like any checkpoint git.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';
import { fileInCheckpoint, inCheckpoints } from '../../support/checkpoint-reads';
import { hangingGit, testTimer } from '../../support/hanging-git';
import { loggingGit } from '../../support/logging-git';

function workspace(): { home: string; root: string; dir: string } {
  const dir = tempDirForTest('tole-piped-ref-');
  const [home, root] = [join(dir, 'home'), join(dir, 'workspace')];
  mkdirSync(home);
  mkdirSync(root);
  return { home, root, dir };
}

async function take(checkpoints: Checkpoints): Promise<string> {
  const taken = await checkpoints.take();
  if (!taken.ok) throw new Error(`checkpoint failed: ${taken.reason}`);
  return taken.id;
}

describe('scan checkpoints', () => {
  it('commit by themselves and move the ref through a git that keeps running: one start of it for a series', async () => {
    const { home, root, dir } = workspace();
    const git = loggingGit(dir);
    const checkpoints = Checkpoints.create({ home, workspaceRoot: root, gitBinary: git.binary });
    afterTheTest(() => checkpoints.close());
    const ids: string[] = [];
    for (let round = 0; round < 4; round++) {
      writeFileSync(join(root, 'a.txt'), `round ${round}\n`);
      ids.push(await take(checkpoints));
    }
    const starts = git.starts();
    expect(starts.filter((s) => /(^| )(commit-tree|update-ref) /.test(`${s} `) && !s.includes('--stdin'))).toEqual([]);
    expect(starts.filter((s) => s.includes('update-ref --stdin'))).toHaveLength(1);
    expect(starts.filter((s) => /(^| )(hash-object|rev-parse) /.test(s))).toEqual([]);
    // Each is on the chain, its parent the one before, and holds its round's file.
    expect(inCheckpoints(checkpoints, 'rev-list', 'refs/tole/checkpoints').trim().split('\n')).toEqual(
      [...ids].reverse(),
    );
    ids.forEach((id, round) => expect(fileInCheckpoint(checkpoints.directory, id, 'a.txt')).toBe(`round ${round}\n`));
  });

  it("of a second store ask no git's --version again, where a git that failed is asked each time", async () => {
    const { home, root, dir } = workspace();
    const git = loggingGit(dir);
    const stores = [0, 1].map(() => Checkpoints.create({ home, workspaceRoot: root, gitBinary: git.binary }));
    afterTheTest(() => {
      for (const store of stores) store.close();
    });
    writeFileSync(join(root, 'a.txt'), 'a\n');
    for (const store of stores) await take(store);
    expect(git.starts().filter((s) => s === '--version')).toHaveLength(1);
    // The first store's first checkpoint read the ref's head from its file; the second's found it moved.
    expect(git.starts().filter((s) => s.startsWith('rev-parse'))).toEqual([]);
    const missing = join(dir, 'no-such-git');
    for (let i = 0; i < 2; i++) {
      const off = Checkpoints.create({ home, workspaceRoot: root, gitBinary: missing });
      expect(off.offReason).toMatch(/no usable git binary/);
    }
  });

  it('move the ref by a git of its own when another tole moved it meanwhile, keeping both on the chain', async () => {
    const { home, root } = workspace();
    const [a, b] = [
      Checkpoints.create({ home, workspaceRoot: root }),
      Checkpoints.create({ home, workspaceRoot: root }),
    ];
    afterTheTest(() => {
      a.close();
      b.close();
    });
    writeFileSync(join(root, 'a.txt'), 'one\n');
    const first = await take(a);
    writeFileSync(join(root, 'a.txt'), 'two\n');
    const second = await take(b);
    // a's running gits still expect the ref at `first`.
    writeFileSync(join(root, 'a.txt'), 'three\n');
    const third = await take(a);
    const chain = inCheckpoints(a, 'rev-list', 'refs/tole/checkpoints').trim().split('\n');
    expect(new Set(chain)).toEqual(new Set([third, second, first]));
    expect(inCheckpoints(a, 'rev-parse', 'refs/tole/checkpoints').trim()).toBe(third);
    expect(fileInCheckpoint(a.directory, third, 'a.txt')).toBe('three\n');
  });

  // (A scan's gits write an index of the scan's own, whose lock no other scan takes: own-index.ts.)
  it.each([
    'refs/tole/checkpoints.lock',
  ])("past a stale %s a killed git left, while tole's own gits keep running", async (lock) => {
    const { home, root } = workspace();
    const checkpoints = Checkpoints.create({ home, workspaceRoot: root, lockWaitsMs: [20, 50, 100] });
    afterTheTest(() => checkpoints.close());
    writeFileSync(join(root, 'a.txt'), 'one\n');
    await take(checkpoints);
    // A known-path checkpoint too: its gits (cat-file, hash-object, mktree, check-ignore) keep running.
    writeFileSync(join(root, 'b.txt'), 'b\n');
    checkpoints.noteChanges(['b.txt']);
    expect((await checkpoints.take('known-paths')).ok).toBe(true);
    writeFileSync(join(checkpoints.directory, lock), '');
    writeFileSync(join(root, 'a.txt'), 'two\n');
    const id = await take(checkpoints);
    expect(fileInCheckpoint(checkpoints.directory, id, 'a.txt')).toBe('two\n');
    expect(existsSync(join(checkpoints.directory, lock))).toBe(false);
  });

  it('whose ref git hangs is stopped at the time limit, and the next checkpoint starts it again', async () => {
    const { home, root } = workspace();
    const git = hangingGit();
    const limit = testTimer();
    const checkpoints = Checkpoints.create({ home, workspaceRoot: root, gitBinary: git.binary, timer: limit.timer });
    afterTheTest(() => checkpoints.close());
    writeFileSync(join(root, 'a.txt'), 'a\n');
    git.hangAt('update-ref');
    const taking = checkpoints.take();
    await git.hanging();
    limit.expire();
    expect(await taking).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/git update-ref was stopped: it ran past the checkpoint time limit/),
    });
    git.release();
    const id = await take(checkpoints);
    expect(fileInCheckpoint(checkpoints.directory, id, 'a.txt')).toBe('a\n');
  });
});
