/**
 * A short conversation cannot be compacted at any context window, so its model calls do not wait
 * for the server to be asked for the window (up to four HTTP questions on a fresh session): the
 * first prompt goes to the model at once, and the window is asked once that call is over, for the
 * turns that could need it. A conversation long enough to compact still asks before its call.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildAgent, tempDirs, type TempDirs } from '../../support/agent-fixtures';
import { startChatServer, type ChatServer } from '../../support/chat-server';

const servers: ChatServer[] = [];
const dirs: TempDirs[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const d of dirs) d.remove();
});

/** A vLLM-like server: its model list says the window. */
async function serve(): Promise<ChatServer> {
  const server = await startChatServer({
    models: [{ id: 'qwen', object: 'model', created: 1733000000, owned_by: 'vllm', max_model_len: 32768 }],
  });
  servers.push(server);
  return server;
}

function agentOn(server: ChatServer, compaction: { threshold: number; tailMessages?: number }) {
  const d = tempDirs('tole-window-later-');
  dirs.push(d);
  return buildAgent({
    baseURL: server.url,
    sessionsDir: d.sessions,
    workspaceRoot: d.root,
    model: 'qwen',
    deps: { compaction },
  });
}

const asked = (server: ChatServer): string[] => server.requests.map((r) => `${r.method} ${r.path}`);

describe('the context window and the first model calls', () => {
  it('the first prompt is sent before the window is asked; the window is learned once, after it', async () => {
    const server = await serve();
    const { agent, store } = agentOn(server, { threshold: 0.5 });
    const signal = new AbortController().signal;
    await agent.runTurn('hello', signal, () => {});
    expect(asked(server)[0]).toBe('POST /v1/chat/completions');
    expect(await agent.contextWindowOf(signal)).toEqual({ tokens: 32768, source: 'GET /v1/models' });
    expect(agent.knownWindow).toEqual({ tokens: 32768, source: 'GET /v1/models' });
    await agent.runTurn('again', signal, () => {});
    expect(asked(server)).toEqual(['POST /v1/chat/completions', 'GET /v1/models', 'POST /v1/chat/completions']);
    store.close();
  });

  it('a conversation long enough to summarize asks for the window before its call', async () => {
    const server = await serve();
    // A tail of one message: with four messages before it, a summary is possible at any window.
    const { agent, store } = agentOn(server, { threshold: 0.5, tailMessages: 1 });
    const signal = new AbortController().signal;
    await agent.runTurn('one', signal, () => {});
    // The window asked after the first call has come back before the second prompt (the order below is fixed).
    await agent.contextWindowOf(signal);
    await agent.runTurn('two', signal, () => {});
    // Another model: its window is not known yet, and the conversation could now be summarized.
    agent.model = 'qwen-b';
    await agent.runTurn('three', signal, () => {});
    expect(asked(server)).toEqual([
      'POST /v1/chat/completions',
      'GET /v1/models',
      'POST /v1/chat/completions',
      'GET /v1/models',
      'GET /props',
      'POST /api/show',
      'GET /api/v0/models/qwen-b',
      'POST /v1/chat/completions',
    ]);
    store.close();
  });
});
