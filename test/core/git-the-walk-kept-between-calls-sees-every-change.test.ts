/**
 * The workspace walk keeps the folder listings it read (git-folder-listings.ts), and uses one again
 * only while the folder is unchanged: a cache that lied would let a nested repository in unvetted.
 * Each case fills the cache, waits until the listings are kept (the folders' last change older than
 * the margin), changes the workspace as an attacker would, hiding what it can (mtimes set back with
 * utimes, as `touch -d` and `touch -r` do), and checks that the walk finds what a walk with no cache
 * finds. A folder tole cannot list leaves the workspace unvouched, naming it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderListing, forgetFolderListings, isListingKept } from '../../src/core/git-folder-listings';
import { workspaceGitDirs } from '../../src/core/git-nested-dirs';
import { REPO_ROOT } from '../support/repo-root';
import { childScript } from '../support/test-children';
import { tempWorkspace } from './tools/temp-workspace';

const asRoot = process.getuid?.() === 0;

/** A bare-bones git directory at `gitDir` (HEAD and config: what the walk and git look for). */
function gitDirAt(gitDir: string): void {
  mkdirSync(gitDir, { recursive: true });
  writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(gitDir, 'config'), '[core]\n\tbare = false\n');
}

/** The walk with no listing kept: what the walk with the cache must find. */
function freshWalk(root: string) {
  forgetFolderListings();
  return workspaceGitDirs(root);
}

