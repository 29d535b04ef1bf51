import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../../src/core/clock';
import { AnthropicProvider } from '../../../../src/core/provider/anthropic-messages/anthropic-provider';
import type { AttemptReport, CompletionEvent, CompletionRequest } from '../../../../src/core/provider/provider';
import { type AnthropicServer, startAnthropicServer } from '../../../support/anthropic-server';

let server: AnthropicServer;

beforeEach(async () => {
  server = await startAnthropicServer({ apiKey: 'sk-ant-test', contextWindowTokens: 400 });
});

afterEach(async () => {
  await server.close();
});

function provider(waits: number[], apiKey = 'sk-ant-test', maxAttempts = 3) {
  return new AnthropicProvider({
    baseURL: server.url,
    apiKey,
    random: seededRandom(3),
    clock: systemClock,
    sleep: async (ms) => void waits.push(ms),
    retry: { jitter: 'none', maxAttempts, baseDelayMs: 10 },
  });
}

function request(text = 'hello'): CompletionRequest {
  return {
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: text },
    ],
    tools: [],
    signal: new AbortController().signal,
  };
}

function reports(events: CompletionEvent[]): AttemptReport[] {
  return events.flatMap((e) => (e.type === 'attempt' ? [e.report] : []));
}

describe('Anthropic errors become tole error kinds and go through the shared retry policy', () => {
  it('429 rate_limit_error with retry-after is waited out as the server asks, then the answer comes', async () => {
    server.push(
      { error: { status: 429, type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '2' } } },
      { text: 'ok' },
    );
    const waits: number[] = [];
    const events: CompletionEvent[] = [];
    const result = await provider(waits).complete(request(), (e) => events.push(e));
    expect(result.text).toBe('ok');
    expect(reports(events).map((r) => r.outcome)).toEqual(['rate_limit', 'ok']);
    expect(waits).toEqual([2000]);
  });

  it('529 overloaded_error is transient and retried; so is an overloaded_error event inside a started stream', async () => {
    server.push(
      { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'partial', streamError: { afterBlocks: 1, type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'whole' },
    );
    const events: CompletionEvent[] = [];
    const result = await provider([]).complete(request(), (e) => events.push(e));
    expect(result.text).toBe('whole');
    expect(reports(events).map((r) => r.outcome)).toEqual(['transient', 'transient', 'ok']);
    // The partial text of the failed stream was declared void before the retry.
    expect(events.filter((e) => e.type === 'discard')).toHaveLength(1);
  });

  it('"prompt is too long" is a context overflow, left to the turn loop (not retried)', async () => {
    const events: CompletionEvent[] = [];
    const error = await provider([])
      .complete(request('x'.repeat(4000)), (e) => events.push(e))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'context_overflow', status: 400 });
    expect(reports(events)).toHaveLength(1);
  });

  it('a refused key is an auth error naming ANTHROPIC_API_KEY, not retried', async () => {
    const error = await provider([], 'sk-wrong')
      .complete(request(), () => {})
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'auth', status: 401, hint: expect.stringContaining('ANTHROPIC_API_KEY') });
  });

  it('a stream cut before message_stop is a dropped stream, retried from scratch', async () => {
    server.push(
      { text: 'half', streamError: { afterBlocks: 1, type: 'api_error', message: 'Internal server error' } },
      { text: 'again' },
    );
    const events: CompletionEvent[] = [];
    const result = await provider([]).complete(request(), (e) => events.push(e));
    expect(result.text).toBe('again');
    expect(reports(events)[0]!.outcome).toMatch(/transient|stream_dropped/);
  });

  it('a server that never sends its headers is a transient failure once timeoutMs is up, retried', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    try {
      const events: CompletionEvent[] = [];
      const quiet = new AnthropicProvider({
        baseURL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        apiKey: 'k',
        random: seededRandom(1),
        clock: systemClock,
        sleep: async () => {},
        timeoutMs: 50,
        retry: { maxAttempts: 2 },
      });
      const error = await quiet.complete(request(), (e) => events.push(e)).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'transient', message: expect.stringContaining('no answer from') });
      expect(reports(events).map((r) => r.outcome)).toEqual(['transient', 'transient']);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('an answer that is not an event stream is named, not retried', async () => {
    const events: CompletionEvent[] = [];
    const html = new AnthropicProvider({
      baseURL: server.url,
      random: seededRandom(1),
      clock: systemClock,
      fetch: async () => new Response('<html>login</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    });
    const error = await html.complete(request(), (e) => events.push(e)).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'bad_request', message: expect.stringContaining('text/html') });
    expect(reports(events)).toHaveLength(1);
  });
});
