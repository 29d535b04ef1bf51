/**
 * A known-path checkpoint's objects go into one pack tole writes itself (object-pack.ts). git must
 * read it as its own: each object with the id git gives the same bytes, the index byte for byte
 * the one `git index-pack` makes from the pack, `verify-pack` and `fsck --strict` clean, in SHA-1
 * and SHA-256 directories; sizes that need one, two and three header bytes, an empty blob; an
 * object given twice is packed once; a git started before the pack was written finds it; no
 * temporary file is left.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PackObject, writeObjectPack } from '../../../src/core/checkpoints/object-pack';
import { tempDirForTest } from '../../support/after-the-test';

const ENV = { PATH: process.env['PATH'], GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function gitIn(dir: string, args: readonly string[], input?: string | Buffer): Buffer {
  const run = spawnSync('git', args, { input, env: { ...ENV, GIT_DIR: dir } });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

function bareDirectory(format: 'sha1' | 'sha256'): string {
  const dir = join(tempDirForTest('tole-pack-'), 'checkpoints.git');
  const made = spawnSync('git', ['init', '-q', '--bare', `--object-format=${format}`, dir], { env: ENV });
  if (made.status !== 0) throw new Error(String(made.stderr));
  return dir;
}

/** A blob, a tree holding it and a commit of that tree, and blobs of sizes around the header's byte limits. */
function someObjects(dir: string): PackObject[] {
  const blob = Buffer.from('export const x = 1;\n');
  const blobId = gitIn(dir, ['hash-object', '--stdin'], blob).toString().trim();
  const tree = Buffer.concat([Buffer.from('100644 x.ts\0'), Buffer.from(blobId, 'hex')]);
  const treeId = gitIn(dir, ['hash-object', '-t', 'tree', '--stdin'], tree).toString().trim();
  const who = 'tole <tole@localhost> 1700000000 +0000';
  const commit = Buffer.from(`tree ${treeId}\nauthor ${who}\ncommitter ${who}\n\n{"tole":"checkpoint"} é\n`);
  return [
    { type: 'blob', body: blob },
    { type: 'tree', body: tree },
    { type: 'commit', body: commit },
    ...[0, 15, 16, 2047, 2048, 300_000].map((n): PackObject => ({ type: 'blob', body: Buffer.alloc(n, n % 251) })),
  ];
}

const packFiles = (dir: string): string[] => readdirSync(join(dir, 'objects', 'pack')).sort();

describe('a pack tole writes', () => {
  it.each(['sha1', 'sha256'] as const)('is read by git as its own, its index the one git makes (%s)', (format) => {
    const dir = bareDirectory(format);
    const objects = someObjects(dir);
    const ids = writeObjectPack(dir, objects, format === 'sha1' ? 40 : 64);
    objects.forEach((object, i) => {
      const typeFlag = ['-t', object.type];
      expect(ids[i]).toBe(
        gitIn(dir, ['hash-object', ...typeFlag, '--stdin'], object.body)
          .toString()
          .trim(),
      );
      expect(gitIn(dir, ['cat-file', object.type, ids[i]!]).equals(object.body)).toBe(true);
    });
    const files = packFiles(dir);
    expect(files).toHaveLength(2);
    const pack = join(dir, 'objects', 'pack', files.find((f) => f.endsWith('.pack'))!);
    expect(files.find((f) => f.endsWith('.idx'))).toBe(`${pack.slice(pack.lastIndexOf('/') + 1, -5)}.idx`);
    gitIn(dir, ['verify-pack', pack.replace(/\.pack$/, '.idx')]);
    // git's own index of the same pack, written elsewhere: the same bytes.
    const theirs = join(tempDirForTest('tole-pack-index-'), 'theirs.idx');
    gitIn(dir, ['index-pack', `--object-format=${format}`, '-o', theirs, pack]);
    expect(readFileSync(pack.replace(/\.pack$/, '.idx')).equals(readFileSync(theirs))).toBe(true);
    gitIn(dir, ['update-ref', 'refs/tole/checkpoints', ids[2]!]);
    gitIn(dir, ['fsck', '--strict', '--no-dangling']);
    expect(statSync(pack).mode & 0o777).toBe(0o444);
  });

  it('packs an object given twice once, and leaves no temporary file', () => {
    const dir = bareDirectory('sha1');
    const blob: PackObject = { type: 'blob', body: Buffer.from('same\n') };
    const ids = writeObjectPack(dir, [blob, blob], 40);
    expect(ids[0]).toBe(ids[1]);
    const index = packFiles(dir).find((f) => f.endsWith('.idx'))!;
    const listed = gitIn(dir, ['show-index'], readFileSync(join(dir, 'objects', 'pack', index)))
      .toString()
      .trim()
      .split('\n');
    expect(listed).toHaveLength(1);
    expect(packFiles(dir).every((f) => f.startsWith('pack-'))).toBe(true);
  });

  it('is found by a git that was already running when it was written', async () => {
    const dir = bareDirectory('sha1');
    const first = writeObjectPack(dir, [{ type: 'blob', body: Buffer.from('first\n') }], 40)[0]!;
    const git = spawn('git', ['cat-file', '--batch-check'], { env: { ...ENV, GIT_DIR: dir } });
    let out = '';
    git.stdout.setEncoding('utf8');
    const answer = (): Promise<string> =>
      new Promise((resolve) => {
        const onData = (chunk: string): void => {
          out += chunk;
          const newline = out.indexOf('\n');
          if (newline < 0) return;
          git.stdout.off('data', onData);
          const line = out.slice(0, newline);
          out = out.slice(newline + 1);
          resolve(line);
        };
        git.stdout.on('data', onData);
      });
    git.stdin.write(`${first}\n`);
    expect(await answer()).toBe(`${first} blob 6`);
    const second = writeObjectPack(dir, [{ type: 'blob', body: Buffer.from('second!\n') }], 40)[0]!;
    git.stdin.write(`${second}\n`);
    expect(await answer()).toBe(`${second} blob 8`);
    git.stdin.end();
    await new Promise((resolve) => git.on('close', resolve));
  });
});
