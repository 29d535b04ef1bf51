import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../src/core/clock';
import { ProviderError } from '../../../src/core/provider/errors';
import type { CompletionEvent } from '../../../src/core/provider/provider';
import { timerSleep } from '../../../src/core/provider/retry';
import { startChatServer, type ChatServer } from '../../support/chat-server';
import { makeProvider, recordingSleep, run, steppingClock, textOf, userRequest } from './harness';

let server: ChatServer;

beforeEach(async () => {
  server = await startChatServer();
});

afterEach(async () => {
  vi.useRealTimers();
  await server.close();
});

function providerError(error: unknown): ProviderError {
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** Waits, a turn of the event loop at a time, until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const rateLimited = (headers: Record<string, string> = {}) => ({
  error: {
    status: 429,
    headers,
    body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
  },
});

describe('OpenAIProvider retries', () => {
  it('waits as long as Retry-After says after a 429, then succeeds', async () => {
    server.push(rateLimited({ 'retry-after': '7' }), { text: 'after the wait' });
    const { sleep, waitsMs } = recordingSleep();
    const provider = makeProvider(server.url, { sleep });

    const { attempts, result } = await run(provider, userRequest('x'));

    expect(waitsMs).toEqual([7000]);
    expect(attempts.map((report) => [report.outcome, report.retryInMs])).toEqual([
      ['rate_limit', 7000],
      ['ok', undefined],
    ]);
    expect(attempts[0].error).toMatch(/429/);
    expect(result?.text).toBe('after the wait');
    expect(server.requests).toHaveLength(2);
  });

  it('reads Retry-After as an HTTP date against the injected clock, and retry-after-ms', async () => {
    const nowMs = Date.parse('2030-01-01T00:00:00Z');
    server.push(
      rateLimited({ 'retry-after': new Date(nowMs + 12_000).toUTCString() }),
      rateLimited({ 'retry-after-ms': '1500' }),
      { text: 'ok' },
    );
    const { sleep, waitsMs } = recordingSleep();
    const provider = makeProvider(server.url, { sleep, clock: steppingClock(nowMs, 0) });

    const { result } = await run(provider, userRequest('x'));

    expect(result?.text).toBe('ok');
    expect(waitsMs).toEqual([12_000, 1500]);
  });

  it('caps a Retry-After that asks for too long', async () => {
    server.push(rateLimited({ 'retry-after': '3600' }), { text: 'ok' });
    const { sleep, waitsMs } = recordingSleep();
    const provider = makeProvider(server.url, { sleep, retry: { maxRetryAfterMs: 60_000 } });

    await run(provider, userRequest('x'));

    expect(waitsMs).toEqual([60_000]);
  });

  it('backs off exponentially after a 429 without Retry-After', async () => {
    server.push(rateLimited(), rateLimited(), rateLimited(), { text: 'finally' });
    const { sleep, waitsMs } = recordingSleep();
    const provider = makeProvider(server.url, { sleep, retry: { jitter: 'none', baseDelayMs: 500 } });

    const { result } = await run(provider, userRequest('x'));

    expect(waitsMs).toEqual([500, 1000, 2000]);
    expect(result?.text).toBe('finally');
  });

  it('jitters the backoff from the injected randomness, within the exponential ceiling', async () => {
    server.push(rateLimited(), rateLimited(), { text: 'ok' });
    const first = recordingSleep();
    await run(
      makeProvider(server.url, { sleep: first.sleep, random: seededRandom(7), retry: { jitter: 'full' } }),
      userRequest('x'),
    );
    server.push(rateLimited(), rateLimited(), { text: 'ok' });
    const second = recordingSleep();
    await run(
      makeProvider(server.url, { sleep: second.sleep, random: seededRandom(7), retry: { jitter: 'full' } }),
      userRequest('x'),
    );

    expect(first.waitsMs).toHaveLength(2);
    expect(first.waitsMs[0]).toBeLessThan(500);
    expect(first.waitsMs[1]).toBeLessThan(1000);
    expect(second.waitsMs).toEqual(first.waitsMs);
  });

  it('retries a 500 and then succeeds', async () => {
    server.push({ error: { status: 500, body: { error: { message: 'internal error' } } } }, { text: 'recovered' });
    const { sleep, waitsMs } = recordingSleep();
    const provider = makeProvider(server.url, { sleep });

    const { attempts, result } = await run(provider, userRequest('x'));

    expect(attempts.map((report) => report.outcome)).toEqual(['transient', 'ok']);
    expect(waitsMs).toEqual([500]);
    expect(result?.text).toBe('recovered');
  });

  it('treats a refused connection as transient, retries, and names the URL in its hint', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const { sleep, waitsMs } = recordingSleep();
    const provider = makeProvider(baseURL, { sleep, retry: { maxAttempts: 2, jitter: 'none' } });

    const { attempts, error } = await run(provider, userRequest('x'));

    const failure = providerError(error);
    expect(failure.kind).toBe('transient');
    expect(failure.hint).toContain(baseURL);
    expect(failure.hint).toMatch(/running/);
    expect(attempts.map((report) => report.outcome)).toEqual(['transient', 'transient']);
    expect(waitsMs).toEqual([500]);
  });

  it('discards the partial output of a stream dropped mid-way and retries from scratch', async () => {
    server.push({ text: ['Hel', 'lo ', 'wor', 'ld'], dropAfterChunks: 3 }, { text: ['second ', 'try'] });
    const { sleep } = recordingSleep();
    const provider = makeProvider(server.url, { sleep });

    const { events, result } = await run(provider, userRequest('x'));

    const shape = events.map((event) => (event.type === 'attempt' ? `attempt:${event.report.outcome}` : event.type));
    expect(shape).toEqual([
      'stream-open',
      'text',
      'text',
      'discard',
      'attempt:stream_dropped',
      'stream-open',
      'text',
      'text',
      'attempt:ok',
    ]);
    expect(textOf(events.slice(0, 3))).toBe('Hello ');
    expect(result?.text).toBe('second try');
    const dropped = events.find((event) => event.type === 'attempt' && event.report.outcome === 'stream_dropped');
    expect(dropped?.type === 'attempt' && dropped.report.retryInMs).toBe(500);
  });

  it('treats a stream that ends with neither a finish_reason nor [DONE] as dropped', async () => {
    server.push({ text: 'cut', finishReason: null, omitDone: true }, { text: 'whole' });
    const { sleep } = recordingSleep();
    const provider = makeProvider(server.url, { sleep });

    const { attempts, events, result } = await run(provider, userRequest('x'));

    expect(attempts.map((report) => report.outcome)).toEqual(['stream_dropped', 'ok']);
    expect(attempts[0].error).toMatch(/finish_reason/);
    expect(events.some((event) => event.type === 'discard')).toBe(true);
    expect(result?.text).toBe('whole');
  });

  it('gives up after maxAttempts with one attempt event per attempt', async () => {
    const maxAttempts = 4;
    for (let i = 0; i < maxAttempts + 2; i += 1)
      server.push({ error: { status: 503, body: { error: { message: 'overloaded' } } } });
    const { sleep, waitsMs } = recordingSleep();
    const provider = makeProvider(server.url, { sleep, retry: { maxAttempts, jitter: 'none' } });

    const { attempts, error } = await run(provider, userRequest('x'));

    const failure = providerError(error);
    expect(failure.kind).toBe('transient');
    expect(failure.status).toBe(503);
    expect(failure.attempts).toBe(maxAttempts);
    expect(attempts).toHaveLength(maxAttempts);
    expect(attempts.map((report) => report.attempt)).toEqual([1, 2, 3, 4]);
    expect(attempts.at(-1)?.retryInMs).toBeUndefined();
    expect(waitsMs).toEqual([500, 1000, 2000]);
    expect(server.requests).toHaveLength(maxAttempts);
  });

  it('takes a stream with no finish_reason that ends with [DONE] as a whole answer', async () => {
    server.push({ text: ['all ', 'there'], finishReason: null });
    const provider = makeProvider(server.url, {});

    const { attempts, result } = await run(provider, userRequest('x'));

    expect(attempts.map((report) => report.outcome)).toEqual(['ok']);
    expect(result).toMatchObject({ text: 'all there', finishReason: 'stop' });
  });

  it('counts a silent stream as dropped after the idle limit', async () => {
    // The first reply stalls after its opening chunk and 'a', for as long as the call stays open.
    server.push({ text: ['a', 'b'], stallAfterChunks: 2, stallUntil: new Promise(() => {}) }, { text: 'lively' });
    const { sleep } = recordingSleep();
    const provider = makeProvider(server.url, { sleep, streamIdleTimeoutMs: 150 });
    // The silence is measured on performance.now(), held here: it passes only when the test moves
    // it, once 'a' is in. A loaded machine that paused 150 ms between two chunks of the
    // lively reply would otherwise drop it too.
    vi.useFakeTimers({ toFake: ['performance'] });
    const events: CompletionEvent[] = [];
    let aIn!: () => void;
    const seen = new Promise<void>((resolve) => {
      aIn = resolve;
    });
    const call = provider
      .complete(userRequest('x'), (event) => {
        events.push(event);
        if (textOf(events) === 'a') aIn();
      })
      .then((result) => ({ result }));
    await seen;
    vi.advanceTimersByTime(150);
    const { result } = await call;
    const attempts = events.flatMap((event) => (event.type === 'attempt' ? [event.report] : []));

    expect(attempts.map((report) => report.outcome)).toEqual(['stream_dropped', 'ok']);
    expect(attempts[0].error).toMatch(/no data for 150 ms/);
    expect(result?.text).toBe('lively');
  });

  it('counts a server that never answers as transient after the timeout', async () => {
    server.push({ hangMs: 10_000 });
    const provider = makeProvider(server.url, { timeoutMs: 150, retry: { maxAttempts: 1 } });

    const { error } = await run(provider, userRequest('x'));

    expect(providerError(error).kind).toBe('transient');
  });
});

