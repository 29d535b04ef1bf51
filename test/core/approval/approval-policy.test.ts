import { describe, expect, it } from 'vitest';
import { ApprovalPolicy, suggestRule, type ApprovalPolicyOptions } from '../../../src/core/approval/approval-policy';
import { AllowRuleError, parseRule } from '../../../src/core/approval/allowlist';
import type { ApprovalRequest, Approver, Decision } from '../../../src/core/approval/approver';
import type { Risk } from '../../../src/core/approval/risk';

function request(risk: Risk, subject = 'npm test', tool = 'bash'): ApprovalRequest {
  return { callId: 'c1', tool, subject, input: { command: subject }, risk, reason: `it is ${risk}` };
}

function policy(options: Partial<ApprovalPolicyOptions> = {}): ApprovalPolicy {
  return new ApprovalPolicy({ rules: [], yes: false, interactive: false, ...options });
}

const signal = new AbortController().signal;

describe('ApprovalPolicy.preDecide', () => {
  it('runs ReadOnly calls without asking', () => {
    expect(policy().preDecide(request('ReadOnly', 'ls'))).toEqual({ approved: true, by: 'policy' });
  });

  it('in a sandbox, approves a Write call by an allow rule, then --yes, then a session allowance', () => {
    expect(policy({ rules: ['bash:npm test'], yes: true, sandbox: true }).preDecide(request('Write'))).toEqual({
      approved: true,
      by: 'rule',
      rule: 'bash:npm test',
    });
    expect(policy({ rules: [parseRule('bash:npm t*')], sandbox: true }).preDecide(request('Write'))).toEqual({
      approved: true,
      by: 'rule',
      rule: 'bash:npm t*',
    });
    expect(policy({ yes: true, sandbox: true }).preDecide(request('Write'))).toEqual({ approved: true, by: 'yes' });
    const session = policy({ interactive: true, sandbox: true });
    expect(session.preDecide(request('Write'))).toEqual({ ask: true });
    session.allowForSession('bash');
    expect(session.isAllowedForSession('bash')).toBe(true);
    expect(session.preDecide(request('Write'))).toEqual({ approved: true, by: 'session' });
    expect(session.preDecide(request('Write', 'x', 'write_file'))).toEqual({ ask: true });
  });

  it('headless, denies a Write call no rule covers and names the rule or flag that would allow it', () => {
    const decision = policy().preDecide(request('Write', "echo 'hi' >> log"));
    expect(decision).toMatchObject({ approved: false, by: 'headless' });
    const reason = 'reason' in decision ? decision.reason : '';
    expect(reason).toContain(`--allow 'bash:echo '\\''hi'\\'' >> log'`);
    expect(reason).toContain('--yes');
    expect(reason).toContain('it is Write');
  });

  it('asks about a Destructive call when interactive, whatever the rules and flags say', () => {
    const lax = policy({ rules: ['*', 'bash', 'bash:*', 'bash:rm -rf x'], yes: true, interactive: true });
    lax.allowForSession('bash');
    expect(lax.preDecide(request('Destructive', 'rm -rf x'))).toEqual({ ask: true });
  });

  it('headless, denies a Destructive call even with --yes and a matching rule, and says no flag allows it', () => {
    const lax = policy({ rules: ['*', 'bash:*', 'bash:rm -rf x'], yes: true });
    lax.allowForSession('bash');
    const decision = lax.preDecide(request('Destructive', 'rm -rf x'));
    expect(decision).toMatchObject({ approved: false, by: 'headless' });
    expect('reason' in decision ? decision.reason : '').toMatch(
      /Destructive calls need an interactive keypress, and no flag or --allow rule allows them/,
    );
  });

  it('a session allowance never covers a Destructive call', () => {
    const session = policy({ interactive: true });
    session.allowForSession('bash');
    session.allowForSession('delete_path');
    expect(session.preDecide(request('Destructive', 'rm -rf x'))).toEqual({ ask: true });
    expect(session.preDecide(request('Destructive', 'build', 'delete_path'))).toEqual({ ask: true });
  });

  it('refuses a malformed rule with a clear error', () => {
    expect(() => policy({ rules: ['bash:'] })).toThrow(AllowRuleError);
    expect(() => policy({ rules: [':ls'] })).toThrow(/bad allow rule ":ls": the tool name before ':' is missing/);
  });
});

describe('only an interactive user approves a Destructive call', () => {
  const approvals: Decision[] = [
    { approved: true, by: 'policy' },
    { approved: true, by: 'rule', rule: '*' },
    { approved: true, by: 'yes' },
    { approved: true, by: 'session' },
  ];

  it.each(approvals)('treats approval by $by as a bug', (decision) => {
    expect(() => policy({ interactive: true }).check(request('Destructive'), decision)).toThrow(/assert: Destructive/);
  });

  it('accepts the user, and any denial', () => {
    const interactive = policy({ interactive: true });
    expect(interactive.check(request('Destructive'), { approved: true, by: 'user' })).toEqual({
      approved: true,
      by: 'user',
    });
    expect(interactive.check(request('Destructive'), { approved: false, by: 'hook', reason: 'blocked' }).approved).toBe(
      false,
    );
  });

  it('treats a user approval in a headless session as a bug', () => {
    expect(() => policy().check(request('Destructive'), { approved: true, by: 'user' })).toThrow(/headless/);
  });

  it('decide() asks the approver and checks what it says', async () => {
    const liar: Approver = { decide: async () => ({ approved: true, by: 'yes' }) };
    const honest: Approver = { decide: async () => ({ approved: true, by: 'user' }) };
    const interactive = policy({ interactive: true });
    await expect(interactive.decide(request('Destructive'), liar, signal)).rejects.toThrow(/assert/);
    await expect(interactive.decide(request('Destructive'), honest, signal)).resolves.toEqual({
      approved: true,
      by: 'user',
    });
    await expect(interactive.decide(request('ReadOnly'), undefined, signal)).resolves.toEqual({
      approved: true,
      by: 'policy',
    });
  });
});

describe('suggestRule', () => {
  it('suggests the exact call, or the tool when the call cannot be written as a rule', () => {
    expect(suggestRule({ tool: 'bash', subject: 'npm test' })).toBe('bash:npm test');
    expect(suggestRule({ tool: 'bash', subject: 'a\nb' })).toBe('bash');
    expect(suggestRule({ tool: 'bash', subject: 'x'.repeat(2_000) })).toBe('bash');
    expect(parseRule(suggestRule({ tool: 'write_file', subject: 'src/a.ts' })).glob).toBe('src/a.ts');
  });
});
