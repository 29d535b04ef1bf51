import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../../src/core/clock';
import { OllamaProvider } from '../../../../src/core/provider/ollama/ollama-provider';
import type { AgentDeps } from '../../../../src/core/session/agent-deps';
import {
  buildAgent,
  entriesOfType,
  eventLog,
  ledger,
  noSleep,
  resultsFor,
  tempDirs,
  type TempDirs,
} from '../../../support/agent-fixtures';
import { OLLAMA_DEFAULT_NUM_CTX, type OllamaServer, startOllamaServer } from '../../../support/ollama-server';

let server: OllamaServer;
let dirs: TempDirs;

beforeEach(() => {
  dirs = tempDirs('tole-ollama-');
});

afterEach(async () => {
  await server?.close();
  dirs.remove();
});

function agentOn(url: string, deps: Partial<AgentDeps> = {}, maxAttempts = 3) {
  const provider = new OllamaProvider({
    baseURL: url,
    defaultModel: 'llama3.1',
    random: seededRandom(7),
    clock: systemClock,
    sleep: noSleep,
    retry: { jitter: 'none', maxAttempts },
  });
  return buildAgent({
    baseURL: url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    model: 'llama3.1',
    deps: { provider, ...deps },
  });
}

describe('the ollama kind through the turn loop', () => {
  it('runs a tool call round trip over /api/chat: the call recorded, its result sent back named, the answer streamed', async () => {
    writeFileSync(join(dirs.root, 'notes.txt'), 'two\nlines\n');
    server = await startOllamaServer({
      trainedContextLength: 8192,
      replies: [
        { thinking: 'I should read it.', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { text: ['The file ', 'has two lines.'] },
      ],
    });
    const { agent, store } = agentOn(server.url);
    const log = eventLog();

    const result = await agent.runTurn('what is in notes.txt?', new AbortController().signal, log.emit);

    expect(result).toEqual({ outcome: 'done', text: 'The file has two lines.' });
    const [intent] = entriesOfType(store, 'tool_intent');
    expect(intent!.payload).toMatchObject({ tool: 'read_file' });
    expect(resultsFor(store, intent!.payload.callId)[0]!.payload.outcome).toBe('ok');
    const chats = server.chats();
    expect(chats).toHaveLength(2);
    const second = chats[1]!.messages as { role: string; content: string; tool_name?: string }[];
    const toolMessage = second.find((m) => m.role === 'tool');
    expect(toolMessage?.tool_name).toBe('read_file');
    expect(toolMessage?.content).toContain('two');
    expect(second.find((m) => m.role === 'assistant')).toMatchObject({
      tool_calls: [{ function: { name: 'read_file', arguments: { path: 'notes.txt' } } }],
    });
    expect(log.events.filter((e) => e.type === 'reasoning').map((e) => (e as { delta: string }).delta)).toEqual([
      'I should read it.',
    ]);
    // Ollama's counts are the ledger's.
    const rows = ledger(store).filter((row) => row.outcome === 'ok');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.inputTokens).toBeGreaterThan(0);
  });

  it('sends num_ctx: the window /api/show gives, or the one the config fixes; without it Ollama would cut the prompt', async () => {
    server = await startOllamaServer({ parameterNumCtx: 16_384 });
    const learned = agentOn(server.url);
    await learned.agent.runTurn('x'.repeat(4 * 4000), new AbortController().signal, () => undefined);
    const [first] = server.chats();
    expect(first!.options).toMatchObject({ num_ctx: 16_384 });
    // The stand-in counts what a server running at num_ctx evaluates: the whole prompt, not the default 2048.
    expect(ledger(learned.store).find((r) => r.outcome === 'ok')!.inputTokens).toBeGreaterThan(OLLAMA_DEFAULT_NUM_CTX);

    const fixed = agentOn(server.url, { contextWindowTokens: 40_000, compaction: { contextWindowTokens: 40_000 } });
    await fixed.agent.runTurn('hello', new AbortController().signal, () => undefined);
    expect(server.chats()[1]!.options).toMatchObject({ num_ctx: 40_000 });
  });

  it('maps a 429 to a rate limit that is retried, and a context overflow to the shared kind', async () => {
    server = await startOllamaServer({
      replies: [
        { error: { status: 429, message: 'too many requests', headers: { 'retry-after': '2' } } },
        { text: 'fine' },
      ],
    });
    const { agent, store } = agentOn(server.url);
    const done = await agent.runTurn('hi', new AbortController().signal, () => undefined);
    expect(done).toEqual({ outcome: 'done', text: 'fine' });
    const rows = ledger(store);
    expect(rows.map((r) => r.outcome)).toEqual(['rate_limit', 'ok']);

    server.push(
      { error: { status: 400, message: 'the input length exceeds the context length' } },
      { error: { status: 400, message: 'the input length exceeds the context length' } },
    );
    const log = eventLog();
    const overflow = await agent.runTurn('again', new AbortController().signal, log.emit);
    expect(overflow.outcome).toBe('error');
    expect(log.events.find((e) => e.type === 'error')).toMatchObject({ kind: 'context_overflow' });
  });

  it('names the model to pull when Ollama does not have it, and retries an error line inside the stream', async () => {
    server = await startOllamaServer({ models: ['qwen3'] });
    const missing = agentOn(server.url);
    const log = eventLog();
    await missing.agent.runTurn('hi', new AbortController().signal, log.emit);
    const error = log.events.find((e) => e.type === 'error') as { kind: string; hint: string };
    expect(error.kind).toBe('not_found');
    expect(error.hint).toContain('ollama pull llama3.1');

    await server.close();
    server = await startOllamaServer({
      replies: [
        { text: ['part', 'more'], errorLineAfter: { lines: 1, message: 'model runner has unexpectedly stopped' } },
      ],
    });
    const crashed = agentOn(server.url);
    const events = eventLog();
    const result = await crashed.agent.runTurn('hi', new AbortController().signal, events.emit);
    expect(result).toEqual({ outcome: 'done', text: 'echo: hi' });
    expect(events.events.map((e) => e.type)).toContain('discard');
    expect(ledger(crashed.store).map((r) => r.outcome)).toEqual(['transient', 'ok']);
  });

  it('takes a base URL given with /v1 (the OpenAI-compatible path) as the server root', async () => {
    server = await startOllamaServer();
    const { agent } = agentOn(`${server.url}/v1`);
    const result = await agent.runTurn('hi', new AbortController().signal, () => undefined);
    expect(result).toEqual({ outcome: 'done', text: 'echo: hi' });
    expect(server.requests.map((r) => r.path)).toContain('/api/chat');
  });

  it('names a web page answering in place of Ollama once, without retrying it', async () => {
    server = await startOllamaServer({ replies: [{ htmlPage: true }] });
    const { agent, store } = agentOn(server.url);
    const log = eventLog();
    await agent.runTurn('hi', new AbortController().signal, log.emit);
    expect(log.events.find((e) => e.type === 'error')).toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('text/html'),
    });
    expect(ledger(store).map((r) => r.outcome)).toEqual(['bad_request']);
  });
});
