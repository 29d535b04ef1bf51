import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../../src/core/clock';
import { GeminiProvider } from '../../../../src/core/provider/gemini/gemini-provider';
import { costUsdMicros } from '../../../../src/core/usage/pricing';
import {
  buildAgent,
  entriesOfType,
  eventLog,
  ledger,
  noSleep,
  onlySessionFile,
  resultsFor,
  tempDirs,
  type TempDirs,
} from '../../../support/agent-fixtures';
import { GEMINI_TEST_KEY, type GeminiServer, startGeminiServer } from '../../../support/gemini-server';

let server: GeminiServer;
let dirs: TempDirs;

beforeEach(() => {
  dirs = tempDirs('tole-gemini-');
});

afterEach(async () => {
  await server?.close();
  dirs.remove();
});

function agentOn(url: string, apiKey = GEMINI_TEST_KEY, model = 'gemini-2.5-flash', sessionPath?: string) {
  const provider = new GeminiProvider({
    baseURL: url,
    apiKey,
    defaultModel: 'gemini-2.5-flash',
    random: seededRandom(7),
    clock: systemClock,
    sleep: noSleep,
    retry: { jitter: 'none', maxAttempts: 3 },
  });
  return {
    provider,
    ...buildAgent({
      baseURL: url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      model,
      deps: { provider },
      ...(sessionPath ? { sessionPath } : {}),
    }),
  };
}

