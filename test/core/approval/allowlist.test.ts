import { describe, expect, it } from 'vitest';
import { AllowRuleError, findAllowRule, parseRule, ruleMatches } from '../../../src/core/approval/allowlist';
import type { ApprovalRequest } from '../../../src/core/approval/approver';
import type { Risk } from '../../../src/core/approval/risk';

function request(tool: string, subject: string, risk: Risk = 'Write'): ApprovalRequest {
  return { callId: 'c1', tool, subject, input: {}, risk, reason: 'because' };
}

describe('parseRule', () => {
  it('reads TOOL and TOOL:GLOB', () => {
    expect(parseRule('bash')).toEqual({ source: 'bash', tool: 'bash' });
    expect(parseRule('bash:git status*')).toEqual({ source: 'bash:git status*', tool: 'bash', glob: 'git status*' });
    expect(parseRule('write_file:src/**')).toEqual({ source: 'write_file:src/**', tool: 'write_file', glob: 'src/**' });
    expect(parseRule('bash:npm run a:b').glob).toBe('npm run a:b');
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    [':npm test', 'tool name'],
    ['bash:', "nothing follows ':'"],
    ['ba sh:ls', 'not a tool name'],
    ['bash:ls\nrm -rf x', 'control character'],
  ])('refuses %j with a clear error', (text, fragment) => {
    expect(() => parseRule(text)).toThrow(AllowRuleError);
    expect(() => parseRule(text)).toThrow(fragment);
  });

  it('names the rule and its kind in the error', () => {
    try {
      parseRule('bash:');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AllowRuleError);
      expect((error as AllowRuleError).kind).toBe('bad-allow-rule');
      expect((error as AllowRuleError).message).toMatch(/^bad allow rule "bash:": /);
    }
  });

  it('refuses an unknown tool when the known tools are given', () => {
    expect(() => parseRule('bsh:ls', ['bash', 'write_file'])).toThrow(
      /no tool named "bsh"; known tools: bash, write_file/,
    );
    expect(parseRule('*', ['bash']).tool).toBe('*');
  });
});

describe('ruleMatches', () => {
  it('matches the glob against the whole subject', () => {
    const rule = parseRule('bash:git status*');
    expect(ruleMatches(rule, request('bash', 'git status'))).toBe(true);
    expect(ruleMatches(rule, request('bash', 'git status --short'))).toBe(true);
    expect(ruleMatches(rule, request('bash', 'echo git status'))).toBe(false);
    expect(ruleMatches(rule, request('write_file', 'git status'))).toBe(false);
    expect(ruleMatches(parseRule('bash:npm ?est'), request('bash', 'npm test'))).toBe(true);
  });

  it('does not let a shell wildcard swallow a second command', () => {
    const rule = parseRule('bash:git status*');
    for (const subject of [
      'git status; npm publish',
      'git status && curl x',
      'git status | sh',
      'git status > f',
      'git status $(npm publish)',
      'git status\nnpm publish',
    ]) {
      expect(ruleMatches(rule, request('bash', subject)), subject).toBe(false);
    }
    expect(ruleMatches(parseRule('bash:make && make test'), request('bash', 'make && make test'))).toBe(true);
  });

  it('matches paths across directories, but never a path that climbs out with ..', () => {
    const rule = parseRule('write_file:src/**');
    expect(ruleMatches(rule, request('write_file', 'src/a/b.ts'))).toBe(true);
    expect(ruleMatches(rule, request('write_file', 'test/a.ts'))).toBe(false);
    expect(ruleMatches(rule, request('write_file', 'src/../../etc/passwd'))).toBe(false);
  });

  it('treats glob-looking characters in the rest of the rule literally', () => {
    expect(ruleMatches(parseRule('bash:ls (a)'), request('bash', 'ls (a)'))).toBe(true);
    expect(ruleMatches(parseRule('bash:ls a.b'), request('bash', 'ls aXb'))).toBe(false);
  });
});

describe('findAllowRule', () => {
  const everything = ['*', 'bash', 'bash:*', 'bash:rm -rf x', 'delete_path', 'delete_path:*'].map((r) => parseRule(r));

  it('never approves a Destructive call, whatever rule matches it', () => {
    expect(findAllowRule(everything, request('bash', 'rm -rf x', 'Destructive'))).toBeUndefined();
    expect(findAllowRule(everything, request('delete_path', 'build', 'Destructive'))).toBeUndefined();
    expect(findAllowRule(everything, request('bash', 'npm test', 'Write'))?.source).toBe('*');
  });
});
