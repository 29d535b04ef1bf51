import { describe, expect, it } from 'vitest';
import { ApprovalPolicy, type ApprovalPolicyOptions } from '../../../src/core/approval/approval-policy';
import type { ApprovalRequest } from '../../../src/core/approval/approver';
import { classifyCommand } from '../../../src/core/approval/command-risk';

function request(command: string, extra: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const assessed = classifyCommand(command);
  return {
    callId: 'c1',
    tool: 'bash',
    subject: command,
    input: { command },
    risk: assessed.risk,
    reason: assessed.reason,
    ...(assessed.opaque ? { opaque: true } : {}),
    ...extra,
  };
}

function policy(options: Partial<ApprovalPolicyOptions>): ApprovalPolicy {
  return new ApprovalPolicy({ rules: [], yes: false, interactive: false, ...options });
}

const OPAQUE = [
  `python3 -c "import shutil; shutil.rmtree('src')"`,
  'node -e "1"',
  "perl -e 'unlink glob q(*)'",
  `awk 'BEGIN{system("rm x")}'`,
  's=1; sed -i s/a/b/ f',
  'make clean',
  './script.sh',
  'npm test',
];

describe('code tole cannot see into', () => {
  it.each(OPAQUE)('%s is Write and opaque', (command) => {
    const r = request(command);
    expect(r.risk).toBe('Write');
    expect(r.opaque).toBe(true);
  });

  it('plain commands are not opaque', () => {
    for (const command of ['mkdir out', 'touch a', 'git commit -m x', 'sed s/a/b/ f'])
      expect(request(command).opaque, command).toBeUndefined();
  });

  it('without a sandbox, --yes, a wide rule and a session allowance do not run it; a rule naming the exact command does', () => {
    const call = request('make clean');
    const denied = policy({ yes: true, rules: ['bash:*', 'bash:make *'] }).preDecide(call);
    expect(denied).toMatchObject({ approved: false, by: 'headless' });
    expect('reason' in denied ? denied.reason : '').toMatch(
      /needs a keypress: it runs code tole cannot see into.*--allow 'bash:make clean'/,
    );
    expect(policy({ rules: ['bash:make clean'] }).preDecide(call)).toEqual({
      approved: true,
      by: 'rule',
      rule: 'bash:make clean',
    });
    const interactive = policy({ yes: true, interactive: true });
    interactive.allowForSession('bash');
    expect(interactive.preDecide(call)).toEqual({ ask: true });
  });

  it('with a sandbox, --yes runs it (confined)', () => {
    expect(policy({ yes: true, sandbox: true }).preDecide(request('make clean'))).toEqual({
      approved: true,
      by: 'yes',
    });
  });

  it('a call asking to run outside the sandbox needs a keypress whatever its tier or the flags', () => {
    const p = policy({ yes: true, rules: ['bash:ls'], sandbox: true });
    expect(p.preDecide(request('ls', { outsideSandbox: true }))).toMatchObject({ approved: false, by: 'headless' });
    expect(
      policy({ yes: true, sandbox: true, interactive: true }).preDecide(request('mkdir x', { outsideSandbox: true })),
    ).toEqual({ ask: true });
  });

  it('the prompt says where a shell call approved by a key runs', () => {
    expect(policy({ sandbox: true, interactive: true }).describeRun(request('make'))).toMatch(
      /unconfined.*run in the sandbox/,
    );
    expect(policy({ interactive: true }).describeRun(request('make'))).toMatch(/cannot see into.*no sandbox/);
    expect(policy({ interactive: true }).describeRun({ ...request('x'), tool: 'write_file' })).toBeUndefined();
  });
});