/** Walks until every folder the walk reads has its listing kept (each one's last change older than the margin). */
async function walkUntilKept(root: string, folders: readonly string[]): Promise<void> {
  for (;;) {
    workspaceGitDirs(root);
    if (folders.every(isListingKept)) return;
    // The clock must move past the margin; wait for the next turn of the event loop, then look again.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const times = (file: string) => {
  const stat = lstatSync(file, { bigint: true });
  return { mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs };
};

/** Sets the mtime of `file` back to the very nanosecond `before` held, with `touch -d`. */
function restoreMtime(file: string, before: { mtimeNs: bigint }): void {
  const seconds = before.mtimeNs / 1_000_000_000n;
  const nanoseconds = String(before.mtimeNs % 1_000_000_000n).padStart(9, '0');
  execFileSync('touch', ['-m', '-d', `@${seconds}.${nanoseconds}`, file]);
  expect(times(file).mtimeNs).toBe(before.mtimeNs);
}

describe('the walk kept between calls', () => {
  it('lists no folder again when nothing changed, and finds the same repositories', async () => {
    const ws = await tempWorkspace();
    gitDirAt(path.join(ws.root, 'a', 'b', '.git'));
    const folders = [ws.root, path.join(ws.root, 'a'), path.join(ws.root, 'a', 'b')];
    await walkUntilKept(ws.root, folders);
    const kept = workspaceGitDirs(ws.root);
    expect(kept.gitDirs).toContain(path.join(ws.root, 'a', 'b', '.git'));
    expect(kept).toEqual(freshWalk(ws.root));
  });

  it('a repository made in a folder whose mtime is set back is found: the folder’s ctime moved', async () => {
    const ws = await tempWorkspace();
    const deep = path.join(ws.root, 'a', 'deep');
    mkdirSync(deep, { recursive: true });
    await walkUntilKept(ws.root, [ws.root, path.join(ws.root, 'a'), deep]);
    const before = times(deep);
    gitDirAt(path.join(deep, 'x', '.git'));
    restoreMtime(deep, before);
    const after = times(deep);
    expect(after.mtimeNs).toBe(before.mtimeNs);
    expect(after.ctimeNs).not.toBe(before.ctimeNs);
    expect(workspaceGitDirs(ws.root).gitDirs).toContain(path.join(deep, 'x', '.git'));
  });

  it('a bare repository made in a kept folder is found', async () => {
    const ws = await tempWorkspace();
    const dir = path.join(ws.root, 'plain');
    mkdirSync(dir);
    await walkUntilKept(ws.root, [ws.root, dir]);
    const before = times(dir);
    writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(path.join(dir, 'config'), '[core]\n\tbare = true\n');
    restoreMtime(dir, before);
    expect(workspaceGitDirs(ws.root).gitDirs).toContain(dir);
  });

  it('a folder swapped for a symlink to a repository outside is followed', async () => {
    const ws = await tempWorkspace();
    mkdirSync(path.join(ws.root, 'lib'));
    gitDirAt(path.join(ws.outside, 'far', '.git'));
    await walkUntilKept(ws.root, [ws.root, path.join(ws.root, 'lib')]);
    const before = times(ws.root);
    rmSync(path.join(ws.root, 'lib'), { recursive: true });
    symlinkSync(path.join(ws.outside, 'far'), path.join(ws.root, 'lib'));
    restoreMtime(ws.root, before);
    const walked = workspaceGitDirs(ws.root);
    expect(walked.gitDirs).toContain(path.join(ws.outside, 'far', '.git'));
    expect(walked).toEqual(freshWalk(ws.root));
  });

  it('a symlink whose target is retargeted outside the workspace, nothing in it changing, is followed anew', async () => {
    const ws = await tempWorkspace();
    mkdirSync(path.join(ws.outside, 'v1'));
    gitDirAt(path.join(ws.outside, 'v2', '.git'));
    symlinkSync(path.join(ws.outside, 'v1'), path.join(ws.outside, 'current'));
    symlinkSync(path.join(ws.outside, 'current'), path.join(ws.root, 'dep'));
    await walkUntilKept(ws.root, [ws.root, path.join(ws.outside, 'v1')]);
    expect(workspaceGitDirs(ws.root).gitDirs).not.toContain(path.join(ws.outside, 'v2', '.git'));
    unlinkSync(path.join(ws.outside, 'current'));
    symlinkSync(path.join(ws.outside, 'v2'), path.join(ws.outside, 'current'));
    expect(workspaceGitDirs(ws.root).gitDirs).toContain(path.join(ws.outside, 'v2', '.git'));
  });

  it('a symlink in the workspace retargeted, the folder’s mtime set back, is followed anew', async () => {
    const ws = await tempWorkspace();
    mkdirSync(path.join(ws.outside, 'v1'));
    gitDirAt(path.join(ws.outside, 'v2', '.git'));
    symlinkSync(path.join(ws.outside, 'v1'), path.join(ws.root, 'dep'));
    await walkUntilKept(ws.root, [ws.root]);
    const before = times(ws.root);
    renameSync(path.join(ws.root, 'dep'), path.join(ws.outside, 'old-link'));
    symlinkSync(path.join(ws.outside, 'v2'), path.join(ws.root, 'dep'));
    restoreMtime(ws.root, before);
    expect(workspaceGitDirs(ws.root).gitDirs).toContain(path.join(ws.outside, 'v2', '.git'));
  });

  it('a .git file whose gitdir is changed in place to one of the same length, its mtime set back, is read anew', async () => {
    const ws = await tempWorkspace();
    gitDirAt(path.join(ws.outside, 'g1'));
    gitDirAt(path.join(ws.outside, 'g2'));
    const sub = path.join(ws.root, 'sub');
    mkdirSync(sub);
    const dotGit = path.join(sub, '.git');
    writeFileSync(dotGit, `gitdir: ${path.join(ws.outside, 'g1')}\n`);
    await walkUntilKept(ws.root, [ws.root, sub]);
    expect(workspaceGitDirs(ws.root).gitDirs).toContain(path.join(ws.outside, 'g1'));
    const before = times(dotGit);
    const subBefore = times(sub);
    writeFileSync(dotGit, `gitdir: ${path.join(ws.outside, 'g2')}\n`);
    restoreMtime(dotGit, before);
    restoreMtime(sub, subBefore);
    const walked = workspaceGitDirs(ws.root);
    expect(walked.gitDirs).toContain(path.join(ws.outside, 'g2'));
    expect(walked.gitDirs).not.toContain(path.join(ws.outside, 'g1'));
  });

  it('a folder renamed away and another put in its place, mtimes set back, is listed anew', async () => {
    const ws = await tempWorkspace();
    const vendor = path.join(ws.root, 'vendor');
    mkdirSync(vendor);
    const other = path.join(ws.outside, 'other');
    gitDirAt(path.join(other, 'x', '.git'));
    await walkUntilKept(ws.root, [ws.root, vendor]);
    const rootBefore = times(ws.root);
    const vendorBefore = times(vendor);
    renameSync(vendor, path.join(ws.outside, 'vendor-old'));
    renameSync(other, vendor);
    restoreMtime(vendor, vendorBefore);
    restoreMtime(ws.root, rootBefore);
    expect(workspaceGitDirs(ws.root).gitDirs).toContain(path.join(vendor, 'x', '.git'));
  });

  it('a folder whose times lie ahead of the clock is not kept', async () => {
    const ws = await tempWorkspace();
    const ahead = new Date(Date.now() + 3_600_000);
    utimesSync(ws.root, ahead, ahead);
    folderListing(ws.root);
    expect(isListingKept(ws.root)).toBe(false);
    folderListing(ws.root);
    expect(isListingKept(ws.root)).toBe(false);
  });

  it('a folder tole cannot list leaves the workspace unvouched, naming the folder', async () => {
    const ws = await tempWorkspace();
    const locked = path.join(ws.root, 'locked');
    gitDirAt(path.join(locked, 'x', '.git'));
    mkdirSync(path.join(ws.root, 'open'));
    const shut = path.join(ws.outside, 'shut');
    gitDirAt(path.join(shut, 'inner', '.git'));
    symlinkSync(path.join(shut, 'inner'), path.join(ws.root, 'open', 'into-shut'));
    chmodSync(locked, 0o000);
    chmodSync(shut, 0o000);
    try {
      // Root lists any folder; the walk runs in a child that keeps root's uid without its power to ignore modes.
      const node = [process.execPath, childScript('git-dirs-walker'), ws.root];
      const [program, ...args] = asRoot
        ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', ...node]
        : node;
      const run = spawnSync(program!, args, { cwd: REPO_ROOT, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const walked = JSON.parse(run.stdout) as { gitDirs: string[]; unvouched: string[] };
      expect(walked.gitDirs).not.toContain(path.join(locked, 'x', '.git'));
      expect(walked.gitDirs).not.toContain(path.join(shut, 'inner', '.git'));
      expect(walked.unvouched.sort()).toEqual([
        `${locked}, a folder tole could not list (EACCES), so it did not look for repositories in it`,
        `${path.join(ws.root, 'open', 'into-shut')}, a symlink tole could not follow (EACCES), so it did not look for repositories where it leads`,
      ]);
    } finally {
      chmodSync(locked, 0o755);
      chmodSync(shut, 0o755);
    }
  });

  it('a symlink to nowhere, or to itself, leads to no folder and is no finding', async () => {
    const ws = await tempWorkspace();
    symlinkSync(path.join(ws.outside, 'missing'), path.join(ws.root, 'dangling'));
    symlinkSync(path.join(ws.root, 'loop'), path.join(ws.root, 'loop'));
    expect(workspaceGitDirs(ws.root)).toEqual({ gitDirs: [], unvouched: [] });
  });
});
