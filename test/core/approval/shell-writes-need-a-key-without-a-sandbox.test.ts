import { describe, expect, it } from 'vitest';
import { ApprovalPolicy, type ApprovalPolicyOptions } from '../../../src/core/approval/approval-policy';
import type { ApprovalRequest } from '../../../src/core/approval/approver';
import { classifyCommand } from '../../../src/core/approval/command-risk';

function request(command: string, tool = 'bash'): ApprovalRequest {
  const assessed = classifyCommand(command);
  return {
    callId: 'c1',
    tool,
    subject: command,
    input: { command },
    risk: assessed.risk,
    reason: assessed.reason,
    ...(assessed.opaque ? { opaque: true } : {}),
  };
}

function policy(options: Partial<ApprovalPolicyOptions>): ApprovalPolicy {
  return new ApprovalPolicy({ rules: [], yes: false, interactive: false, ...options });
}

/** Write shell commands the classifier does not call opaque: before, --yes ran them with no sandbox. */
const PLAIN_WRITES = ['mkdir out', 'touch a', 'git commit -m x', 'git -C sub status', 'pytest', 'cargo test'];

describe('without a sandbox, a Write shell command needs a key or an exact rule', () => {
  it.each(PLAIN_WRITES)('%s: --yes, a wide rule and a session allowance do not run it', (command) => {
    const call = request(command);
    expect(call.risk).toBe('Write');
    const denied = policy({ yes: true, rules: ['bash:*', 'bash', '*', `bash:${command.split(' ')[0]} *`] }).preDecide(
      call,
    );
    expect(denied).toMatchObject({ approved: false, by: 'headless' });
    const reason = 'reason' in denied ? denied.reason : '';
    expect(reason).toContain('no sandbox confines it here');
    expect(reason).toContain(`--allow 'bash:${command}'`);
    expect(reason).toMatch(/bubblewrap/);
    const interactive = policy({ yes: true, interactive: true, rules: ['bash:*'] });
    interactive.allowForSession('bash');
    expect(interactive.preDecide(call)).toEqual({ ask: true });
  });

  it('an allow rule naming the exact command runs it', () => {
    expect(policy({ rules: ['bash:mkdir out'] }).preDecide(request('mkdir out'))).toEqual({
      approved: true,
      by: 'rule',
      rule: 'bash:mkdir out',
    });
  });

  it('with a sandbox, --yes runs it confined; other tools are not shell commands', () => {
    expect(policy({ yes: true, sandbox: true }).preDecide(request('mkdir out'))).toEqual({ approved: true, by: 'yes' });
    const file: ApprovalRequest = { ...request('x'), tool: 'write_file', subject: 'a.txt', risk: 'Write' };
    expect(policy({ yes: true }).preDecide(file)).toEqual({ approved: true, by: 'yes' });
  });

  it('ReadOnly still runs, and Destructive is still only a keypress', () => {
    expect(policy({}).preDecide(request('ls'))).toEqual({ approved: true, by: 'policy' });
    const lax = policy({ yes: true, sandbox: true, rules: ['bash:*', 'bash:rm -rf x'] });
    expect(lax.preDecide(request('rm -rf x'))).toMatchObject({ approved: false, by: 'headless' });
    expect(() => lax.check(request('rm -rf x'), { approved: true, by: 'yes' })).toThrow(/assert: Destructive/);
  });
});
