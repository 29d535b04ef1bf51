import { describe, expect, it } from 'vitest';
import { classifyMcpTool, riskFromHints } from '../../../src/core/mcp/mcp-risk';
import { mcpToolName } from '../../../src/core/mcp/mcp-names';
import { serverEnvironment } from '../../../src/core/mcp/mcp-env';

const trusted = { trustAnnotations: true, mayLower: true };
const untrusted = { trustAnnotations: false, mayLower: true };

describe('MCP tool annotations map onto tiers and replay classes, as the spec reads them', () => {
  it('follows the spec defaults: nothing said is destructive and not idempotent', () => {
    expect(riskFromHints({})).toEqual({ risk: 'Destructive', replay: 'never' });
    expect(riskFromHints({ readOnlyHint: true })).toEqual({ risk: 'ReadOnly', replay: 'idempotent' });
    expect(riskFromHints({ destructiveHint: false })).toEqual({ risk: 'Write', replay: 'never' });
    expect(riskFromHints({ destructiveHint: false, idempotentHint: true })).toEqual({
      risk: 'Write',
      replay: 'idempotent',
    });
    expect(riskFromHints({ destructiveHint: true, idempotentHint: true })).toEqual({
      risk: 'Destructive',
      replay: 'idempotent',
    });
  });

  it('annotations lower nothing unless the user config trusts them', () => {
    expect(classifyMcpTool({ readOnlyHint: true }, untrusted)).toMatchObject({
      risk: 'Destructive',
      replay: 'never',
      reason: expect.stringContaining('trustAnnotations'),
    });
    expect(classifyMcpTool({ readOnlyHint: true }, trusted)).toMatchObject({ risk: 'ReadOnly', replay: 'idempotent' });
    expect(classifyMcpTool(undefined, trusted)).toMatchObject({ risk: 'Destructive', replay: 'never' });
  });

  it('a project config can neither trust annotations nor lower a tier, only raise it', () => {
    const project = { trustAnnotations: true, mayLower: false };
    expect(classifyMcpTool({ readOnlyHint: true }, project)).toMatchObject({ risk: 'Destructive', replay: 'never' });
    expect(
      classifyMcpTool({ readOnlyHint: true }, { ...project, risk: 'ReadOnly', replay: 'idempotent' }),
    ).toMatchObject({ risk: 'Destructive', replay: 'never' });
  });

  it("the user's explicit tier wins either way, and any config can raise one", () => {
    expect(classifyMcpTool({}, { ...untrusted, risk: 'Write', replay: 'idempotent' })).toMatchObject({
      risk: 'Write',
      replay: 'idempotent',
      reason: 'your config sets Write',
    });
    expect(classifyMcpTool({ readOnlyHint: true }, { ...trusted, risk: 'Destructive', replay: 'never' })).toMatchObject(
      { risk: 'Destructive', replay: 'never' },
    );
  });
});

describe('MCP tool names and server environments', () => {
  it('offers server__tool with the parts sanitized, and refuses a name the API would not take', () => {
    expect(mcpToolName('git hub', 'create.issue')).toBe('git_hub__create_issue');
    expect(mcpToolName('s', 'x'.repeat(70))).toBeNull();
  });

  it("gives a server PATH and the like, what its config names, and nothing else of tole's environment", () => {
    const host = { PATH: '/bin', HOME: '/h', OPENAI_API_KEY: 'sk-secret', GITHUB_TOKEN: 'ghp', FN: '() { :; }' };
    expect(serverEnvironment(host, ['GITHUB_TOKEN', 'FN'], { MODE: 'test' })).toEqual({
      PATH: '/bin',
      HOME: '/h',
      GITHUB_TOKEN: 'ghp',
      MODE: 'test',
    });
  });
});
