/**
 * A bash call that would run unconfined (approved by a key, or anywhere without a sandbox) is
 * vetted before the user is asked: what tole cannot vouch for in the repository's git config is
 * in the approval request, a key then approves it only to run in the sandbox, and with no
 * sandbox nothing runs whatever the key; headless, the call is denied before its intent with the
 * same words. The run still checks again: a key added after the box refuses the run.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../../src/core/approval/approval-policy';
import type { Decision } from '../../../src/core/approval/approver';
import { exportLeaf, exportMarkdown } from '../../../src/core/session/export';
import { builtinTools } from '../../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { detectSandbox } from '../../../src/core/tools/sandbox';
import { entriesOfType, eventLog, resultsFor } from '../../support/agent-fixtures';
import { answering } from '../../support/answering-approver';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/**
 * A nested repository at vendor/x whose config includes cfg.inc, a file of its work tree that
 * does not exist yet: a command can write a filter into it, which git then runs.
 */
function nestedRepository(): { readonly mark: string; readonly command: string } {
  const { root, outside } = scripted.dirs;
  const nested = path.join(root, 'vendor', 'x');
  mkdirSync(nested, { recursive: true });
  git(nested, 'init', '-q');
  appendFileSync(path.join(nested, '.git', 'config'), '[include]\n\tpath = ../cfg.inc\n');
  writeFileSync(path.join(nested, 'f'), 'one\n');
  const mark = path.join(outside, 'filter-ran');
  const command =
    `cd vendor/x && printf '[filter "y"]\\n\\tclean = touch ${mark}; cat\\n' > cfg.inc && ` +
    `echo '* filter=y' > .gitattributes && git add f`;
  return { mark, command };
}

/** Git itself runs the program the command brings in: what tole must not let run unconfined. */
function gitRunsIt(repo: { readonly mark: string; readonly command: string }): void {
  const { root } = scripted.dirs;
  execFileSync('bash', ['-c', repo.command], { cwd: root, stdio: 'ignore' });
  expect(existsSync(repo.mark)).toBe(true);
  rmSync(repo.mark);
  rmSync(path.join(root, 'vendor', 'x', 'cfg.inc'));
  rmSync(path.join(root, 'vendor', 'x', '.gitattributes'));
  git(path.join(root, 'vendor', 'x'), 'rm', '-qf', '--cached', 'f');
}

const KEY: Decision = { approved: true, by: 'user', reason: 'approved once at the prompt' };

function bashCall(command: string, more: Record<string, unknown> = {}) {
  return { toolCalls: [{ id: 'c1', name: 'bash', arguments: JSON.stringify({ command, ...more }) }] };
}

