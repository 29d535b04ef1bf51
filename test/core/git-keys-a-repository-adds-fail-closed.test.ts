/**
 * tole vets every key of a repository's git config before a command the model runs: a key known
 * to name no program passes, a key that names one gets an inert value, and a key tole does not
 * know keeps the command from running unconfined (the refusal names it and says what to do).
 * Closed here: aliases (a `!` alias runs the shell; a plain one brings `-c` settings), difftool
 * commands and paths, interactive.diffFilter; keys in odd case; an unknown key.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { vetEntries } from '../../src/core/git-repo-drivers';
import { runHookCommand } from '../../src/core/hooks/run-hook-command';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { detectSandbox } from '../../src/core/tools/sandbox';
import { tempWorkspace } from './tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A repository with one committed file `f`, changed since; `config` appends to its .git/config. */
async function repository() {
  const ws = await tempWorkspace();
  git(ws.root, 'init', '-q');
  writeFileSync(path.join(ws.root, 'f'), 'one\n');
  git(ws.root, 'add', '-A');
  git(ws.root, 'commit', '-qm', 'first');
  appendFileSync(path.join(ws.root, 'f'), 'two\n');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  const bash = createBashTool({ workspaceRoot: ws.root, env });
  const run = (command: string) => bash.execute({ command }, { ...ws.ctx, keypress: true });
  const config = (lines: string[]) => appendFileSync(path.join(ws.root, '.git', 'config'), `${lines.join('\n')}\n`);
  const mark = (name: string) => path.join(ws.outside, name);
  const marked = (names: string[]) => names.filter((name) => existsSync(mark(name)));
  return { ws, env, run, config, mark, marked };
}

/** Aliases, difftools and a diff filter, each leaving its own mark when run. */
async function repositoryWithTools() {
  const repo = await repository();
  const { ws, config, mark } = repo;
  const script = path.join(ws.outside, 'tool.sh');
  writeFileSync(script, `#!/bin/sh\ntouch ${mark('difftool-path')}\n`);
  chmodSync(script, 0o755);
  config([
    '[alias]',
    `\tevil = "!touch ${mark('alias')}"`,
    '[Alias]',
    `\tShout = "!touch ${mark('alias-case')}"`,
    `\td = -c diff.external='touch ${mark('alias-c')}' diff`,
    '[difftool "evil"]',
    `\tcmd = touch ${mark('difftool-cmd')}`,
    '[difftool "vimdiff"]',
    `\tpath = ${script}`,
    '[color]',
    '\tdiff = always',
    '[add "interactive"]',
    '\tuseBuiltin = false',
    '[interactive]',
    `\tdiffFilter = "sh -c 'touch ${mark('diff-filter')}; cat'"`,
  ]);
  return repo;
}

const TOOLS = ['alias', 'alias-case', 'alias-c', 'difftool-cmd', 'difftool-path', 'diff-filter'];
const USE_TOOLS =
  'git evil; git SHOUT; git d; git difftool -y -t evil; git difftool -y -t vimdiff; git add -p; git status --short';

