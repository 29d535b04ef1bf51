/**
 * Git run by a model's command (the bash tool, with a keypress or in the sandbox; hooks and
 * prompt commands) runs none of a repository's code: a repository whose config names a
 * `core.fsmonitor` and whose hooks directory holds a pre-commit hook is left alone by
 * `git status` and `git commit`; a bare repository lying in the workspace is not discovered.
 * The user's own GIT_CONFIG_COUNT settings still apply.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_GUARD_CONFIG, withGitGuard } from '../../src/core/git-guard-env';
import { runHookCommand } from '../../src/core/hooks/run-hook-command';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { detectSandbox } from '../../src/core/tools/sandbox';
import { sandboxedBash, tempWorkspace } from './tools/temp-workspace';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
if (!sandbox) console.log('skipping the sandboxed half of the git tests: no working bwrap here (install bubblewrap)');

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A repository that runs code at `git status` (fsmonitor) and `git commit` (hook), each leaving a marker outside. */
async function hostileRepo() {
  const ws = await tempWorkspace();
  git(ws.root, 'init', '-q');
  writeFileSync(path.join(ws.root, 'a.txt'), 'a\n');
  git(ws.root, 'add', '.');
  git(ws.root, 'commit', '-q', '-m', 'first');
  const fsmonitorMark = path.join(ws.outside, 'fsmonitor-ran');
  const hookMark = path.join(ws.outside, 'hook-ran');
  git(ws.root, 'config', 'core.fsmonitor', `touch ${fsmonitorMark}; false`);
  const hook = path.join(ws.root, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, `#!/bin/sh\ntouch ${hookMark}\n`);
  chmodSync(hook, 0o755);
  // Proof the repository is hostile: plain git runs both.
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  return { ws, fsmonitorMark, hookMark, env };
}

const COMMANDS = 'echo b >> a.txt && git status --short && git -c user.email=t@t -c user.name=t commit -q -am second';

describe('git in a model-run command', () => {
  it('the repository is hostile to plain git', async () => {
    const { ws, fsmonitorMark, hookMark } = await hostileRepo();
    execFileSync('bash', ['-c', COMMANDS], { cwd: ws.root });
    expect(existsSync(fsmonitorMark)).toBe(true);
    expect(existsSync(hookMark)).toBe(true);
  });

  it('through the bash tool with a keypress (unconfined): neither fsmonitor nor the hook runs', async () => {
    const { ws, fsmonitorMark, hookMark, env } = await hostileRepo();
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    const out = await bash.execute({ command: COMMANDS }, { ...ws.ctx, keypress: true });
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('M a.txt');
    expect(existsSync(fsmonitorMark)).toBe(false);
    expect(existsSync(hookMark)).toBe(false);
  });

  it.skipIf(!sandbox)('through the bash tool in the sandbox: git status runs no fsmonitor', async () => {
    const { ws, env } = await hostileRepo();
    // The marker must be where the sandbox can write for the test to mean anything: the workspace.
    const mark = path.join(ws.root, 'fsmonitor-ran');
    git(ws.root, 'config', 'core.fsmonitor', `touch ${mark}; false`);
    const { bash } = sandboxedBash(ws, sandbox!, { env });
    const out = await bash.execute({ command: 'echo b >> a.txt && git status --short' }, ws.ctx);
    expect(out.ok, out.content).toBe(true);
    expect(existsSync(mark)).toBe(false);
  });

  it('a bare repository in the workspace is not discovered (git -C some.git …)', async () => {
    const { ws, env } = await hostileRepo();
    const bare = path.join(ws.root, 'vendor.git');
    git(ws.outside, 'init', '-q', '--bare', bare);
    const mark = path.join(ws.outside, 'bare-fsmonitor-ran');
    git(bare, 'config', 'core.fsmonitor', `touch ${mark}`);
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    const out = await bash.execute({ command: 'git -C vendor.git log' }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(out.content).toContain('safe.bareRepository');
    expect(existsSync(mark)).toBe(false);
  });

  it('hooks and prompt commands: git status runs no fsmonitor', async () => {
    const { ws, fsmonitorMark, env } = await hostileRepo();
    writeFileSync(path.join(ws.root, 'a.txt'), 'changed\n');
    const end = await runHookCommand({
      command: 'git status --short',
      cwd: ws.root,
      env,
      stdin: '',
      timeoutMs: 10_000,
    });
    expect(end.exitCode, end.stderr).toBe(0);
    expect(end.stdout).toContain('M a.txt');
    expect(existsSync(fsmonitorMark)).toBe(false);
  });

  it("the user's own GIT_CONFIG_COUNT settings are kept, tole's follow them", async () => {
    const { ws, env } = await hostileRepo();
    const bash = createBashTool({
      workspaceRoot: ws.root,
      env: { ...env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'Someone' },
    });
    const out = await bash.execute(
      { command: 'git config user.name && git config core.hooksPath' },
      { ...ws.ctx, keypress: true },
    );
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('Someone');
    expect(out.content).toContain('/dev/null');
  });
});

describe('withGitGuard', () => {
  it('appends after a valid user count, starts at 0 after a bogus one, and drops GIT_CONFIG_PARAMETERS', () => {
    const kept = withGitGuard({ GIT_CONFIG_COUNT: '2', GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='x'" });
    expect(kept['GIT_CONFIG_KEY_2']).toBe(GIT_GUARD_CONFIG[0]![0]);
    expect(kept['GIT_CONFIG_PARAMETERS']).toBeUndefined();
    expect(Number(kept['GIT_CONFIG_COUNT'])).toBe(2 + GIT_GUARD_CONFIG.length + 1);
    const bogus = withGitGuard({ GIT_CONFIG_COUNT: 'lots' });
    expect(bogus['GIT_CONFIG_KEY_0']).toBe(GIT_GUARD_CONFIG[0]![0]);
  });

  it('leaves the ssh program to GIT_SSH_COMMAND when the user set it', () => {
    const withSsh = withGitGuard({ GIT_SSH_COMMAND: 'ssh -i key' });
    expect(Object.values(withSsh)).not.toContain('core.sshCommand');
    expect(Object.values(withGitGuard({}))).toContain('core.sshCommand');
  });
});
