import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyTool } from '../../../src/core/tools/tool';
import { eventLog, resultsFor } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

let ran = 0;
const brokenTool: AnyTool = {
  name: 'broken',
  description: 'a tool whose risk check throws',
  inputSchema: z.strictObject({}),
  replay: 'never',
  tier: 'hot',
  declaredRisk: 'per-call',
  assess: () => {
    throw new Error('classifier blew up');
  },
  subject: () => '',
  execute: async () => {
    ran++;
    return { ok: true, content: 'ran' };
  },
};

describe('a tool whose assess throws', () => {
  it('settles the call as an error the model reads, does not run it, and the turn goes on', async () => {
    scripted.server.push(
      { toolCalls: [{ id: 'call_broken', name: 'broken', arguments: '{}' }] },
      { text: ['I could not run it.'] },
    );
    const { agent, store } = scripted.agent({
      extraTools: [brokenTool],
    });

    const result = await agent.runTurn('use the broken tool', new AbortController().signal, eventLog().emit);

    expect(result).toEqual({ outcome: 'done', text: 'I could not run it.' });
    const [settled] = resultsFor(store, 'call_broken');
    expect(settled?.payload.outcome).toBe('error');
    expect(settled?.payload.content).toContain('classifier blew up');
    expect(ran).toBe(0);
  });
});
