/**
 * A command the model runs reaches other git directories than the repository's own: `git status`
 * at the top enters each submodule (whose config is `.git/modules/<name>/config`), `cd sub && git
 * diff` or `git -C vendor/x diff` a nested repository, `git -C ../other diff` another worktree.
 * Their configs are read and vetted like the repository's: none of their programs runs.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from './tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    encoding: 'utf8',
  });

/** A repository at `dir` whose `f.evil` uses the filter and diff driver `evil`, changed since its commit. */
function repositoryAt(dir: string) {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(path.join(dir, 'f.evil'), 'one\n');
  writeFileSync(path.join(dir, '.gitattributes'), '*.evil filter=evil diff=evil\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'first');
}

async function workspace() {
  const ws = await tempWorkspace();
  repositoryAt(ws.root);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  const bash = createBashTool({ workspaceRoot: ws.root, env });
  const run = (command: string) => bash.execute({ command }, { ...ws.ctx, keypress: true });
  const mark = path.join(ws.outside, 'ran');
  /** Config lines whose clean filter and textconv leave the mark. */
  const evil = [
    '[filter "evil"]',
    `\tclean = "sh -c 'touch ${mark}; cat'"`,
    '[diff "evil"]',
    `\ttextconv = "sh -c 'touch ${mark}; cat \\"$0\\"'"`,
    '',
  ].join('\n');
  /** Runs `command` with plain git, then says whether the mark was left (and removes it). */
  const plainRuns = (command: string): boolean => {
    execFileSync('bash', ['-c', command], { cwd: ws.root, stdio: 'ignore', env: { ...process.env, HOME: ws.outside } });
    const ran = existsSync(mark);
    if (ran) execFileSync('rm', [mark]);
    return ran;
  };
  return { ws, run, mark, evil, plainRuns };
}

describe('other git directories a command reaches', () => {
  it("a submodule's filter and textconv: git diff --submodule=diff at the top, cd sub && git diff, git -C sub diff", async () => {
    const { ws, run, mark, evil, plainRuns } = await workspace();
    const lib = path.join(ws.outside, 'lib');
    repositoryAt(lib);
    git(ws.root, 'submodule', 'add', '-q', lib, 'sub');
    git(ws.root, 'commit', '-qm', 'sub');
    appendFileSync(path.join(ws.root, '.git', 'modules', 'sub', 'config'), evil);
    appendFileSync(path.join(ws.root, 'sub', 'f.evil'), 'two\n');
    for (const command of ['git diff --submodule=diff', 'cd sub && git diff', 'git -C sub diff']) {
      expect(plainRuns(command), command).toBe(true);
      const out = await run(command);
      expect(out.ok, out.content).toBe(true);
      expect(existsSync(mark), command).toBe(false);
    }
  });

  it('a submodule keeping its own .git folder (added from a repository in the work tree): git diff --submodule=diff', async () => {
    const { ws, run, mark, evil, plainRuns } = await workspace();
    const sub = path.join(ws.root, 'sub');
    repositoryAt(sub);
    git(ws.root, 'submodule', 'add', '-q', './sub', 'sub');
    git(ws.root, 'commit', '-qm', 'sub');
    expect(existsSync(path.join(sub, '.git', 'HEAD'))).toBe(true);
    appendFileSync(path.join(sub, '.git', 'config'), evil);
    appendFileSync(path.join(sub, 'f.evil'), 'two\n');
    const command = 'git diff --submodule=diff';
    expect(plainRuns(command)).toBe(true);
    const out = await run(command);
    expect(out.ok, out.content).toBe(true);
    expect(existsSync(mark)).toBe(false);
  });

  it('a nested repository the command names: cd vendor/x && git diff, git -C vendor/x diff, GIT_DIR=', async () => {
    const { ws, run, mark, evil, plainRuns } = await workspace();
    const nested = path.join(ws.root, 'vendor', 'x');
    repositoryAt(nested);
    appendFileSync(path.join(nested, '.git', 'config'), evil);
    appendFileSync(path.join(nested, 'f.evil'), 'two\n');
    const commands = [
      'cd vendor/x && git diff',
      'git -C vendor/x diff',
      'cd vendor && git -C x diff',
      'GIT_DIR=vendor/x/.git GIT_WORK_TREE=vendor/x git diff',
      'cd vend""or/x && git diff',
      'cd vend\\or/x && git diff',
      'for d in vendor/*; do git -C "$d" diff; done',
      'git -C vendo?/x diff',
    ];
    for (const command of commands) {
      expect(plainRuns(command), command).toBe(true);
      const out = await run(command);
      expect(out.ok, out.content).toBe(true);
      expect(existsSync(mark), command).toBe(false);
    }
  });

  it('a .git file pointing to a git directory outside the workspace is followed; one pointing nowhere refuses', async () => {
    const { ws, run, mark, evil, plainRuns } = await workspace();
    const real = path.join(ws.outside, 'real');
    repositoryAt(real);
    appendFileSync(path.join(real, '.git', 'config'), evil);
    mkdirSync(path.join(ws.root, 'other'));
    writeFileSync(path.join(ws.root, 'other', '.git'), `gitdir: ${path.join(real, '.git')}\n`);
    git(path.join(ws.root, 'other'), 'config', 'core.worktree', path.join(ws.root, 'other'));
    writeFileSync(path.join(ws.root, 'other', 'f.evil'), 'changed\n');
    writeFileSync(path.join(ws.root, 'other', '.gitattributes'), '*.evil filter=evil diff=evil\n');
    expect(plainRuns('git -C other diff')).toBe(true);
    const out = await run('git -C other diff');
    expect(out.ok, out.content).toBe(true);
    expect(existsSync(mark)).toBe(false);
    mkdirSync(path.join(ws.root, 'lost'));
    writeFileSync(path.join(ws.root, 'lost', '.git'), 'gitdir: /nowhere/at/all\n');
    const refused = await run('git -C lost status');
    expect(refused.ok).toBe(false);
    expect(refused.content).toContain('a .git file pointing to a git directory tole cannot read');
  });

  it("another worktree's config.worktree: git -C ../other diff", async () => {
    const { ws, run, mark, evil, plainRuns } = await workspace();
    const other = path.join(ws.outside, 'wt');
    git(ws.root, 'worktree', 'add', '-q', other);
    git(ws.root, 'config', 'extensions.worktreeConfig', 'true');
    appendFileSync(path.join(ws.root, '.git', 'worktrees', 'wt', 'config.worktree'), evil);
    appendFileSync(path.join(other, 'f.evil'), 'two\n');
    const command = `git -C ${other} diff`;
    expect(plainRuns(command)).toBe(true);
    const out = await run(command);
    expect(out.ok, out.content).toBe(true);
    expect(existsSync(mark)).toBe(false);
  });
});
