/**
 * A scan checkpoint lists what changed with one `git status` (workspace-changes.ts) in an index of
 * its own (own-index.ts), and stages exactly what the two gits before it (`diff-files` beside
 * `ls-files --others`) staged: on generated workspaces changed round after round (files, modes,
 * symlinks, folders in place of files, nested repositories, ignore files, files too large,
 * names that are not UTF-8, changes in the second the index was written), the tree and the
 * left-out list are the same.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { lstatOrNull } from '../../../src/core/checkpoints/path-bytes';
import { changedInStatus } from '../../../src/core/checkpoints/workspace-changes';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';
import { fileInCheckpoint, inCheckpoints } from '../../support/checkpoint-reads';
import { fcRuns } from '../../support/fc-runs';
import { loggingGit } from '../../support/logging-git';
import { twoGitScan } from '../../support/two-git-scan';

const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

const record = (...fields: string[]): Buffer => Buffer.from(`${fields.join('\0')}\0`, 'latin1');
const names = (paths: Buffer[]): string[] => paths.map((p) => p.toString('latin1'));

describe("status's listing", () => {
  it('names the paths changed in the workspace and every untracked one, and nothing only the index changed', () => {
    const oid = 'a'.repeat(40);
    const out = record(
      `1 .M N... 100644 100644 100644 ${oid} ${oid} dir/with space.txt`,
      `1 M. N... 100644 100644 100644 ${oid} ${oid} staged-only.txt`,
      `1 AD N... 000000 100644 000000 ${oid} ${oid} gone.txt`,
      `1 .T N... 100644 100644 120000 ${oid} ${oid} now-a-link`,
      `2 R. N... 100644 100644 100644 ${oid} ${oid} R100 renamed.txt`,
      '1 .M N... 100644 100644 100644 x x looks like a record',
      `u UU N... 100644 100644 100644 100644 ${oid} ${oid} ${oid} both.txt`,
      '? new file.txt',
      '? caf\xe9.txt',
      '? nested/',
      '! ignored.log',
      '# branch.oid (initial)',
    );
    expect(names(changedInStatus(out))).toEqual([
      'dir/with space.txt',
      'gone.txt',
      'now-a-link',
      'both.txt',
      'new file.txt',
      'caf\xe9.txt',
      'nested/',
    ]);
  });

  it('is empty for an empty answer', () => {
    expect(changedInStatus(Buffer.alloc(0))).toEqual([]);
  });
});

/** One change to a small workspace, from a few names (one of them not UTF-8) in a few folders. */
const FOLDERS = ['', 'a/', 'a/b/', 'c/'];
const NAMES = ['x.txt', 'y z', 'caf\xe9', 'run.sh', 'b', 'n'];
const pathArb = fc
  .tuple(fc.constantFrom(...FOLDERS), fc.constantFrom(...NAMES))
  .map(([folder, name]) => Buffer.from(folder + name, 'latin1'));
const changeArb = fc.oneof(
  fc.record({
    kind: fc.constant('write' as const),
    path: pathArb,
    bytes: fc.integer({ min: 0, max: 90 }),
    seed: fc.nat(9),
  }),
  fc.record({ kind: fc.constant('remove' as const), path: pathArb }),
  fc.record({ kind: fc.constant('mode' as const), path: pathArb }),
  fc.record({ kind: fc.constant('link' as const), path: pathArb }),
  fc.record({ kind: fc.constant('nested-repo' as const), path: pathArb }),
  fc.record({
    kind: fc.constant('ignore' as const),
    folder: fc.constantFrom(...FOLDERS),
    pattern: fc.constantFrom('*.txt', 'y z', 'b/', '!x.txt', 'n'),
  }),
  fc.record({ kind: fc.constant('touch' as const), path: pathArb }),
);
type Change = typeof changeArb extends fc.Arbitrary<infer T> ? T : never;

/** Files over this many bytes are left out (the writes above reach 90). */
const MAX_FILE_BYTES = 60;

