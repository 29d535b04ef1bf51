/**
 * With no sandbox, a bash call whose only findings say the command goes where tole's git does not
 * reach (a login shell, ssh, a container, sudo) is shown with that warning whole, and a person's
 * `y` runs it unconfined. Nothing else runs it: not --yes, not an allow rule, not a headless run,
 * not a prefix or an edit; and a finding the box did not show (the repository's config, a command
 * that undoes tole's guard or removes tole's git) keeps it refused, at the box and at the run.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/core/approval/approver';
import { isReachDrop, keyMayAccept } from '../../../src/core/approval/unconfined-vetting';
import { guardDrops } from '../../../src/core/git-guard-drops';
import { withGitGuard } from '../../../src/core/git-guard-env';
import { repositoryGitConfig } from '../../../src/core/git-repo-drivers';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import { entriesOfType, eventLog, resultsFor } from '../../support/agent-fixtures';
import { answering } from '../../support/answering-approver';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

const KEY: Decision = { approved: true, by: 'user', reason: 'approved once at the prompt' };

function bashCall(command: string) {
  return { toolCalls: [{ id: 'c1', name: 'bash', arguments: JSON.stringify({ command }) }] };
}

/** A login shell writing a mark outside the workspace: what a key may accept where there is no sandbox. */
function loginShell(): { readonly mark: string; readonly command: string } {
  const mark = path.join(scripted.dirs.outside, 'reached');
  return { mark, command: `bash -lc 'echo reached > ${mark}'` };
}

async function turn(options: Parameters<typeof scripted.agent>[0], command: string) {
  scripted.server.push(bashCall(command), { text: ['ok'] });
  // The login shells run with a home of the test's own: the machine's profile is not the test's to
  // run (one that waits on a lock another run left, as a version manager's rehash can, stalled them).
  const toolEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: scripted.dirs.outside };
  const { agent, store } = scripted.agent({ toolEnv, ...options });
  await agent.runTurn('run it', new AbortController().signal, eventLog().emit);
  return { store, result: resultsFor(store, 'c1')[0]?.payload };
}

describe('with no sandbox, a warning a key accepts', () => {
  it('is shown whole, and y runs the command unconfined', async () => {
    const { mark, command } = loginShell();
    const { approver, asked } = answering(KEY);
    const { result } = await turn({ approver }, command);
    expect(asked).toHaveLength(1);
    const { vetting, runs } = asked[0]!;
    expect(vetting?.outcome).toBe('warned');
    expect(vetting?.unvouched).toEqual(guardDrops(command));
    expect(vetting?.unvouched.every(isReachDrop)).toBe(true);
    expect(runs).toContain("without tole's git");
    expect(result?.outcome).toBe('ok');
    expect(readFileSync(mark, 'utf8')).toBe('reached\n');
  });

  it('asks about a command that only reads, instead of refusing it unasked', async () => {
    const command = "bash -lc 'echo read-only'";
    const { approver, asked } = answering(KEY);
    const { result } = await turn({ approver }, command);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.vetting?.outcome).toBe('warned');
    expect(result?.outcome).toBe('ok');
    expect(result?.content).toContain('read-only');
  });

  it('shows every finding, past the five a refusal names', async () => {
    const command = 'ssh -V; tmux -V; screen -v; sudo -n true; bash -lc true; zsh -c true; at -l';
    const { approver, asked } = answering({ approved: false, by: 'user', reason: 'denied at the prompt' });
    await turn({ approver }, command);
    const { vetting } = asked[0]!;
    expect(vetting?.outcome).toBe('warned');
    expect(vetting!.unvouched.length).toBeGreaterThan(5);
  });

  const refusedAnswers: [string, Decision][] = [
    ['p (a prefix kept)', { ...KEY, allowsPrefix: ['bash'] }],
    ['e (an edit)', { ...KEY, edited: { subject: 'bash -lc true' } }],
    ['an answer by anything but a key', { approved: true, by: 'session' }],
  ];
  for (const [what, answer] of refusedAnswers)
    it(`is not accepted by ${what}: nothing runs`, async () => {
      const { mark, command } = loginShell();
      const { approver } = answering(answer);
      const { result } = await turn({ approver }, command);
      expect(result?.outcome).toBe('denied');
      expect(existsSync(mark)).toBe(false);
    });
});

