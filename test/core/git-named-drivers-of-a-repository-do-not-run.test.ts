/**
 * A repository's own config can name programs git runs on a read: a clean filter and a textconv
 * picked by `.gitattributes`, a diff driver's command, `diff.external`, a signing program that
 * `git log --show-signature` runs. Git has no setting that switches a named driver off, so tole
 * reads the repository's config before each model-run command and makes each inert. Through the
 * bash tool (with a keypress, unconfined) and a hook, none of them runs, and `git diff` still
 * shows the change; the user's own (global) settings are not touched.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listedEntries } from '../../src/core/git-config-listing';
import { neutralSettings, repositoryGitConfig } from '../../src/core/git-repo-drivers';
import { withGitGuard } from '../../src/core/git-guard-env';
import { runHookCommand } from '../../src/core/hooks/run-hook-command';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from './tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A repository whose config names five programs, each leaving its own marker outside when run. */
async function repositoryWithDrivers() {
  const ws = await tempWorkspace();
  git(ws.root, 'init', '-q');
  writeFileSync(path.join(ws.root, 'f.evil'), 'one\n');
  writeFileSync(path.join(ws.root, 'plain.txt'), 'one\n');
  writeFileSync(path.join(ws.root, '.gitattributes'), '*.evil filter=evil diff=evil\n*.cmd diff=cmd\n');
  writeFileSync(path.join(ws.root, 'g.cmd'), 'one\n');
  git(ws.root, 'add', '-A');
  git(ws.root, 'commit', '-qm', 'first');
  const mark = (name: string) => path.join(ws.outside, name);
  appendFileSync(
    path.join(ws.root, '.git', 'config'),
    [
      '[filter "evil"]',
      `\tclean = "sh -c 'touch ${mark('clean')}; cat'"`,
      `\tsmudge = "sh -c 'touch ${mark('smudge')}; cat'"`,
      '[diff "evil"]',
      `\ttextconv = "sh -c 'touch ${mark('textconv')}; cat \\"$0\\"'"`,
      '[diff "cmd"]',
      `\tcommand = "sh -c 'touch ${mark('diff-command')}'"`,
      '[gpg]',
      `\tprogram = "sh -c 'touch ${mark('gpg')}'"`,
      '',
    ].join('\n'),
  );
  for (const file of ['f.evil', 'plain.txt', 'g.cmd']) appendFileSync(path.join(ws.root, file), 'two\n');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  const marks = ['clean', 'smudge', 'textconv', 'diff-command', 'gpg'].map(mark);
  return { ws, env, marks };
}

const READS = 'git status --short; git diff; git diff --stat; git log -p -1 --show-signature; git show --stat HEAD';

