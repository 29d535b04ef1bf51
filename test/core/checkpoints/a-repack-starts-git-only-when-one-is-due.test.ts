/**
 * The checkpoint directory stays bounded without a `git gc --auto` after every checkpoint: tole
 * makes git's own estimate (loose objects in objects/17, packs) with a look at two folders and
 * starts git only when a repack may be due. The git here is a real wrapper first on the path that
 * logs each `gc` it is asked for with the loose objects objects/17 held then; each checkpoint
 * adds a file whose blob lands in objects/17, so the threshold is crossed within a few.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { repackMayBeDue, SMALL_PACKS } from '../../../src/core/checkpoints/repack-policy';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';
import { fileInCheckpoint, inCheckpoints } from '../../support/checkpoint-reads';
import { loggingGit } from '../../support/logging-git';

/** A file's text whose blob id starts with 17 (git's objects/17 folder), found by trying suffixes. */
function textIn17(seed: string): string {
  for (let i = 0; ; i++) {
    const text = `${seed} ${i}\n`;
    const id = createHash('sha1')
      .update(`blob ${Buffer.byteLength(text)}\0${text}`)
      .digest();
    if (id[0] === 0x17) return text;
  }
}

const looseIn17 = (gitDir: string): number =>
  existsSync(join(gitDir, 'objects', '17')) ? readdirSync(join(gitDir, 'objects', '17')).length : 0;

describe('a repack of the checkpoint directory', () => {
  it('starts git only when more loose objects than the policy allows are there, after scans and known-path checkpoints alike', async () => {
    const dir = tempDirForTest('tole-repack-when-due-');
    const [home, root] = [join(dir, 'home'), join(dir, 'workspace')];
    mkdirSync(home);
    mkdirSync(root);
    const git = loggingGit(dir);
    // 512 loose objects: git packs once objects/17 holds more than 2.
    const checkpoints = Checkpoints.create({
      home,
      workspaceRoot: root,
      gitBinary: git.binary,
      repack: { looseObjects: 512, inBackground: false },
    });
    afterTheTest(() => checkpoints.close());
    for (let round = 0; round < 8; round++) {
      writeFileSync(join(root, `file-${round}.txt`), textIn17(`round ${round}`));
      checkpoints.noteChanges([`file-${round}.txt`]);
      const taken = await checkpoints.take(round % 2 === 0 ? 'scan' : 'known-paths');
      expect(taken.ok).toBe(true);
      await checkpoints.settled();
      // Never more than the policy allows once the check has run.
      expect(looseIn17(checkpoints.directory)).toBeLessThanOrEqual(2);
    }
    const gcs = git.gcs();
    // git was asked only when it had work, and it had some: eight blobs in objects/17 at least.
    expect(gcs.length).toBeGreaterThan(0);
    for (const loose of gcs) expect(loose).toBeGreaterThan(2);
    expect(readdirSync(join(checkpoints.directory, 'objects', 'pack')).some((n) => n.endsWith('.pack'))).toBe(true);
  });

  it('is not asked of git after checkpoints that leave few loose objects', async () => {
    const dir = tempDirForTest('tole-repack-not-due-');
    const [home, root] = [join(dir, 'home'), join(dir, 'workspace')];
    mkdirSync(home);
    mkdirSync(root);
    const git = loggingGit(dir);
    const checkpoints = Checkpoints.create({ home, workspaceRoot: root, gitBinary: git.binary });
    afterTheTest(() => checkpoints.close());
    for (let round = 0; round < 4; round++) {
      writeFileSync(join(root, 'a.txt'), `round ${round}\n`);
      expect((await checkpoints.take()).ok).toBe(true);
    }
    await checkpoints.settled();
    expect(git.gcs()).toEqual([]);
  });
});

