import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitignoreRules } from '../../src/cli/gitignore-rules';
import { listWorkspace, WorkspaceFileIndex } from '../../src/cli/workspace-file-index';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tole-index-')));
  made.push(root);
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
});
