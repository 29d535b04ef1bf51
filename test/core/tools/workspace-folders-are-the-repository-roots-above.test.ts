/**
 * `cd repo/sub && tole`: the PATH filter's workspace is the start folder and every repository root
 * above it (src/core/tools/workspace-folders.ts), found without running git. An entry into the
 * repository above (`repo/tools`, one not made yet, one reached through a link or `..`) is left
 * out; entries under $HOME stay when $HOME (or a folder above it) is the repository. No `.git`
 * that is a FIFO, and no `gitdir:` that names one, is read (the test would hang).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathOutsideWorkspace } from '../../../src/core/tools/path-outside-workspace';
import { workspaceFolders } from '../../../src/core/tools/workspace-folders';
import { tempDirs } from '../../support/agent-fixtures';

const SYSTEM = '/usr/bin:/bin';

/** A repository at `root` (a `.git` folder) with `sub/deep` below it; returns the start folder. */
function repoWithSub(root: string): string {
  mkdirSync(join(root, '.git'));
  const start = join(root, 'sub', 'deep');
  mkdirSync(start, { recursive: true });
  mkdirSync(join(root, 'tools'));
  return start;
}

function filtered(entry: string, start: string, home: string): string {
  return pathOutsideWorkspace(`${entry}:${SYSTEM}`, workspaceFolders(start, home));
}