describe('the packs known-path checkpoints write', () => {
  it('stay few: the small ones are merged, never the first large one, and every checkpoint still reads and restores', async () => {
    const dir = tempDirForTest('tole-repack-packs-');
    const [home, root] = [join(dir, 'home'), join(dir, 'workspace')];
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    mkdirSync(home);
    // Enough files that the first pack holds more than twice the objects of every small pack together.
    for (let i = 0; i < 800; i++) writeFileSync(join(root, 'src', `base-${i}.ts`), `export const base = ${i};\n`);
    const git = loggingGit(dir);
    const checkpoints = Checkpoints.create({
      home,
      workspaceRoot: root,
      gitBinary: git.binary,
      repack: { looseObjects: 6700, inBackground: false },
    });
    afterTheTest(() => checkpoints.close());
    expect((await checkpoints.take()).ok).toBe(true);
    // The first checkpoint's objects packed once into a large pack, as gc would leave them.
    inCheckpoints(checkpoints, 'repack', '-a', '-d', '-q');
    const [large] = packsOf(checkpoints.directory);
    const ids: string[] = [];
    for (let round = 0; round < 3 * SMALL_PACKS; round++) {
      writeFileSync(join(root, 'src', 'deep', 'named.ts'), `export const round = ${round};\n`);
      checkpoints.noteChanges(['src/deep/named.ts']);
      const taken = await checkpoints.take('known-paths');
      if (!taken.ok) throw new Error(taken.reason);
      ids.push(taken.id);
      await checkpoints.settled();
      expect(packsOf(checkpoints.directory).length).toBeLessThanOrEqual(SMALL_PACKS);
    }
    // Each round wrote a pack (not loose objects), the small ones were merged, the large one kept.
    expect(git.starts().filter((args) => args.includes('repack --geometric=2 -d')).length).toBeGreaterThan(1);
    expect(git.starts().some((args) => /\bgc\b/.test(args))).toBe(false);
    expect(packsOf(checkpoints.directory)).toContain(large);
    inCheckpoints(checkpoints, 'fsck', '--strict', '--no-dangling');
    expect(
      inCheckpoints(checkpoints, 'rev-list', 'refs/tole/checkpoints').trim().split('\n').slice(0, ids.length),
    ).toEqual([...ids].reverse());
    const first = ids[0]!;
    expect(fileInCheckpoint(checkpoints.directory, first, 'src/deep/named.ts')).toBe('export const round = 0;\n');
    await checkpoints.restore(first);
    expect(readFileSync(join(root, 'src', 'deep', 'named.ts'), 'utf8')).toBe('export const round = 0;\n');
  });
});

const packsOf = (gitDir: string): string[] =>
  readdirSync(join(gitDir, 'objects', 'pack')).filter((name) => name.endsWith('.pack'));

describe("tole's estimate of git's gc --auto", () => {
  function objectDir(loose: readonly string[], packs: number): string {
    const dir = tempDirForTest('tole-repack-estimate-');
    mkdirSync(join(dir, 'objects', '17'), { recursive: true });
    mkdirSync(join(dir, 'objects', 'pack'));
    for (const name of loose) writeFileSync(join(dir, 'objects', '17', name), '');
    for (let i = 0; i < packs; i++) {
      writeFileSync(join(dir, 'objects', 'pack', `pack-${i}.pack`), '');
      writeFileSync(join(dir, 'objects', 'pack', `pack-${i}.idx`), '');
    }
    return dir;
  }
  const hex = (i: number, length: number): string => i.toString(16).padStart(length, '0');
  const policy = { looseObjects: 6700, inBackground: true };

  it('counts loose objects past a 256th of the threshold, rounded up, as git does', () => {
    // ceil(6700 / 256) = 27: 27 is not due, 28 is.
    const names = (count: number): string[] => Array.from({ length: count }, (_, i) => hex(i, 38));
    expect(repackMayBeDue(objectDir(names(27), 0), policy)).toBe(false);
    expect(repackMayBeDue(objectDir(names(28), 0), policy)).toBe(true);
    // SHA-256 names count too; temporary files and other names do not.
    const others = ['tmp_obj_abc', `${hex(1, 37)}`, `${hex(1, 38)}.lock`, `${hex(1, 38).toUpperCase()}x`];
    expect(repackMayBeDue(objectDir([...names(27), ...others], 0), policy)).toBe(false);
    expect(repackMayBeDue(objectDir([...names(27), hex(1, 62)], 0), policy)).toBe(true);
  });

  it('counts packs past fifty', () => {
    expect(repackMayBeDue(objectDir([], 50), policy)).toBe(false);
    expect(repackMayBeDue(objectDir([], 51), policy)).toBe(true);
  });

  it('asks git when the folders cannot be read, and never when the policy is off', () => {
    expect(repackMayBeDue(join(tempDirForTest('tole-repack-none-'), 'missing'), policy)).toBe(false);
    // objects/17 a file, not a folder: it cannot be listed.
    const dir = objectDir([], 0);
    rmSync(join(dir, 'objects', '17'), { recursive: true });
    writeFileSync(join(dir, 'objects', '17'), '');
    expect(repackMayBeDue(dir, policy)).toBe(true);
    expect(repackMayBeDue(dir, { looseObjects: 0, inBackground: true })).toBe(false);
  });
});