describe('a call that would run unconfined is vetted before the box', () => {
  it('with no sandbox, the box says it cannot run and why; whatever the key, nothing runs', async () => {
    const repo = nestedRepository();
    gitRunsIt(repo);
    scripted.server.push(bashCall(repo.command), { text: ['ok'] });
    const { approver, asked } = answering(KEY);
    const { agent, store } = scripted.agent({ approver });
    await agent.runTurn('add it', new AbortController().signal, eventLog().emit);
    expect(asked).toHaveLength(1);
    const [request] = asked;
    expect(request!.vetting?.outcome).toBe('refused');
    expect(request!.vetting?.unvouched.join('\n')).toContain('include.path');
    expect(request!.vetting?.unvouched.join('\n')).toContain('cfg.inc');
    expect(request!.runs).toContain('it is refused: there is no sandbox here');
    const [result] = resultsFor(store, 'c1');
    expect(result?.payload.outcome).toBe('denied');
    expect(result?.payload.content).toContain('it is refused: there is no sandbox here');
    expect(result?.payload.content).toContain('trustedGitKeys');
    expect(existsSync(repo.mark)).toBe(false);
  });

  it('headless, a call an exact rule allows is denied before its intent, with the same words', async () => {
    nestedRepository();
    const command = 'cd vendor/x && git add f';
    scripted.server.push(bashCall(command), { text: ['ok'] });
    const { agent, store } = scripted.agent({ policy: { rules: [`bash:${command}`], interactive: false } });
    await agent.runTurn('add it', new AbortController().signal, eventLog().emit);
    const [result] = resultsFor(store, 'c1');
    expect(result?.payload.outcome).toBe('denied');
    expect(result?.payload.content).toContain('git config: include.path');
    expect(result?.payload.content).toContain('it is refused: there is no sandbox here');
    expect(entriesOfType(store, 'tool_intent')).toEqual([]);
  });

  it('headless, a Write call needing a key is denied saying what a key could not get past', async () => {
    const repo = nestedRepository();
    scripted.server.push(bashCall(repo.command), { text: ['ok'] });
    const { agent, store } = scripted.agent({ policy: { yes: true, interactive: false } });
    await agent.runTurn('add it', new AbortController().signal, eventLog().emit);
    const [result] = resultsFor(store, 'c1');
    expect(result?.payload.content).toContain('it is refused: there is no sandbox here');
    expect(result?.payload.content).not.toContain('approve it with a key');
    expect(existsSync(repo.mark)).toBe(false);
  });

  it('a key added to the config after the box still keeps the command from running unconfined', async () => {
    const { root, outside } = scripted.dirs;
    git(root, 'init', '-q');
    const mark = path.join(outside, 'ran');
    const command = `touch ${mark}`;
    scripted.server.push(bashCall(command), { text: ['ok'] });
    const { approver, asked } = answering(KEY, () =>
      appendFileSync(path.join(root, '.git', 'config'), `[gitflow "path"]\n\thooks = ${outside}\n`),
    );
    const { agent, store } = scripted.agent({ approver });
    await agent.runTurn('touch', new AbortController().signal, eventLog().emit);
    expect(asked[0]!.vetting).toBeUndefined();
    const [result] = resultsFor(store, 'c1');
    expect(result?.payload.outcome).toBe('error');
    expect(result?.payload.content).toContain('gitflow.path.hooks (in .git/config)');
    expect(existsSync(mark)).toBe(false);
  });

  const sandbox = detectSandbox(process.platform, process.env['PATH']);
  it.skipIf(!sandbox)('where a sandbox exists, the key approves it to run confined, and it runs there', async () => {
    const repo = nestedRepository();
    const { root, outside, parent } = scripted.dirs;
    const tempDir = path.join(parent, 'session-tmp');
    mkdirSync(tempDir, { mode: 0o700 });
    const tools = ToolRegistry.create({ interactiveApprover: true });
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: outside };
    const policy = { workspaceRoot: root, tempDir, network: false };
    for (const tool of builtinTools({
      workspaceRoot: root,
      interactiveApprover: true,
      env,
      sandbox: { sandbox: sandbox!, policy },
    }))
      tools.register(tool);
    const escaped = path.join(outside, 'escaped');
    const command = `cd vendor/x && touch inside; touch ${escaped}`;
    scripted.server.push(bashCall(command, { outside_sandbox: true }), { text: ['ok'] });
    const { approver, asked } = answering(KEY);
    const { agent, store } = scripted.agent({
      approver,
      deps: { tools, policy: new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox: true }) },
    });
    await agent.runTurn('touch', new AbortController().signal, eventLog().emit);
    expect(asked[0]!.vetting?.outcome).toBe('confined');
    expect(asked[0]!.runs).toBe('approved, this command runs only in the sandbox');
    const [approval] = entriesOfType(store, 'approval');
    expect(approval?.payload.decision).toMatchObject({ approved: true, by: 'user', confined: true });
    expect(exportMarkdown(store, exportLeaf(store, {}))).toContain('approved by user* · to run in the sandbox');
    const [result] = resultsFor(store, 'c1');
    expect(result?.payload.content).not.toContain('did not run this command outside its sandbox');
    expect(existsSync(path.join(root, 'vendor', 'x', 'inside'))).toBe(true);
    expect(existsSync(escaped)).toBe(false);
    expect(existsSync(repo.mark)).toBe(false);
  });
});
