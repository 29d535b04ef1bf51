import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnyTool } from '../../../src/core/tools/tool';
import { startChatServer, type ChatServer } from '../../support/chat-server';
import { buildAgent, eventLog, resultsFor, tempDirs, type TempDirs } from '../../support/agent-fixtures';

let server: ChatServer;
let dirs: TempDirs;

beforeEach(async () => {
  server = await startChatServer();
  dirs = tempDirs();
});

afterEach(async () => {
  await server.close();
  dirs.remove();
});

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
    server.push(
      { toolCalls: [{ id: 'call_broken', name: 'broken', arguments: '{}' }] },
      { text: ['I could not run it.'] },
    );
    const { agent, store } = buildAgent({
      baseURL: server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
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
