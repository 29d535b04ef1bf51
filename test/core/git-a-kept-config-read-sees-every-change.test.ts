/**
 * What git printed when tole read the configs of a workspace's repositories is kept
 * (git-config-kept.ts), and used again only while every file it read or could read is unchanged: a
 * kept read that lied would vouch for a key a fresh read refuses. Each case reads until nothing is
 * run again (every file's last change older than the margin), changes a config as an attacker
 * would, hiding what it can (the same size, the mtime set back with touch -d, a rename over it),
 * and checks that the vet finds what a vet with nothing kept finds. The bash tool's run reads
 * again after its approval box did, and refuses what changed in between.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgetKeptOutputs, outputRuns } from '../../src/core/git-config-kept';
import { forgetFolderListings } from '../../src/core/git-folder-listings';
import { withGitGuard } from '../../src/core/git-guard-env';
import { repositoryGitConfig } from '../../src/core/git-repo-drivers';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from './tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A workspace that is a repository, with a nested one in sub/; HOME is a folder outside it. */
async function workspace() {
  const ws = await tempWorkspace();
  git(ws.root, 'init', '-q');
  const sub = path.join(ws.root, 'sub');
  mkdirSync(sub);
  git(sub, 'init', '-q');
  const home = path.join(ws.outside, 'home');
  mkdirSync(home);
  const env = withGitGuard({ PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home });
  const vet = () => repositoryGitConfig(ws.root, env, 'true');
  const fresh = () => {
    forgetKeptOutputs();
    forgetFolderListings();
    return vet();
  };
  /** Vets until a vet runs no git: every read is kept. */
  const vetUntilKept = async () => {
    for (;;) {
      const before = outputRuns();
      await vet();
      if (outputRuns() === before) return;
      // The files' last change must grow older than the margin; look again on a later turn.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { ws, sub, home, env, vet, fresh, vetUntilKept };
}

const mtimeOf = (file: string) => lstatSync(file, { bigint: true }).mtimeNs;

/** Sets the mtime of `file` back to the very nanosecond `mtimeNs`, with `touch -d`. */
function setMtime(file: string, mtimeNs: bigint): void {
  const seconds = mtimeNs / 1_000_000_000n;
  const nanoseconds = String(mtimeNs % 1_000_000_000n).padStart(9, '0');
  execFileSync('touch', ['-m', '-d', `@${seconds}.${nanoseconds}`, file]);
  expect(mtimeOf(file)).toBe(mtimeNs);
}

/** Rewrites `file` with `text` of the same length, its mtime set back. */
function sameSizeEdit(file: string, from: string, to: string): void {
  expect(to.length).toBe(from.length);
  const mtime = mtimeOf(file);
  const text = execFileSync('cat', [file], { encoding: 'utf8' });
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
  setMtime(file, mtime);
}

describe('a kept config read', () => {
  it('runs no git when nothing changed, and vets as a fresh read does', async () => {
    const { sub, vet, fresh, vetUntilKept } = await workspace();
    git(sub, 'config', 'user.name', 'x');
    await vetUntilKept();
    const before = outputRuns();
    const kept = await vet();
    expect(outputRuns()).toBe(before);
    expect(kept).toEqual(await fresh());
  });

  it('a nested config edited to the same size, its mtime set back, is read again', async () => {
    const { sub, vet, fresh, vetUntilKept } = await workspace();
    await vetUntilKept();
    expect((await vet()).unvouched).toEqual([]);
    sameSizeEdit(path.join(sub, '.git', 'config'), 'filemode = ', 'filemodx = ');
    const kept = await vet();
    expect(kept.unvouched.join()).toContain('core.filemodx (in sub/.git/config)');
    expect(kept).toEqual(await fresh());
  });

  it('the workspace’s own config replaced by a rename, the mtime set back, is read again', async () => {
    const { ws, vet, fresh, vetUntilKept } = await workspace();
    const config = path.join(ws.root, '.git', 'config');
    await vetUntilKept();
    expect((await vet()).unvouched).toEqual([]);
    const mtime = mtimeOf(config);
    const replacement = path.join(ws.root, '.git', 'config.new');
    writeFileSync(replacement, `${execFileSync('cat', [config], { encoding: 'utf8' })}[some]\n\tunknown = x\n`);
    renameSync(replacement, config);
    setMtime(config, mtime);
    const kept = await vet();
    expect(kept.unvouched.join()).toContain('some.unknown (in .git/config)');
    expect(kept).toEqual(await fresh());
  });

  it('an included file changed to the same size, its mtime set back, is read again', async () => {
    const { ws, sub, vet, fresh, vetUntilKept } = await workspace();
    const included = path.join(ws.outside, 'included.cfg');
    writeFileSync(included, '[user]\n\tname = abcdef\n');
    git(sub, 'config', 'include.path', included);
    await vetUntilKept();
    expect((await vet()).unvouched).toEqual([]);
    sameSizeEdit(included, '[user]\n\tname = abcdef', '[evil]\n\tname = abcdef');
    const kept = await vet();
    expect(kept.unvouched.join()).toContain(`evil.name (in ${included})`);
    expect(kept).toEqual(await fresh());
  });

  it('an include of a file that did not exist is read once the file is made', async () => {
    const { ws, sub, vet, fresh, vetUntilKept } = await workspace();
    const included = path.join(ws.outside, 'later.cfg');
    git(sub, 'config', 'include.path', included);
    await vetUntilKept();
    expect((await vet()).unvouched.join()).toContain('which does not exist');
    writeFileSync(included, '[some]\n\tunknown = x\n');
    const kept = await vet();
    expect(kept.unvouched.join()).toContain(`some.unknown (in ${included})`);
    expect(kept).toEqual(await fresh());
  });

  it('a .git file whose gitdir is changed in place to one of the same length is followed to the new config', async () => {
    const { ws, vet, fresh, vetUntilKept } = await workspace();
    const wt = path.join(ws.root, 'wt');
    mkdirSync(wt);
    for (const name of ['g1', 'g2']) {
      const dir = path.join(ws.outside, name);
      mkdirSync(dir);
      git(dir, 'init', '-q', '--bare');
    }
    git(path.join(ws.outside, 'g2'), 'config', 'some.unknown', 'x');
    const dotGit = path.join(wt, '.git');
    writeFileSync(dotGit, `gitdir: ${path.join(ws.outside, 'g1')}\n`);
    await vetUntilKept();
    expect((await vet()).unvouched).toEqual([]);
    // The folder's name with its slash and line end: a temp folder's random name may hold `g1` too.
    sameSizeEdit(dotGit, '/g1\n', '/g2\n');
    const kept = await vet();
    expect(kept.unvouched.join()).toContain('some.unknown');
    expect(kept).toEqual(await fresh());
  });

  it('a user config made broken after the read fails the read, as a fresh read does', async () => {
    const { home, vet, fresh, vetUntilKept } = await workspace();
    await vetUntilKept();
    writeFileSync(path.join(home, '.gitconfig'), '[broken\n');
    await expect(fresh()).rejects.toThrow(/could not read/);
    await expect(vet()).rejects.toThrow(/could not read/);
  });

  it('the bash tool reads again at run time: a key added after the approval box read the config is refused', async () => {
    const { ws, sub, env, vetUntilKept } = await workspace();
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    await vetUntilKept();
    expect((await bash.preflight!({ command: 'true' }, ws.ctx)).unvouched).toEqual([]);
    const before = outputRuns();
    expect((await bash.execute({ command: 'true' }, { ...ws.ctx, keypress: true })).ok).toBe(true);
    // The run's read was served from what the approval box's read kept.
    expect(outputRuns()).toBe(before);
    expect((await bash.preflight!({ command: 'true' }, ws.ctx)).unvouched).toEqual([]);
    git(sub, 'config', 'some.unknown', 'x');
    const out = await bash.execute({ command: 'true' }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(out.content).toContain('some.unknown (in sub/.git/config)');
  });
});
