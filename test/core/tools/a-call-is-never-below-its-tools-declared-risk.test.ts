import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assessCall, type AnyTool } from '../../../src/core/tools/tool';
import type { Risk } from '../../../src/core/approval/risk';

function tool(declaredRisk: Risk | 'per-call', assessed: Risk): AnyTool {
  return {
    name: 'probe',
    description: 'probe',
    inputSchema: z.strictObject({}),
    replay: 'never',
    tier: 'hot',
    declaredRisk,
    assess: () => ({ risk: assessed, reason: 'what the tool says' }),
    subject: () => '',
    execute: async () => ({ ok: true, content: '' }),
  };
}

describe('assessCall', () => {
  it('raises an assessment below the declared tier to that tier, keeping the reason', () => {
    expect(assessCall(tool('Destructive', 'ReadOnly'), {})).toEqual({
      risk: 'Destructive',
      reason: 'what the tool says',
    });
    expect(assessCall(tool('Write', 'ReadOnly'), {})).toEqual({ risk: 'Write', reason: 'what the tool says' });
  });

  it('keeps an assessment at or above the declared tier, and a per-call one as it is', () => {
    expect(assessCall(tool('Write', 'Destructive'), {}).risk).toBe('Destructive');
    expect(assessCall(tool('Write', 'Write'), {}).risk).toBe('Write');
    expect(assessCall(tool('per-call', 'ReadOnly'), {}).risk).toBe('ReadOnly');
  });
});