describe('the gemini kind through the turn loop', () => {
  it('runs a function call round trip: the call recorded, its functionResponse sent back by name in a user turn', async () => {
    writeFileSync(join(dirs.root, 'notes.txt'), 'two\nlines\n');
    server = await startGeminiServer({
      replies: [
        { thoughts: 'Read it first.', calls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
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
    const [first, second] = server.generations();
    expect(first!.systemInstruction).toEqual({ parts: [{ text: 'You are tole, under test.' }] });
    expect(
      (first!.tools as { functionDeclarations: { name: string }[] }[])[0]!.functionDeclarations.map((d) => d.name),
    ).toContain('read_file');
    const contents = second!.contents as { role: string; parts: Record<string, unknown>[] }[];
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1]!.parts).toEqual([{ functionCall: { name: 'read_file', args: { path: 'notes.txt' } } }]);
    const response = contents[2]!.parts[0] as { functionResponse: { name: string; response: { output: string } } };
    expect(response.functionResponse.name).toBe('read_file');
    expect(response.functionResponse.response.output).toContain('two');
    expect(server.requests.every((r) => r.headers['x-goog-api-key'] === GEMINI_TEST_KEY)).toBe(true);
    expect(server.requests.every((r) => r.query === '?alt=sse')).toBe(true);
  });

  it('records the cached part of the prompt apart and prices it at the cached rate', async () => {
    server = await startGeminiServer();
    const { agent, store } = agentOn(server.url);
    const long = 'context '.repeat(1000);
    await agent.runTurn(long, new AbortController().signal, () => undefined);
    await agent.runTurn('and again', new AbortController().signal, () => undefined);
    const [first, second] = ledger(store);
    expect(first!.cachedInputTokens).toBe(0);
    expect(second!.cachedInputTokens).toBeGreaterThan(1024);
    expect(server.counters.cachedTokens).toBe(second!.cachedInputTokens);
    const uncached = costUsdMicros('gemini-2.5-flash', {
      inputTokens: second!.inputTokens,
      outputTokens: second!.outputTokens,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    }).costUsdMicros;
    expect(second!.costUsdMicros).toBeLessThan(uncached);
  });

  it('maps 429 RESOURCE_EXHAUSTED to a rate limit waited out as RetryInfo says, and 503 UNAVAILABLE to a retried failure', async () => {
    const waits: number[] = [];
    server = await startGeminiServer({
      replies: [
        {
          error: {
            status: 429,
            code: 'RESOURCE_EXHAUSTED',
            message: 'Resource has been exhausted (e.g. check quota).',
            details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }],
          },
        },
        { error: { status: 503, code: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' } },
        { text: 'ok now' },
      ],
    });
    const provider = new GeminiProvider({
      baseURL: server.url,
      apiKey: GEMINI_TEST_KEY,
      random: seededRandom(1),
      clock: systemClock,
      sleep: async (ms) => void waits.push(ms),
      retry: { jitter: 'none', maxAttempts: 3 },
    });
    const { agent, store } = buildAgent({
      baseURL: server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      model: 'gemini-2.5-flash',
      deps: { provider },
    });
    const result = await agent.runTurn('hi', new AbortController().signal, () => undefined);
    expect(result).toEqual({ outcome: 'done', text: 'ok now' });
    expect(ledger(store).map((r) => r.outcome)).toEqual(['rate_limit', 'transient', 'ok']);
    expect(waits[0]).toBe(7000);
  });

  it('maps a prompt over the token limit to a context overflow, and a wrong key to auth naming GEMINI_API_KEY', async () => {
    const tooLong = {
      error: {
        status: 400,
        code: 'INVALID_ARGUMENT',
        message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      },
    };
    server = await startGeminiServer({ replies: [tooLong, tooLong] });
    const log = eventLog();
    await agentOn(server.url).agent.runTurn('hi', new AbortController().signal, log.emit);
    expect(log.events.find((e) => e.type === 'error')).toMatchObject({ kind: 'context_overflow' });

    const wrongKey = eventLog();
    await agentOn(server.url, 'not-the-key').agent.runTurn('hi', new AbortController().signal, wrongKey.emit);
    const error = wrongKey.events.find((e) => e.type === 'error') as { kind: string; hint: string };
    expect(error.kind).toBe('auth');
    expect(error.hint).toContain('GEMINI_API_KEY');
  });

  it('learns the window from inputTokenLimit, and retries a stream cut before its finish reason', async () => {
    server = await startGeminiServer({
      inputTokenLimit: 123_456,
      replies: [{ text: ['a', 'b', 'c'], dropAfterEvents: 2 }],
    });
    const { agent, provider, store } = agentOn(server.url);
    expect(await provider.contextWindow('gemini-2.5-flash')).toMatchObject({ tokens: 123_456 });
    const log = eventLog();
    const result = await agent.runTurn('hi', new AbortController().signal, log.emit);
    expect(result).toEqual({ outcome: 'done', text: 'echo: hi' });
    expect(ledger(store).map((r) => r.outcome)).toEqual(['stream_dropped', 'ok']);
    expect(log.events.map((e) => e.type)).toContain('discard');
  });

  it("sends Gemini 3's thought signature back with the call it came with, also from a reopened session", async () => {
    writeFileSync(join(dirs.root, 'notes.txt'), 'two\nlines\n');
    server = await startGeminiServer({
      models: ['gemini-3-pro-preview'],
      signFunctionCalls: true,
      replies: [
        { calls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
        { text: 'Read it.' },
        { calls: [{ name: 'list_dir', args: { path: '.' } }] },
        { text: 'Listed.' },
      ],
    });
    const first = agentOn(server.url, GEMINI_TEST_KEY, 'gemini-3-pro-preview');
    const log = eventLog();
    expect(await first.agent.runTurn('read notes.txt', new AbortController().signal, log.emit)).toEqual({
      outcome: 'done',
      text: 'Read it.',
    });
    const [answer] = entriesOfType(first.store, 'assistant');
    expect(answer!.payload.toolCalls[0]!.signature).toBe('c2lnbmF0dXJl-1');
    const path = onlySessionFile(dirs.sessions);
    first.store.close();

    const reopened = agentOn(server.url, GEMINI_TEST_KEY, 'gemini-3-pro-preview', path);
    expect(await reopened.agent.runTurn('now list', new AbortController().signal, () => undefined)).toEqual({
      outcome: 'done',
      text: 'Listed.',
    });
    const parts = server.generations().at(-1)!.contents as {
      role: string;
      parts: { functionCall?: unknown; thoughtSignature?: string }[];
    }[];
    const signatures = parts
      .flatMap((c) => c.parts)
      .filter((p) => p.functionCall !== undefined)
      .map((p) => p.thoughtSignature);
    expect(signatures).toEqual(['c2lnbmF0dXJl-1', 'c2lnbmF0dXJl-2']);
  });
});
