import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitignoreRules } from '../../src/cli/gitignore-rules';
import { listWorkspace, WorkspaceFileIndex } from '../../src/cli/workspace-file-index';
import { tempDirForTest } from '../support/after-the-test';

function workspace(files: Record<string, string>): string {
  const root = tempDirForTest('tole-index-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

const FILES = {
  '.gitignore': 'dist/\n*.log\n!keep.log\n/top.txt\n',
  'src/a.ts': '',
  'src/.gitignore': 'gen/\n',
  'src/gen/out.ts': '',
  'dist/bundle.js': '',
  'debug.log': '',
  'keep.log': '',
  'top.txt': '',
  'deep/top.txt': '',
  'node_modules/x/index.js': '',
};

describe('the workspace file index', () => {
  it('outside git, walks the folder leaving out what each .gitignore on the way ignores', async () => {
    const root = workspace(FILES);
    expect((await listWorkspace(root)).sort()).toEqual(
      ['.gitignore', 'deep/top.txt', 'keep.log', 'src/.gitignore', 'src/a.ts'].sort(),
    );
  });

  it('in a git repository, lists what git lists: tracked and untracked, ignored left out', async () => {
    const root = workspace(FILES);
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', 'src/a.ts'], { cwd: root });
    expect((await listWorkspace(root)).sort()).toEqual(
      ['.gitignore', 'deep/top.txt', 'keep.log', 'node_modules/x/index.js', 'src/.gitignore', 'src/a.ts'].sort(),
    );
  });

  it('answers nothing until asked once, then the index; names with control characters are left out', async () => {
    const root = workspace({ 'a.txt': '', 'b\x1b[31m.txt': '' });
    const index = WorkspaceFileIndex.create(root);
    expect(index.search('', 10)).toEqual([]);
    let heard = 0;
    index.subscribe(() => heard++);
    index.refresh();
    await index.settled();
    expect(heard).toBe(1);
    expect(index.search('', 10)).toEqual([{ path: 'a.txt', directory: false }]);
  });
});

describe('.gitignore rules', () => {
  it('read comments, negation, directory-only and anchored patterns', () => {
    const rules = gitignoreRules('# c\n*.tmp\n!important.tmp\nbuild/\n/root-only\ndocs/*.pdf\n');
    expect(rules.ignores('x/y.tmp', false)).toBe(true);
    expect(rules.ignores('important.tmp', false)).toBe(false);
    expect(rules.ignores('a/build', true)).toBe(true);
    expect(rules.ignores('a/build', false)).toBeNull();
    expect(rules.ignores('root-only', false)).toBe(true);
    expect(rules.ignores('sub/root-only', false)).toBeNull();
    expect(rules.ignores('docs/a.pdf', false)).toBe(true);
    expect(rules.ignores('src/a.ts', false)).toBeNull();
  });

  it('read escapes, ** in every place, trailing spaces and case as git does', () => {
    const rules = gitignoreRules('\\#hash\n\\!bang\na/**/z\n**/logs\nlib/**\ntrail\\ \nCase.txt\n');
    expect(rules.ignores('#hash', false)).toBe(true);
    expect(rules.ignores('!bang', false)).toBe(true);
    expect(rules.ignores('a/z', false)).toBe(true);
    expect(rules.ignores('a/b/c/z', false)).toBe(true);
    expect(rules.ignores('x/logs', true)).toBe(true);
    expect(rules.ignores('lib/deep/x.js', false)).toBe(true);
    expect(rules.ignores('lib', true)).toBeNull();
    expect(rules.ignores('trail ', false)).toBe(true);
    expect(rules.ignores('case.txt', false)).toBeNull();
    expect(rules.ignores('Case.txt', false)).toBe(true);
  });

  it('the walk agrees with git on the same tree', async () => {
    const files = {
      '.gitignore': '\\#keep\nbuild/**\n!build/keep.txt\nout/\n!out/back.txt\n*.LOG\n',
      '#keep': '',
      'build/a.txt': '',
      'build/keep.txt': '',
      'out/back.txt': '',
      'x.LOG': '',
      'x.log': '',
      'sub/.gitignore': '/only-here\n',
      'sub/only-here': '',
      'only-here': '',
    };
    const plain = workspace(files);
    const repo = workspace(files);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    expect((await listWorkspace(plain)).sort()).toEqual((await listWorkspace(repo)).sort());
  });
});

describe('a big workspace', () => {
  it('is searched a slice per turn: the last answer stands until the new one lands, and a newer keystroke takes the place of an older one', async () => {
    const files = Array.from({ length: 35_000 }, (_, i) => `pkg${i % 9}/mod${i % 31}/unit-${i}.ts`);
    const index = WorkspaceFileIndex.create('/nowhere', Date.now, async () => files);
    index.refresh();
    await index.settled();
    const landed = () =>
      new Promise<void>((resolve) => {
        const stop = index.subscribe(() => {
          stop();
          resolve();
        });
      });
    expect(index.search('unit-3456', 1)).toEqual([]);
    await landed();
    expect(index.search('unit-3456', 1)).toEqual([{ path: 'pkg0/mod15/unit-3456.ts', directory: false }]);
    // Two keystrokes before the first answer: only the newer one's answer lands.
    expect(index.search('unit-2', 1)).toEqual([{ path: 'pkg0/mod15/unit-3456.ts', directory: false }]);
    expect(index.search('unit-2999', 1)).toEqual([{ path: 'pkg0/mod15/unit-3456.ts', directory: false }]);
    await landed();
    expect(index.search('unit-2999', 1)).toEqual([{ path: 'pkg2/mod23/unit-2999.ts', directory: false }]);
  });

  it('answers a key that inserts a match with its own query: searchNow finishes the search still running', async () => {
    const files = Array.from({ length: 35_000 }, (_, i) => `pkg${i % 9}/mod${i % 31}/unit-${i}.ts`);
    const index = WorkspaceFileIndex.create('/nowhere', Date.now, async () => files);
    index.refresh();
    await index.settled();
    let heard = 0;
    index.subscribe(() => heard++);
    expect(index.searchNow('unit-3456', 1)).toEqual([{ path: 'pkg0/mod15/unit-3456.ts', directory: false }]);
    expect(heard).toBe(1);
    // A newer keystroke's search is under way (the older answer still stands for the screen)...
    expect(index.search('unit-2999', 1)).toEqual([{ path: 'pkg0/mod15/unit-3456.ts', directory: false }]);
    // ...and the key that inserts gets the newer one's answer, which then stands for the screen too.
    expect(index.searchNow('unit-2999', 1)).toEqual([{ path: 'pkg2/mod23/unit-2999.ts', directory: false }]);
    expect(index.search('unit-2999', 1)).toEqual([{ path: 'pkg2/mod23/unit-2999.ts', directory: false }]);
    expect(heard).toBe(2);
    // The slices left of the finished search do nothing when their turn comes.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toBe(2);
  });

  it('runs no program the repository names: its core.fsmonitor, which a bare git ls-files runs', async () => {
    const root = workspace({ 'a.ts': '' });
    const mark = join(tempDirForTest('tole-index-mark-'), 'ran');
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', 'a.ts'], { cwd: root });
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${mark}; true`], { cwd: root });
    execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, stdio: 'ignore' });
    expect(existsSync(mark)).toBe(true);
    execFileSync('rm', [mark]);
    expect(await listWorkspace(root)).toEqual(['a.ts']);
    expect(existsSync(mark)).toBe(false);
  });
  it('a .gitignore that is a FIFO holds neither git nor the walk: git is given up, the walk skips it', async () => {
    const root = workspace({ 'a.txt': '', 'sub/b.txt': '' });
    execFileSync('mkfifo', [join(root, '.gitignore')]);
    execFileSync('mkfifo', [join(root, 'sub', '.gitignore')]);
    // Outside git: the walk lists without opening the FIFOs for reading.
    expect((await listWorkspace(root)).sort()).toEqual(['.gitignore', 'a.txt', 'sub/.gitignore', 'sub/b.txt']);
    // In a repository git blocks opening the FIFO; it is killed and the walk lists.
    execFileSync('git', ['init', '-q'], { cwd: root });
    expect((await listWorkspace(root, 300)).sort()).toEqual(['.gitignore', 'a.txt', 'sub/.gitignore', 'sub/b.txt']);
    // Seen waiting on the FIFO, not timed out: with an hour's limit it ends all the same.
    expect((await listWorkspace(root, 3_600_000)).sort()).toEqual([
      '.gitignore',
      'a.txt',
      'sub/.gitignore',
      'sub/b.txt',
    ]);
    // No git is left running in the workspace.
    const inRoot = readdirSync('/proc').filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === root;
      } catch {
        return false;
      }
    });
    expect(inRoot).toEqual([]);
  });
});