describe('OpenAIProvider failures that are not retried', () => {
  const notRetried = [
    {
      name: 'context overflow (OpenAI)',
      reply: {
        status: 400,
        body: {
          error: {
            message:
              "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.",
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
          },
        },
      },
      kind: 'context_overflow',
    },
    {
      name: 'context overflow (llama.cpp)',
      reply: {
        status: 400,
        body: {
          error: {
            code: 400,
            message: 'the request exceeds the available context size, try increasing it',
            type: 'exceed_context_size_error',
          },
        },
      },
      kind: 'context_overflow',
    },
    {
      name: 'tools unsupported (Ollama)',
      reply: {
        status: 400,
        body: { error: { message: 'registry.ollama.ai/library/gemma:2b does not support tools', type: 'api_error' } },
      },
      kind: 'tool_unsupported',
    },
    {
      name: 'tools unsupported (vLLM)',
      reply: {
        status: 400,
        body: {
          object: 'error',
          message: 'x',
          error: { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' },
        },
      },
      kind: 'tool_unsupported',
    },
    {
      name: 'bad request',
      reply: {
        status: 400,
        body: { error: { message: "Invalid value for 'temperature'", type: 'invalid_request_error' } },
      },
      kind: 'bad_request',
    },
  ] as const;

  for (const { name, reply, kind } of notRetried) {
    it(`classifies ${name} as ${kind} and makes a single attempt`, async () => {
      server.push({ error: reply }, { text: 'must not be reached' });
      const { sleep, waitsMs } = recordingSleep();
      const provider = makeProvider(server.url, { sleep });

      const { attempts, error } = await run(provider, userRequest('x'));

      expect(providerError(error).kind).toBe(kind);
      expect(providerError(error).status).toBe(400);
      expect(attempts).toHaveLength(1);
      expect(attempts[0].outcome).toBe(kind);
      expect(attempts[0].retryInMs).toBeUndefined();
      expect(waitsMs).toEqual([]);
      expect(server.requests).toHaveLength(1);
    });
  }

  it('reports 401 as auth with a hint about the key', async () => {
    server.push({
      error: {
        status: 401,
        body: {
          error: {
            message: 'Incorrect API key provided: sk-test',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
      },
    });
    const provider = makeProvider(server.url, { sleep: recordingSleep().sleep });

    const { attempts, error } = await run(provider, userRequest('x'));

    const failure = providerError(error);
    expect(failure.kind).toBe('auth');
    expect(failure.status).toBe(401);
    expect(failure.hint).toContain('OPENAI_API_KEY');
    expect(attempts.map((report) => report.outcome)).toEqual(['auth']);
  });

  it('reports an unknown model as not_found with a hint naming the server and --model', async () => {
    server.push({
      error: {
        status: 404,
        body: {
          error: { message: 'The model `nope` does not exist', type: 'invalid_request_error', code: 'model_not_found' },
        },
      },
    });
    const provider = makeProvider(server.url, { sleep: recordingSleep().sleep });

    const { error } = await run(provider, userRequest('x', { model: 'nope' }));

    const failure = providerError(error);
    expect(failure.kind).toBe('not_found');
    expect(failure.hint).toContain(server.url);
    expect(failure.hint).toContain('--model');
    expect(server.requests).toHaveLength(1);
  });
});

describe('OpenAIProvider cancellation', () => {
  it('stops at once when aborted mid-stream and reports the attempt as aborted', async () => {
    server.push({ text: Array.from({ length: 100 }, (_, i) => `w${i} `), delayMs: 0 });
    const controller = new AbortController();
    const provider = makeProvider(server.url, { sleep: timerSleep });
    const events: string[] = [];

    // 100 chunks sent as fast as the server writes, many in one network read: a provider that read
    // on after the abort (the rest of a read it was parsing too) would report more text.
    const outcome = await provider
      .complete(userRequest('x', { signal: controller.signal }), (event) => {
        events.push(event.type === 'attempt' ? `attempt:${event.report.outcome}` : event.type);
        if (events.filter((type) => type === 'text').length === 3) controller.abort();
      })
      .catch((error: unknown) => error);

    expect(providerError(outcome).kind).toBe('aborted');
    expect(events).toEqual(['stream-open', 'text', 'text', 'text', 'attempt:aborted']);
    expect(server.requests).toHaveLength(1);
  });

  it('stops at once when aborted before the server answers', async () => {
    // Held until the server closes: only the abort can end the call (the test's time limit ends a failure).
    server.push({ holdUntil: new Promise(() => {}) });
    const controller = new AbortController();
    const provider = makeProvider(server.url);

    const running = run(provider, userRequest('x', { signal: controller.signal }));
    await until(() => server.requests.length === 1);
    controller.abort();
    const { attempts, error } = await running;

    expect(providerError(error).kind).toBe('aborted');
    expect(attempts.map((report) => report.outcome)).toEqual(['aborted']);
  });

  it('stops at once when aborted while waiting to retry', async () => {
    server.push(rateLimited({ 'retry-after': '30' }));
    const controller = new AbortController();
    // The wait for the retry starts: abort it there (30 s of it would run into the test's time limit).
    const sleep: typeof timerSleep = (ms, signal) => {
      const sleeping = timerSleep(ms, signal);
      controller.abort();
      return sleeping;
    };
    const provider = makeProvider(server.url, { sleep });

    const { attempts, error } = await run(provider, userRequest('x', { signal: controller.signal }));

    expect(providerError(error).kind).toBe('aborted');
    expect(attempts.map((report) => [report.outcome, report.retryInMs])).toEqual([['rate_limit', 30_000]]);
    expect(server.requests).toHaveLength(1);
  });
});