describe("a repository's named programs", () => {
  it('the repository is hostile to plain git', async () => {
    const { ws, marks } = await repositoryWithDrivers();
    execFileSync('bash', ['-c', `${READS}; git checkout -q -- f.evil`], { cwd: ws.root, stdio: 'ignore' });
    expect(marks.filter((m) => existsSync(m)).map((m) => path.basename(m))).toEqual(
      expect.arrayContaining(['clean', 'textconv', 'diff-command', 'smudge']),
    );
  });

  it('through the bash tool with a keypress: none runs, and git diff still shows the change', async () => {
    const { ws, env, marks } = await repositoryWithDrivers();
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    const out = await bash.execute({ command: `${READS}; git checkout -q -- f.evil` }, { ...ws.ctx, keypress: true });
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('+two');
    expect(out.content).toContain("this repository's diff driver cmd was not run");
    expect(marks.filter((m) => existsSync(m))).toEqual([]);
  });

  it('in a hook: none runs', async () => {
    const { ws, env, marks } = await repositoryWithDrivers();
    const end = await runHookCommand({ command: READS, cwd: ws.root, env, stdin: '', timeoutMs: 20_000 });
    expect(end.exitCode, end.stderr).toBe(0);
    expect(marks.filter((m) => existsSync(m))).toEqual([]);
  });

  it('a config whose keys are past what tole reads fails closed: neither the command nor a hook runs', async () => {
    const { ws, env, marks } = await repositoryWithDrivers();
    // 260,000 keys list as more than 4 MB: a listing cut short would leave the drivers as they are.
    const keys = Array.from({ length: 260_000 }, (_, i) => `\tk${i} = x`).join('\n');
    appendFileSync(path.join(ws.root, '.git', 'config'), `[pad]\n${keys}\n`);
    const ran = path.join(ws.outside, 'ran');
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    const out = await bash.execute({ command: `touch ${ran}; ${READS}` }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(out.content).toContain('longer than 4 MB');
    expect(out.content).toContain('so the command was not run');
    const end = await runHookCommand({
      command: `touch ${ran}; ${READS}`,
      cwd: ws.root,
      env,
      stdin: '',
      timeoutMs: 20_000,
    });
    expect(end.exitCode).toBe(null);
    expect(end.spawnError).toContain('so the command was not run');
    expect([ran, ...marks].filter((m) => existsSync(m))).toEqual([]);
  });

  it('a config git refuses fails closed with what git said', async () => {
    const { ws, env } = await repositoryWithDrivers();
    appendFileSync(path.join(ws.root, '.git', 'config'), '[broken\n');
    const ran = path.join(ws.outside, 'ran');
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    const out = await bash.execute({ command: `touch ${ran}` }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(out.content).toContain('bad config line');
    expect(out.content).toContain('Fix the config');
    expect(existsSync(ran)).toBe(false);
  });

  it('outside a repository, or with no git on the path, nothing is refused', async () => {
    const ws = await tempWorkspace();
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
    const none = { settings: [], unvouched: [], fromCommand: [] };
    expect(await repositoryGitConfig(ws.root, withGitGuard(env))).toEqual(none);
    expect(await repositoryGitConfig(ws.root, withGitGuard({ ...env, PATH: ws.outside }))).toEqual(none);
  });

  it("reads only the repository's scopes: a user's global driver is left alone", async () => {
    const { ws, env } = await repositoryWithDrivers();
    writeFileSync(path.join(ws.outside, '.gitconfig'), '[diff "mine"]\n\ttextconv = my-textconv\n');
    const { settings } = await repositoryGitConfig(ws.root, withGitGuard(env));
    const keys = settings.map(([key]) => key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'filter.evil.clean',
        'filter.evil.smudge',
        'diff.evil.textconv',
        'diff.cmd.command',
        'gpg.program',
      ]),
    );
    expect(keys).not.toContain('diff.mine.textconv');
  });

  it('every kind of named program gets an inert value; other keys none', () => {
    const items = [
      'filter.lfs.process\ngit-lfs filter-process',
      'diff.external\nevil',
      'merge.ours.driver\nevil %O',
      'submodule.x.update\n!evil',
      'remote.origin.uploadpack\nevil',
      'credential.helper\nevil',
      'gpg.ssh.program\nevil',
      'core.pager\nevil',
      'user.name\nsomeone',
      'core.bare',
    ];
    const settings = new Map(neutralSettings(items));
    expect([...settings.keys()].sort()).toEqual(
      [
        'core.pager',
        'credential.helper',
        'diff.external',
        'filter.lfs.process',
        'gpg.ssh.program',
        'merge.ours.driver',
        'remote.origin.uploadpack',
        'submodule.x.update',
      ].sort(),
    );
    expect(settings.get('filter.lfs.process')).toBe('');
    expect(settings.get('submodule.x.update')).toBe('checkout');
    expect(
      listedEntries(
        'global\0file:/h/.gitconfig\0diff.a.textconv\nx\0local\0file:.git/config\0diff.b.textconv\ny\0worktree\0file:.git/config.worktree\0core.bare\0local\0command line:\0k.v\0',
        new Set(['local', 'worktree']),
        '/r',
      ),
    ).toEqual([
      { origin: '/r/.git/config', key: 'diff.b.textconv', value: 'y' },
      { origin: '/r/.git/config.worktree', key: 'core.bare', value: null },
    ]);
  });
});
