/**
 * tole writes its checkpoint commits itself (loose-object.ts) and reads its ref's head from the
 * ref's files (git-checkpoint-ref.ts) instead of starting a git for either. Both must be exactly
 * what git writes and reads: the commit has the id git gives the same bytes and passes git's
 * strict fsck, in SHA-1 and SHA-256 directories; the head read from the files is what
 * `rev-parse --verify` says, loose or packed, and wherever the files say anything else (a
 * symbolic ref, a folder, a line that does not parse, a reftable directory) git is asked.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refInFiles } from '../../../src/core/checkpoints/git-checkpoint-ref';
import { writeLooseObject } from '../../../src/core/checkpoints/loose-object';
import { tempDirForTest } from '../../support/after-the-test';

const REF = 'refs/tole/checkpoints';

function gitIn(dir: string, args: readonly string[], input?: string): string {
  const run = spawnSync('git', args, {
    input,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], GIT_DIR: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout.trim();
}

function bareDirectory(format: 'sha1' | 'sha256' = 'sha1'): string {
  const dir = join(tempDirForTest('tole-loose-'), 'checkpoints.git');
  const made = spawnSync('git', ['init', '-q', '--bare', `--object-format=${format}`, dir], {
    env: { PATH: process.env['PATH'], GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  if (made.status !== 0) throw new Error(String(made.stderr));
  return dir;
}

/** A commit's text as tole writes it, on the empty tree of `dir`, with `parents`. */
function commitText(dir: string, parents: readonly string[], message: string): { tree: string; body: string } {
  const tree = gitIn(dir, ['mktree'], '');
  const who = 'tole <tole@localhost> 1700000000 +0000';
  const parentLines = parents.map((p) => `parent ${p}\n`).join('');
  return { tree, body: `tree ${tree}\n${parentLines}author ${who}\ncommitter ${who}\n\n${message}\n` };
}

describe('a checkpoint commit tole writes itself', () => {
  it.each(['sha1', 'sha256'] as const)('has the id git gives it and passes git fsck --strict (%s)', (format) => {
    const dir = bareDirectory(format);
    const first = commitText(dir, [], '{"tole":"checkpoint","leftOut":[]}');
    const id = writeLooseObject(dir, 'commit', first.body, first.tree.length);
    expect(id).toBe(gitIn(dir, ['hash-object', '-t', 'commit', '--stdin'], first.body));
    expect(gitIn(dir, ['cat-file', 'commit', id])).toBe(first.body.trimEnd());
    // A child with a message of non-ASCII text: the size in git's header counts bytes, not characters.
    const second = commitText(dir, [id], '{"tole":"checkpoint","leftOut":[{"path":"é/ü ✓"}]}');
    const next = writeLooseObject(dir, 'commit', second.body, second.tree.length);
    expect(next).toBe(gitIn(dir, ['hash-object', '-t', 'commit', '--stdin'], second.body));
    gitIn(dir, ['update-ref', REF, next]);
    gitIn(dir, ['fsck', '--strict', '--no-dangling']);
    expect(gitIn(dir, ['rev-list', REF]).split('\n')).toEqual([next, id]);
  });

  it('written again is the same one file, freshened, and leaves no temporary file behind', () => {
    const dir = bareDirectory();
    const { tree, body } = commitText(dir, [], 'again');
    const id = writeLooseObject(dir, 'commit', body, tree.length);
    const file = join(dir, 'objects', id.slice(0, 2), id.slice(2));
    const before = statSync(file);
    expect(writeLooseObject(dir, 'commit', body, tree.length)).toBe(id);
    expect(statSync(file).ino).toBe(before.ino);
    expect(statSync(file).mode & 0o777).toBe(0o444);
    expect(readdirSync(join(dir, 'objects', id.slice(0, 2)))).toEqual([id.slice(2)]);
  });

  it('is refused for ids of a length no git hash has', () => {
    const dir = bareDirectory();
    expect(() => writeLooseObject(dir, 'commit', 'tree x\n', 39)).toThrow(/no git object hash has ids of 39/);
  });
});

describe("the checkpoint ref's head read from its files", () => {
  /** What `rev-parse -q --verify REF^{commit}` says, or null. */
  function revParse(dir: string): string | null {
    const run = spawnSync('git', ['rev-parse', '-q', '--verify', `${REF}^{commit}`], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'], GIT_DIR: dir, GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    return run.status === 0 ? run.stdout.trim() : null;
  }

  function withCommits(): { dir: string; a: string; b: string } {
    const dir = bareDirectory();
    const one = commitText(dir, [], 'a');
    const a = writeLooseObject(dir, 'commit', one.body, one.tree.length);
    const two = commitText(dir, [a], 'b');
    const b = writeLooseObject(dir, 'commit', two.body, two.tree.length);
    return { dir, a, b };
  }

  it('is what rev-parse says: none, loose, packed, and loose over packed', () => {
    const { dir, a, b } = withCommits();
    expect(refInFiles(dir, REF)).toBeNull();
    expect(revParse(dir)).toBeNull();
    gitIn(dir, ['update-ref', REF, a]);
    expect(refInFiles(dir, REF)).toBe(a);
    gitIn(dir, ['pack-refs', '--all']);
    expect(readdirSync(join(dir, 'refs', 'tole'))).toEqual([]);
    expect(refInFiles(dir, REF)).toBe(a);
    expect(revParse(dir)).toBe(a);
    gitIn(dir, ['update-ref', REF, b]);
    expect(refInFiles(dir, REF)).toBe(b);
    expect(revParse(dir)).toBe(b);
    // Another ref packed beside it, and the loose one gone: the packed line names the ref's own.
    gitIn(dir, ['update-ref', 'refs/tole/checkpointsx', a]);
    gitIn(dir, ['pack-refs', '--all']);
    expect(refInFiles(dir, REF)).toBe(b);
    expect(revParse(dir)).toBe(b);
  });

  it('takes an id followed by whitespace and more, in capitals, as git does', () => {
    const { dir, a } = withCommits();
    mkdirSync(join(dir, 'refs', 'tole'), { recursive: true });
    writeFileSync(join(dir, REF), `${a.toUpperCase()}\t trailing words\n`);
    expect(refInFiles(dir, REF)).toBe(a);
    expect(revParse(dir)).toBe(a);
  });

  it.each([
    ['a symbolic ref', (dir: string) => writeFileSync(join(dir, REF), 'ref: refs/heads/main\n')],
    ['an id run into other text', (dir: string) => writeFileSync(join(dir, REF), `${'a'.repeat(40)}x\n`)],
    ['a short id', (dir: string) => writeFileSync(join(dir, REF), `${'a'.repeat(39)}\n`)],
    ['a folder', (dir: string) => mkdirSync(join(dir, REF, 'inner'), { recursive: true })],
    [
      'a packed-refs line that does not parse',
      (dir: string) => writeFileSync(join(dir, 'packed-refs'), `xyz ${REF}\n`),
    ],
    ['a reftable directory', (dir: string) => mkdirSync(join(dir, 'reftable'))],
  ])('leaves it to git where the files hold %s', (_what, spoil) => {
    const { dir } = withCommits();
    mkdirSync(join(dir, 'refs', 'tole'), { recursive: true });
    spoil(dir);
    expect(refInFiles(dir, REF)).toBeUndefined();
  });
});