function apply(root: string, change: Change): void {
  if (change.kind === 'ignore') {
    clearWayTo(root, Buffer.from(change.folder, 'latin1'));
    writeFileSync(join(root, change.folder, '.gitignore'), `${change.pattern}\n`);
    return;
  }
  const full = Buffer.concat([Buffer.from(`${root}/`), change.path]);
  const within = (name: string): Buffer => Buffer.concat([full, Buffer.from(name)]);
  // Nothing to remove where a folder on the way is a file (rmSync's force covers only ENOENT).
  if (change.kind === 'remove') return void (lstatOrNull(full) && rmSync(full, { recursive: true, force: true }));
  if (change.kind === 'mode') return void (existsSync(full) && chmodSync(full, 0o755));
  if (change.kind === 'touch') return void (existsSync(full) && utimesSync(full, new Date(), new Date()));
  clearWayTo(root, change.path.subarray(0, change.path.lastIndexOf(0x2f) + 1));
  rmSync(full, { recursive: true, force: true });
  if (change.kind === 'write') writeFileSync(full, Buffer.alloc(change.bytes, 97 + change.seed));
  else if (change.kind === 'link') symlinkSync('x.txt', full);
  else {
    mkdirSync(within('/.git/objects'), { recursive: true });
    mkdirSync(within('/.git/refs'), { recursive: true });
    writeFileSync(within('/.git/HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(within('/inside.txt'), 'in a nested repository\n');
  }
}

/** Makes `folder` (`a/b/` or empty) a folder under root, removing a file or link in its way. */
function clearWayTo(root: string, folder: Buffer): void {
  for (let end = folder.indexOf(0x2f); end >= 0; end = folder.indexOf(0x2f, end + 1)) {
    const part = Buffer.concat([Buffer.from(`${root}/`), folder.subarray(0, end)]);
    const stat = lstatOrNull(part);
    if (stat !== null && !stat.isDirectory()) rmSync(part, { force: true });
    if (stat === null || !stat.isDirectory()) mkdirSync(part);
  }
}

const git = (gitDir: string, ...args: string[]): string =>
  spawnSync('git', args, {
    encoding: 'latin1',
    env: { PATH: process.env['PATH'], GIT_DIR: gitDir, GIT_CONFIG_GLOBAL: '/dev/null' },
  }).stdout;

/**
 * A workspace folder in a temp folder of the test's, and checkpoints of it under that folder's
 * `home` (each closed after the test), made with `more` settings.
 */
function aWorkspace() {
  const dir = tempDirForTest('tole-one-git-scan-');
  const root = join(dir, 'workspace');
  mkdirSync(root);
  const checkpoints = (more: Partial<Parameters<typeof Checkpoints.create>[0]> = {}): Checkpoints => {
    const made = Checkpoints.create({ home: join(dir, 'home'), workspaceRoot: root, ...more });
    afterTheTest(() => made.close());
    return made;
  };
  return { dir, root, checkpoints };
}

describe('a scan checkpoint', () => {
  it('holds the tree and leaves out the files the two-git scan did, round after round', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(changeArb, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        async (rounds) => {
          const { dir, root, checkpoints: made } = aWorkspace();
          const checkpoints = made({ maxFileBytes: MAX_FILE_BYTES });
          const reference = twoGitScan(join(dir, 'reference.git'), root, MAX_FILE_BYTES);
          for (const changes of rounds) {
            for (const change of changes) apply(root, change);
            const taken = await checkpoints.take();
            if (!taken.ok) throw new Error(taken.reason);
            const expected = await reference.scan();
            const tree = git(checkpoints.directory, 'rev-parse', `${taken.id}^{tree}`).trim();
            const listing = (gitDir: string, id: string): string => git(gitDir, 'ls-tree', '-r', '-z', id);
            expect(listing(checkpoints.directory, tree)).toBe(listing(join(dir, 'reference.git'), expected.tree));
            expect(tree).toBe(expected.tree);
            const byPath = (a: { path: string }, b: { path: string }): number => a.path.localeCompare(b.path);
            expect([...taken.leftOut].sort(byPath)).toEqual([...expected.leftOut].sort(byPath));
          }
        },
      ),
      {
        numRuns: fcRuns(0.1),
        // Found by this property: a folder the index holds a file under, made a symlink.
        examples: [
          [
            [
              [{ kind: 'write', path: Buffer.from('a/b/x.txt'), bytes: 0, seed: 0 }],
              [
                { kind: 'link', path: Buffer.from('a/b') },
                { kind: 'touch', path: Buffer.from('x.txt') },
              ],
              [{ kind: 'ignore', folder: '', pattern: '*.txt' }],
            ],
          ],
        ],
      },
    );
  });

  it('starts one git to list what changed, not two', async () => {
    const { dir, root, checkpoints: made } = aWorkspace();
    const logging = loggingGit(dir);
    const checkpoints = made({ gitBinary: logging.binary });
    writeFileSync(join(root, 'a.txt'), 'one\n');
    expect((await checkpoints.take()).ok).toBe(true);
    writeFileSync(join(root, 'a.txt'), 'two\n');
    const before = logging.starts().length;
    expect((await checkpoints.take()).ok).toBe(true);
    const starts = logging.starts().slice(before);
    expect(starts.filter((args) => / status /.test(` ${args} `))).toHaveLength(1);
    expect(starts.filter((args) => /\b(diff-files|ls-files)\b/.test(args))).toEqual([]);
  });

  it('writes no tree when nothing changed since its own last scan, and the same tree again', async () => {
    const { dir, root, checkpoints: made } = aWorkspace();
    const logging = loggingGit(dir);
    const checkpoints = made({ gitBinary: logging.binary });
    writeFileSync(join(root, 'a.txt'), 'one\n');
    const first = await checkpoints.take();
    if (!first.ok) throw new Error(first.reason);
    const before = logging.starts().length;
    const second = await checkpoints.take();
    if (!second.ok) throw new Error(second.reason);
    const starts = logging.starts().slice(before);
    expect(starts.filter((args) => /\b(update-index|write-tree)\b/.test(args))).toEqual([]);
    const treeOf = (id: string): string => git(checkpoints.directory, 'rev-parse', `${id}^{tree}`);
    expect(treeOf(second.id)).toBe(treeOf(first.id));
  });

  it("writes the tree again when another tole's scan published its index since, though nothing changed after it", async () => {
    const { root, checkpoints } = aWorkspace();
    const a = checkpoints();
    const b = checkpoints();
    writeFileSync(join(root, 'a.txt'), 'one\n');
    expect((await a.take()).ok).toBe(true);
    writeFileSync(join(root, 'a.txt'), 'two\n');
    writeFileSync(join(root, 'b.txt'), 'new\n');
    expect((await b.take()).ok).toBe(true);
    // a's status finds nothing changed against the index b published: its tree is b's, not a's last.
    const taken = await a.take();
    if (!taken.ok) throw new Error(taken.reason);
    expect(fileInCheckpoint(a.directory, taken.id, 'a.txt')).toBe('two\n');
    expect(fileInCheckpoint(a.directory, taken.id, 'b.txt')).toBe('new\n');
  });

  it("holds what it staged though another git writes an older index over the directory's meanwhile", async () => {
    // Another tole's `status` writes the index it read as it started, after its refresh: here,
    // just before this scan's write-tree, the index of the checkpoint before is put back.
    const { dir, root, checkpoints: made } = aWorkspace();
    const wrapper = join(dir, 'git');
    writeFileSync(
      wrapper,
      `#!/bin/sh\ncase " $* " in *" write-tree "*) [ -f "$GIT_DIR/stale-index" ] && cp "$GIT_DIR/stale-index" "$GIT_DIR/index";; esac\nexec '${realGit}' "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const checkpoints = made({ gitBinary: wrapper });
    writeFileSync(join(root, 'a.txt'), 'one\n');
    expect((await checkpoints.take()).ok).toBe(true);
    copyFileSync(join(checkpoints.directory, 'index'), join(checkpoints.directory, 'stale-index'));
    writeFileSync(join(root, 'a.txt'), 'two\n');
    writeFileSync(join(root, 'b.txt'), 'new\n');
    const taken = await checkpoints.take();
    if (!taken.ok) throw new Error(taken.reason);
    expect(fileInCheckpoint(checkpoints.directory, taken.id, 'a.txt')).toBe('two\n');
    expect(fileInCheckpoint(checkpoints.directory, taken.id, 'b.txt')).toBe('new\n');
  });

  it("is not held up by another tole's git holding the index's lock, and the own index of a killed tole goes", async () => {
    const { root, checkpoints } = aWorkspace();
    const first = checkpoints({ lockWaitsMs: [10, 10] });
    writeFileSync(join(root, 'a.txt'), 'one\n');
    expect((await first.take()).ok).toBe(true);
    // A git at work on the directory (another tole's, of a version that wrote the shared index), holding its lock.
    const live = spawn('git', ['cat-file', '--batch'], {
      env: { PATH: process.env['PATH'], GIT_DIR: first.directory },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    afterTheTest(() => live.stdin.end());
    await once(live, 'spawn');
    writeFileSync(join(first.directory, 'index.lock'), '');
    // And what a tole killed mid-scan left: its own index and that index's lock (no process has pid 2^22 + 1).
    const leftBehind = ['index.tole-4194305-1', 'index.tole-4194305-1.lock'].map((name) => join(first.directory, name));
    for (const file of leftBehind) writeFileSync(file, '');
    writeFileSync(join(root, 'a.txt'), 'two\n');
    const taken = await first.take();
    if (!taken.ok) throw new Error(taken.reason);
    expect(fileInCheckpoint(first.directory, taken.id, 'a.txt')).toBe('two\n');
    const next = checkpoints();
    expect((await next.take()).ok).toBe(true);
    expect(leftBehind.filter((file) => existsSync(file))).toEqual([]);
    expect(inCheckpoints(next, 'fsck', '--connectivity-only', '--no-dangling')).toBe('');
  });
});