describe('where no one is asked, the same command is refused', () => {
  it('headless under --yes, before its intent, saying only a key at the box runs it', async () => {
    const { mark, command } = loginShell();
    const { store, result } = await turn({ policy: { yes: true, interactive: false } }, command);
    expect(result?.outcome).toBe('denied');
    expect(result?.content).toContain("only the user's own key at tole's approval box runs it");
    expect(entriesOfType(store, 'tool_intent')).toEqual([]);
    expect(existsSync(mark)).toBe(false);
  });

  it('under an allow rule naming the exact command, headless or not', async () => {
    for (const interactive of [false, true]) {
      const { mark, command } = loginShell();
      const { approver, asked } = answering(KEY);
      const { result } = await turn(
        { ...(interactive ? { approver } : {}), policy: { rules: [`bash:${command}`], interactive } },
        command,
      );
      expect(asked).toEqual([]);
      expect(result?.outcome).toBe('denied');
      expect(existsSync(mark)).toBe(false);
    }
  });
});

describe('a finding the key may not accept keeps the call refused', () => {
  const others: [string, (mark: string) => string][] = [
    ['a command that clears the environment', (mark) => `bash -lc 'echo x > ${mark}'; env -i true`],
    ['a removal of tole’s git', (mark) => `bash -lc 'echo x > ${mark}'; rm -f "$(command -v git)"`],
    ['a git run by its path', (mark) => `bash -lc 'echo x > ${mark}'; /usr/bin/git --version`],
    ['a PATH of its own', (mark) => `PATH=/usr/bin bash -lc 'echo x > ${mark}'`],
  ];
  for (const [what, make] of others)
    it(`beside a warning: ${what}`, async () => {
      const mark = path.join(scripted.dirs.outside, 'reached');
      const { approver, asked } = answering(KEY);
      const { result } = await turn({ approver }, make(mark));
      expect(asked[0]!.vetting?.outcome).toBe('refused');
      expect(result?.outcome).toBe('denied');
      expect(existsSync(mark)).toBe(false);
    });

  it("the repository's config naming a program (the user can vouch with trustedGitKeys)", async () => {
    const { root, outside } = scripted.dirs;
    execFileSync('git', ['init', '-q'], { cwd: root });
    appendFileSync(path.join(root, '.git', 'config'), `[gitflow "path"]\n\thooks = ${outside}\n`);
    const { mark, command } = loginShell();
    const { approver, asked } = answering(KEY);
    const { result } = await turn({ approver }, command);
    expect(asked[0]!.vetting?.outcome).toBe('refused');
    expect(result?.outcome).toBe('denied');
    expect(existsSync(mark)).toBe(false);
  });

  it('a config key added after the box: the run refuses what the key never saw', async () => {
    const { root, outside } = scripted.dirs;
    execFileSync('git', ['init', '-q'], { cwd: root });
    const { mark, command } = loginShell();
    const { approver, asked } = answering(KEY, () =>
      appendFileSync(path.join(root, '.git', 'config'), `[gitflow "path"]\n\thooks = ${outside}\n`),
    );
    const { result } = await turn({ approver }, command);
    expect(asked[0]!.vetting?.outcome).toBe('warned');
    expect(result?.outcome).toBe('error');
    expect(result?.content).toContain('gitflow.path.hooks');
    expect(existsSync(mark)).toBe(false);
  });
});

