/**
 * Every file a repository's config includes is read before a command the model runs, whatever
 * its condition: a branch switch (`includeIf "onbranch:…"`) or another git dir (`includeIf
 * "gitdir:…"`) inside one command would otherwise bring in a program git skipped when tole read
 * the config. An include of a missing file, or a config file in the work tree, is something a
 * command can create or change after tole read it: such a command does not run unconfined.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withGitGuard } from '../../src/core/git-guard-env';
import { repositoryGitConfig } from '../../src/core/git-repo-drivers';
import { runHookCommand } from '../../src/core/hooks/run-hook-command';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from './tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A repository whose `f.txt` uses the diff driver `evil`, with a branch `feature` and `f.txt` changed since. */
async function repository() {
  const ws = await tempWorkspace();
  git(ws.root, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(ws.root, 'f.txt'), 'one\n');
  writeFileSync(path.join(ws.root, '.gitattributes'), '*.txt diff=evil\n');
  git(ws.root, 'add', '-A');
  git(ws.root, 'commit', '-qm', 'first');
  git(ws.root, 'branch', 'feature');
  appendFileSync(path.join(ws.root, 'f.txt'), 'two\n');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  const bash = createBashTool({ workspaceRoot: ws.root, env });
  const run = (command: string) => bash.execute({ command }, { ...ws.ctx, keypress: true });
  const mark = path.join(ws.outside, 'textconv');
  const config = (file: string, lines: string[]) => appendFileSync(path.join(ws.root, file), `${lines.join('\n')}\n`);
  /** Config lines naming the textconv that leaves the mark. */
  const evil = ['[diff "evil"]', `\ttextconv = "sh -c 'touch ${mark}; cat \\"$0\\"'"`];
  const plain = (command: string) =>
    execFileSync('bash', ['-c', command], { cwd: ws.root, stdio: 'ignore', env: { ...process.env, HOME: ws.outside } });
  return { ws, env, run, mark, config, evil, plain };
}

describe('includes of a repository config', () => {
  it('includeIf onbranch: a branch switch inside the command runs no textconv the branch brings in', async () => {
    const { run, mark, config, evil, plain } = await repository();
    config('.git/config', ['[includeIf "onbranch:feature"]', '\tpath = evil.cfg']);
    config('.git/evil.cfg', evil);
    plain('git diff');
    expect(existsSync(mark)).toBe(false);
    plain('git checkout -q feature && git diff && git checkout -q main');
    expect(existsSync(mark)).toBe(true); // the repository is hostile to plain git
    execFileSync('rm', [mark]);
    const out = await run('git checkout -q feature && git diff');
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('+two');
    expect(existsSync(mark)).toBe(false);
  });

  it('includeIf gitdir: the repository seen from another git dir runs no textconv', async () => {
    const { run, mark, config, evil, plain } = await repository();
    config('.git/config', ['[includeIf "gitdir:**/linked"]', '\tpath = evil.cfg']);
    config('.git/evil.cfg', evil);
    const command = 'ln -sfn .git linked && git --git-dir=linked --work-tree=. diff';
    plain(command);
    expect(existsSync(mark)).toBe(true);
    execFileSync('rm', [mark]);
    const out = await run(command);
    expect(out.ok, out.content).toBe(true);
    expect(existsSync(mark)).toBe(false);
  });

  it('an include inside an include skipped by its condition is read too', async () => {
    const { ws, env, config } = await repository();
    config('.git/config', ['[includeIf "onbranch:x"]', '\tpath = a.cfg']);
    config('.git/a.cfg', ['[includeIf "gitdir:/nowhere/"]', '\tpath = b.cfg']);
    config('.git/b.cfg', ['[Diff "Deep"]', '\tTextConv = evil']);
    const { settings, unvouched } = await repositoryGitConfig(ws.root, withGitGuard(env));
    expect(new Map(settings).get('diff.Deep.textconv')).toBe('cat');
    expect(unvouched).toEqual([]);
  });

  it('an include of a missing file: a command that creates it does not run unconfined', async () => {
    const { ws, env, run, mark, config, evil, plain } = await repository();
    config('.git/config', ['[include]', '\tpath = ../later.cfg']);
    const command = `printf '%s\\n' '${evil[0]}' '${evil[1]!.replaceAll("'", "'\\''")}' > later.cfg && git diff`;
    plain(command);
    expect(existsSync(mark)).toBe(true);
    execFileSync('rm', [mark, path.join(ws.root, 'later.cfg')]);
    const out = await run(command);
    expect(out.ok).toBe(false);
    expect(out.content).toContain(`${path.join(ws.root, 'later.cfg')}, which does not exist`);
    const end = await runHookCommand({ command, cwd: ws.root, env, stdin: '', timeoutMs: 20_000 });
    expect(end.spawnError).toContain('which does not exist');
    expect(existsSync(path.join(ws.root, 'later.cfg'))).toBe(false);
    expect(existsSync(mark)).toBe(false);
  });

  it('an included file in the work tree: a checkout that changes it does not run unconfined', async () => {
    const { ws, run, mark, config, evil, plain } = await repository();
    git(ws.root, 'stash', '-q');
    git(ws.root, 'checkout', '-q', 'feature');
    config('shared.cfg', evil);
    git(ws.root, 'add', 'shared.cfg');
    git(ws.root, 'commit', '-qm', 'shared config');
    git(ws.root, 'checkout', '-q', 'main');
    writeFileSync(path.join(ws.root, 'shared.cfg'), '[core]\n\tautocrlf = false\n');
    git(ws.root, 'add', 'shared.cfg');
    git(ws.root, 'commit', '-qm', 'plain shared config');
    git(ws.root, 'stash', 'pop', '-q');
    config('.git/config', ['[include]', '\tpath = ../shared.cfg']);
    const command = 'git checkout -q feature && git diff';
    plain(`${command}; git checkout -q main`);
    expect(existsSync(mark)).toBe(true);
    execFileSync('rm', [mark]);
    const out = await run(command);
    expect(out.ok).toBe(false);
    expect(out.content).toContain(`${path.join(ws.root, 'shared.cfg')}, a config file in the work tree`);
    expect(existsSync(mark)).toBe(false);
  });

  it('.git/config linked to a file in the work tree does not run unconfined', async () => {
    const { ws, run } = await repository();
    execFileSync('mv', [path.join(ws.root, '.git', 'config'), path.join(ws.root, 'tracked.cfg')]);
    symlinkSync('../tracked.cfg', path.join(ws.root, '.git', 'config'));
    const out = await run('git status --short');
    expect(out.ok).toBe(false);
    expect(out.content).toContain('a config file in the work tree');
  });

  it('an include cycle is refused with what git said', async () => {
    const { ws, run, config } = await repository();
    config('.git/config', ['[include]', '\tpath = a.cfg']);
    config('.git/a.cfg', ['[include]', '\tpath = config']);
    const ran = path.join(ws.outside, 'ran');
    const out = await run(`touch ${ran}`);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('exceeded maximum include depth');
    expect(existsSync(ran)).toBe(false);
  });

  it('an include outside the work tree that exists is read and passes', async () => {
    const { ws, env, config } = await repository();
    mkdirSync(path.join(ws.outside, 'conf'));
    writeFileSync(path.join(ws.outside, 'conf', 'mine.cfg'), '[user]\n\tname = me\n');
    config('.git/config', ['[includeIf "gitdir:/elsewhere/"]', '\tpath = ~/conf/mine.cfg']);
    expect(await repositoryGitConfig(ws.root, withGitGuard(env))).toEqual({
      settings: [],
      unvouched: [],
      fromCommand: [],
    });
  });
});