describe("keys a repository's config adds", () => {
  it('the repository is hostile to plain git', async () => {
    const { ws, marked } = await repositoryWithTools();
    execFileSync('bash', ['-c', USE_TOOLS], { cwd: ws.root, stdio: 'ignore' });
    expect(marked(TOOLS)).toEqual(TOOLS);
  });

  it('through the bash tool with a keypress: no alias, difftool or diff filter runs, and each says so', async () => {
    const { run, marked } = await repositoryWithTools();
    const out = await run(USE_TOOLS);
    expect(out.content).toContain("tole: this repository's alias evil was not run");
    expect(out.content).toContain("tole: this repository's alias d was not run");
    expect(out.content).toContain("tole: this repository's difftool evil was not run");
    expect(out.content).toContain(' M f');
    expect(marked(TOOLS)).toEqual([]);
  });

  it('in a hook: none runs', async () => {
    const { ws, env, marked } = await repositoryWithTools();
    const end = await runHookCommand({ command: USE_TOOLS, cwd: ws.root, env, stdin: '', timeoutMs: 20_000 });
    expect(end.spawnError).toBe(null);
    expect(marked(TOOLS)).toEqual([]);
  });

  it('a key tole does not know keeps the command from running unconfined, and the refusal names it', async () => {
    const { ws, env, run, config, mark } = await repository();
    config(['[GitFlow "Path"]', `\tHooks = ${ws.outside}`]);
    const out = await run(`touch ${mark('ran')}`);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('it is refused: there is no sandbox here');
    expect(out.content).toContain('gitflow.Path.hooks (in .git/config)');
    expect(out.content).toContain('git config --unset');
    const end = await runHookCommand({
      command: `touch ${mark('ran')}`,
      cwd: ws.root,
      env,
      stdin: '',
      timeoutMs: 20_000,
    });
    expect(end.exitCode).toBe(null);
    expect(end.spawnError).toContain('gitflow.Path.hooks');
    expect(existsSync(mark('ran'))).toBe(false);
  });

  it('a key the user vouched for (trustedGitKeys) lets the command run; a trusted prefix never un-neutralises a program', async () => {
    const { ws, env, config, mark } = await repository();
    config([
      '[gitflow "path"]',
      `\thooks = ${ws.outside}`,
      '[diff "evil"]',
      `\ttextconv = "sh -c 'touch ${mark('textconv')}; cat' --"`,
    ]);
    writeFileSync(path.join(ws.root, '.gitattributes'), 'f diff=evil\n');
    const trusting = (trustedGitKeys: string[]) => createBashTool({ workspaceRoot: ws.root, env, trustedGitKeys });
    const run = (trusted: string[], command: string) =>
      trusting(trusted).execute({ command }, { ...ws.ctx, keypress: true });
    // Another key, or the subsection in another case (git tells them apart), vouches for nothing.
    for (const trusted of [['gitflow.prefix.*'], ['gitflow.Path.hooks'], []]) {
      const out = await run(trusted, `touch ${mark('ran')}`);
      expect(out.content).toContain('gitflow.path.hooks (in .git/config)');
    }
    expect(existsSync(mark('ran'))).toBe(false);
    for (const trusted of [['gitflow.path.hooks'], ['gitflow.*'], ['GitFlow.path.*'], ['diff.*', 'gitflow.*']]) {
      const out = await run(trusted, `touch ${mark('ran')} && git diff f`);
      expect(out.ok, out.content).toBe(true);
    }
    expect(existsSync(mark('ran'))).toBe(true);
    expect(existsSync(mark('textconv'))).toBe(false);
    const hook = await runHookCommand({
      command: `touch ${mark('hook')} && git diff f`,
      cwd: ws.root,
      env,
      stdin: '',
      timeoutMs: 20_000,
      trustedGitKeys: ['gitflow.*', 'diff.*'],
    });
    expect(hook.spawnError).toBe(null);
    expect(existsSync(mark('hook'))).toBe(true);
    expect(existsSync(mark('textconv'))).toBe(false);
  });

  it('a core.worktree outside the workspace (where a reset would write) keeps the command from running unconfined', async () => {
    const { ws, run, config } = await repository();
    symlinkSync(ws.outside, path.join(ws.root, 'away'));
    for (const place of [ws.outside, '../away', '../../outside']) {
      writeFileSync(path.join(ws.root, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
      config(['[core]', `\tworktree = ${place}`]);
      const out = await run(`git reset -q --hard && touch ${path.join(ws.outside, 'ran')}`);
      expect(out.ok, place).toBe(false);
      expect(out.content).toContain(`core.worktree = ${place}`);
    }
    expect(existsSync(path.join(ws.outside, 'f'))).toBe(false);
    expect(existsSync(path.join(ws.outside, 'ran'))).toBe(false);
    writeFileSync(path.join(ws.root, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tworktree = ..\n');
    expect((await run('git status --short')).ok).toBe(true);
  });

  const sandbox = detectSandbox(process.platform, process.env['PATH']);
  it.skipIf(!sandbox)('a key tole does not know does not stop a command run in the sandbox', async () => {
    const { ws, env, config } = await repository();
    config(['[gitflow "path"]', `\thooks = ${ws.outside}`]);
    const tempDir = path.join(path.dirname(ws.root), 'tmp');
    mkdirSync(tempDir);
    const bash = createBashTool({
      workspaceRoot: ws.root,
      env,
      sandbox: { sandbox: sandbox!, policy: { workspaceRoot: ws.root, tempDir, network: false } },
    });
    const out = await bash.execute({ command: 'git status --short' }, ws.ctx);
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain(' M f');
  });

  it("a cloned repository's own config passes: the command runs", async () => {
    const { ws, env } = await repository();
    const clone = path.join(path.dirname(ws.root), 'clone');
    git(ws.outside, 'clone', '-q', ws.root, clone);
    git(clone, 'config', 'user.email', 'me@example.com');
    git(clone, 'config', 'submodule.lib.url', 'https://example.com/lib.git');
    git(clone, 'config', 'lfs.repositoryformatversion', '0');
    git(clone, 'config', 'pull.rebase', 'true');
    git(clone, 'config', 'url.https://example.com/.insteadOf', 'ex:');
    const bash = createBashTool({ workspaceRoot: clone, env });
    const out = await bash.execute(
      { command: 'git status --short --branch' },
      { ...ws.ctx, workspaceRoot: clone, keypress: true },
    );
    expect(out.ok, out.content).toBe(true);
  });
});

describe('vetting keys', () => {
  const vet = (...keys: string[]) => vetEntries(keys.map((key) => ({ origin: 'c', key, value: 'x' })));

  it('every key that names a program gets an inert value', () => {
    const program = [
      'alias.st',
      'difftool.t.cmd',
      'difftool.t.path',
      'mergetool.t.cmd',
      'mergetool.t.path',
      'guitool.t.cmd',
      'browser.t.cmd',
      'browser.t.path',
      'man.t.cmd',
      'man.t.path',
      'interactive.difffilter',
      'imap.tunnel',
      'init.templatedir',
      'sendemail.smtpserver',
      'sendemail.work.smtpserver',
      'sendemail.tocmd',
      'sendemail.cccmd',
      'sendemail.work.headercmd',
      'sendemail.sendmailcmd',
      'core.alternaterefscommand',
      'gpg.Odd.program',
      'http.savecookies',
      'http.https://x.savecookies',
    ];
    const { settings, unvouched } = vet(...program);
    expect(settings.map(([key]) => key)).toEqual(program);
    expect(unvouched).toEqual([]);
    expect(new Map(settings).get('alias.st')).toBe(
      `!echo 'tole: this repository'\\''s alias st was not run' >&2; false #`,
    );
  });

  it('keys that name no program pass; any other key is unvouched, named with its file', () => {
    const inert = [
      'core.repositoryformatversion',
      'core.filemode',
      'core.bare',
      'core.logallrefupdates',
      'core.ignorecase',
      'core.autocrlf',
      'remote.origin.url',
      'remote.origin.fetch',
      'remote.up.stream.pushurl',
      'branch.main.remote',
      'branch.main.merge',
      'user.name',
      'submodule.lib.url',
      'submodule.lib.active',
      'lfs.url',
      'lfs.https://x/info/lfs.access',
      'color.diff.meta',
      'gpg.ssh.allowedsignersfile',
      'include.path',
      'includeif.onbranch:x.path',
      'lfs.concurrenttransfers',
      'lfs.transfer.maxretries',
      'gitflow.branch.master',
      'gitflow.prefix.feature',
      'core.longpaths',
    ];
    expect(vet(...inert)).toEqual({ settings: [], unvouched: [] });
    const unknown = [
      'lfs.customtransfer.x.path',
      'gitflow.path.hooks',
      'instaweb.httpd',
      'core.newthing',
      'gitcvs.dbdriver',
      'Include.x.path',
    ];
    expect(vet(...unknown).unvouched).toEqual([
      'lfs.customtransfer.x.path (in c)',
      'gitflow.path.hooks (in c)',
      'instaweb.httpd (in c)',
      'core.newthing (in c)',
      'gitcvs.dbdriver (in c)',
      'include.x.path (in c)',
    ]);
  });
});