describe('the bash tool runs a warned command only with the key and the warning it accepted', () => {
  it('refuses without a key, or without every line it accepted', async () => {
    const { root } = scripted.dirs;
    const { mark, command } = loginShell();
    const drops = guardDrops(command);
    const bash = createBashTool({ workspaceRoot: root, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
    const ctx = { workspaceRoot: root, signal: new AbortController().signal, callId: 'c' };
    for (const run of [
      { ...ctx, accepted: drops },
      { ...ctx, keypress: true },
      { ...ctx, keypress: true, accepted: [] },
      { ...ctx, keypress: true, accepted: drops.map((line) => `${line} `) },
    ]) {
      const out = await bash.execute({ command }, run);
      expect(out.ok).toBe(false);
      expect(existsSync(mark)).toBe(false);
    }
    const out = await bash.execute({ command }, { ...ctx, keypress: true, accepted: drops });
    expect(out.ok).toBe(true);
    expect(existsSync(mark)).toBe(true);
  });

  it("refuses a repository's finding a key was handed with the command's, which the config read keeps apart", async () => {
    const { root, outside } = scripted.dirs;
    execFileSync('git', ['init', '-q'], { cwd: root });
    appendFileSync(path.join(root, '.git', 'config'), `[gitflow "path"]\n\thooks = ${outside}\n`);
    const { mark, command } = loginShell();
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    const read = await repositoryGitConfig(root, withGitGuard(env), command);
    expect(read.fromCommand).toEqual(guardDrops(command));
    expect(read.unvouched.slice(0, read.fromCommand.length)).toEqual(read.fromCommand);
    const fromRepository = read.unvouched.slice(read.fromCommand.length);
    expect(fromRepository.join()).toContain('gitflow.path.hooks');
    const bash = createBashTool({ workspaceRoot: root, env });
    const ctx = { workspaceRoot: root, signal: new AbortController().signal, callId: 'c', keypress: true };
    const out = await bash.execute({ command }, { ...ctx, accepted: read.unvouched });
    expect(out.ok).toBe(false);
    expect(out.content).toContain('gitflow.path.hooks');
    expect(existsSync(mark)).toBe(false);
  });
});

describe('what a key may accept, read from the command alone', () => {
  const accepted = [
    'ssh host uptime',
    'sudo -i git diff',
    "tmux run-shell 'git diff'",
    'eval "bash -lc \'git diff\'"',
    "bash -lc 'git diff' # ; env -i",
    "bash --rcfile /tmp/x -c 'git diff'",
    "python3 -c \"import subprocess; subprocess.run(['bash','-lc','git diff'])\"",
    'kubectl exec p -- ls',
    'screen -ls',
    'at -l',
  ];
  it.each(accepted)('%s: a warning', (command) => {
    expect(keyMayAccept(guardDrops(command))).toBe(true);
  });

  // Each goes where tole's git does not reach and also undoes the guard (or removes tole's git)
  // in what tole can read: the second finding keeps it refused.
  const refused = [
    "bash -lc 'git -c core.hooksPath=.git/hooks commit -m x'",
    'sudo env -i git diff',
    'ssh localhost "env -i git diff"',
    "bash -l -c 'unset GIT_CONFIG_COUNT; git diff'",
    "zsh -c 'rm -f $(command -v git)'",
    'bash -lc "$(printf \'env -i git diff\')"',
    'g=$(type -ap git | tail -1); bash -lc "$g diff"',
    "bash -lc 'PATH=/usr/bin git diff'",
    "bash -lc '/usr/bin/git diff'",
    'ssh h git diff; HOME=/tmp git diff',
    "bash -lc 'export GIT_CONFIG_GLOBAL=/tmp/x; git diff'",
    "bash -lc 'command -p git diff'",
    "python3 -c \"import os,subprocess; os.environ.pop('GIT_CONFIG_COUNT'); subprocess.run(['ssh','h'])\"",
    's=ssh; $s h; e=env; $e -i git diff',
    "bash -lc 'g=$(type -ap git | sed -n 2p); $g diff'",
  ];
  it.each(refused)('%s: refused', (command) => {
    const drops = guardDrops(command);
    expect(drops.some(isReachDrop)).toBe(true);
    expect(keyMayAccept(drops)).toBe(false);
  });
});