describe('the workspace of the PATH filter is the start folder and the repository roots above it', () => {
  it('drops every entry into the repository above a sub-folder, also through links and ..', () => {
    const d = tempDirs('tole-wsf-');
    const start = repoWithSub(d.root);
    symlinkSync(d.root, join(d.outside, 'link-to-root'));
    symlinkSync(start, join(d.outside, 'link-to-start'));
    const home = join(d.parent, 'home');
    for (const entry of [
      `${d.root}/tools`,
      d.root,
      `${d.root}/`,
      `${d.root}/node_modules/.bin`,
      `${d.root}/later/bin`,
      `${d.root}/sub/deep/../../tools`,
      `${d.outside}/link-to-root/tools`,
      `${d.outside}/link-to-root/later/bin`,
      `${d.outside}/link-to-start/../../tools`,
      `${d.outside}/link-to-start/../../later/bin`,
      '../bin',
      '../../tools',
    ]) {
      expect(filtered(entry, start, home), entry).toBe(SYSTEM);
    }
    // Outside the repository: kept, in order.
    mkdirSync(join(d.outside, 'bin'));
    expect(filtered(`${d.outside}/bin`, start, home)).toBe(`${d.outside}/bin:${SYSTEM}`);
    expect(filtered(`${d.root}-sibling/bin`, start, home)).toBe(`${d.root}-sibling/bin:${SYSTEM}`);
    expect(filtered(`${d.root}/../outside/bin`, start, home)).toBe(`${d.root}/../outside/bin:${SYSTEM}`);
  });

  it('a start folder reached through a link finds the repository of its real path', () => {
    const d = tempDirs('tole-wsf-link-');
    const start = repoWithSub(d.root);
    symlinkSync(start, join(d.outside, 'link-to-start'));
    const folders = workspaceFolders(join(d.outside, 'link-to-start'), join(d.parent, 'home'));
    expect(folders).toContain(d.root);
    expect(filtered(`${d.root}/tools`, join(d.outside, 'link-to-start'), join(d.parent, 'home'))).toBe(SYSTEM);
  });

  it('a .git of any kind marks a root, and a FIFO is never read', () => {
    const d = tempDirs('tole-wsf-fifo-');
    const start = join(d.root, 'sub');
    mkdirSync(start);
    execFileSync('mkfifo', [join(d.root, '.git')]);
    expect(workspaceFolders(start, join(d.parent, 'home'))).toContain(d.root);
    // A .git file whose gitdir names a FIFO: the root counts, the FIFO is not opened for reading.
    const other = join(d.outside, 'repo');
    mkdirSync(join(other, 'sub'), { recursive: true });
    execFileSync('mkfifo', [join(d.outside, 'fifo-dir')]);
    writeFileSync(join(other, '.git'), `gitdir: ${join(d.outside, 'fifo-dir')}\n`);
    expect(workspaceFolders(join(other, 'sub'), join(d.parent, 'home'))).toContain(other);
    // A .git that is itself a FIFO named by a link: only its name is looked at.
    const third = join(d.outside, 'third');
    mkdirSync(join(third, 'sub'), { recursive: true });
    symlinkSync(join(d.outside, 'fifo-dir'), join(third, '.git'));
    expect(workspaceFolders(join(third, 'sub'), join(d.parent, 'home'))).toContain(third);
  });

  it("a linked worktree's main working tree counts too", () => {
    const d = tempDirs('tole-wsf-worktree-');
    const main = join(d.outside, 'main');
    mkdirSync(join(main, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    const start = join(d.root, 'sub');
    mkdirSync(start);
    writeFileSync(join(d.root, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'wt')}\n`);
    const home = join(d.parent, 'home');
    expect(workspaceFolders(start, home)).toEqual(expect.arrayContaining([start, d.root, main]));
    expect(filtered(`${main}/tools`, start, home)).toBe(SYSTEM);
    // A submodule's `.git` file names the superproject's .git/modules/x: no working tree from it.
    const sub = join(d.outside, 'super', 'mod');
    mkdirSync(join(d.outside, 'super', '.git', 'modules', 'mod'), { recursive: true });
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, '.git'), 'gitdir: ../.git/modules/mod\n');
    expect(workspaceFolders(sub, home)).toEqual(expect.arrayContaining([sub, join(d.outside, 'super')]));
  });

  it("git's own linked worktree: started in its sub-folder, the main working tree is dropped too", () => {
    const d = tempDirs('tole-wsf-real-worktree-');
    const main = join(d.outside, 'main');
    mkdirSync(main);
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('/usr/bin/git', args, {
        cwd,
        env: { PATH: SYSTEM, HOME: d.parent, GIT_CONFIG_NOSYSTEM: '1' },
        stdio: 'ignore',
      });
    git(main, 'init', '-q');
    git(main, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x');
    const wt = join(d.outside, 'wt');
    git(main, 'worktree', 'add', '-q', wt);
    mkdirSync(join(wt, 'sub'));
    const home = join(d.parent, 'home');
    expect(workspaceFolders(join(wt, 'sub'), home)).toEqual(expect.arrayContaining([wt, main]));
    expect(filtered(`${main}/tools`, join(wt, 'sub'), home)).toBe(SYSTEM);
  });

  it('a .git file too big to be a pointer is not read, and still marks a root', () => {
    const d = tempDirs('tole-wsf-big-');
    mkdirSync(join(d.root, 'sub'));
    const elsewhere = join(d.outside, 'elsewhere');
    mkdirSync(join(elsewhere, '.git'), { recursive: true });
    writeFileSync(join(d.root, '.git'), `gitdir: ${join(elsewhere, '.git')}\n${'#'.repeat(100_000)}\n`);
    const folders = workspaceFolders(join(d.root, 'sub'), join(d.parent, 'home'));
    expect(folders).toContain(d.root);
    expect(folders).not.toContain(elsewhere);
    // The same pointer, small: its working tree counts.
    writeFileSync(join(d.root, '.git'), `gitdir: ${join(elsewhere, '.git')}\n`);
    expect(workspaceFolders(join(d.root, 'sub'), join(d.parent, 'home'))).toContain(elsewhere);
  });

  it('a repository at $HOME or above it is not taken: ~/bin stays, the start folder still drops', () => {
    const d = tempDirs('tole-wsf-home-');
    const home = d.parent;
    mkdirSync(join(home, '.git'));
    mkdirSync(join(home, 'bin'));
    const start = join(d.outside, 'project');
    mkdirSync(start);
    expect(workspaceFolders(start, home)).toEqual([start]);
    expect(filtered(`${home}/bin`, start, home)).toBe(`${home}/bin:${SYSTEM}`);
    expect(filtered(`${start}/bin`, start, home)).toBe(SYSTEM);
    // A repository below $HOME (a clone) is taken as always.
    const clone = join(home, 'clone');
    mkdirSync(join(clone, '.git'), { recursive: true });
    mkdirSync(join(clone, 'sub'));
    expect(filtered(`${clone}/tools`, join(clone, 'sub'), home)).toBe(SYSTEM);
    // $HOME named through a link: the same.
    symlinkSync(home, join(d.outside, 'home-link'));
    expect(filtered(`${home}/bin`, start, join(d.outside, 'home-link'))).toBe(`${home}/bin:${SYSTEM}`);
    // With no $HOME, a repository above the start folder is taken.
    expect(workspaceFolders(start, undefined)).toContain(home);
  });

  it('a sibling repository, or one below the start folder, is not the workspace', () => {
    const d = tempDirs('tole-wsf-sibling-');
    mkdirSync(join(d.outside, '.git'));
    mkdirSync(join(d.root, 'nested', '.git'), { recursive: true });
    expect(workspaceFolders(d.root, join(d.parent, 'home'))).toEqual([d.root]);
    expect(filtered(`${d.outside}/bin`, d.root, join(d.parent, 'home'))).toBe(`${d.outside}/bin:${SYSTEM}`);
  });
});
