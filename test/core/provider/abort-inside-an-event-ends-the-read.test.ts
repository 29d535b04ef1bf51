/**
 * A caller that aborts from inside a streamed event (the turn's cancel, run from the text event
 * that shows a word) gets nothing more from the stream, whichever API kind reads it: neither the
 * rest of the same network read (a fast server puts many events in one) nor the rest of what one
 * wire event carries (a Gemini chunk with several parts, an Ollama line with thinking and text, an
 * OpenAI delta with reasoning and text). The body here is one chunk holding the whole stream, so
 * every event is in the read that carries the first: nothing depends on how the socket splits it.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { AnthropicProvider } from '../../../src/core/provider/anthropic-messages/anthropic-provider';
import { GeminiProvider } from '../../../src/core/provider/gemini/gemini-provider';
import { OllamaProvider } from '../../../src/core/provider/ollama/ollama-provider';
import { OpenAIProvider } from '../../../src/core/provider/openai-chat/openai-provider';
import { AttemptWatchdog } from '../../../src/core/provider/attempt-watchdog';
import { readNdjson } from '../../../src/core/provider/ollama/ndjson-reader';
import type { CompletionEvent, Provider } from '../../../src/core/provider/provider';
import type { ProviderOptions } from '../../../src/core/provider/provider-options';
import { readEventStream } from '../../../src/core/provider/sse-reader';
import type { Fetch } from '../../../src/core/provider/sse-response';

const words = Array.from({ length: 20 }, (_, i) => `w${i} `);

/** A fetch whose every answer is `text` in one chunk, labelled `contentType`. */
function oneReadFetch(contentType: string, text: string): Fetch {
  return async () => {
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': contentType } });
  };
}

function sse(events: readonly unknown[]): string {
  return events.map((data) => `data: ${JSON.stringify(data)}\n\n`).join('');
}

function options(baseURL: string, fetch: Fetch): ProviderOptions {
  return {
    baseURL,
    apiKey: 'test-key',
    random: seededRandom(1),
    clock: systemClock,
    sleep: async () => {},
    retry: { jitter: 'none', maxAttempts: 1 },
    fetch,
  };
}

// ---- Each kind's wire form of a reply. ----

function openAiChunk(delta: Record<string, unknown>, finish: string | null = null): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

function openAi(deltas: readonly Record<string, unknown>[]): Provider {
  const body = `${sse([...deltas.map((d) => openAiChunk(d)), openAiChunk({}, 'stop')])}data: [DONE]\n\n`;
  return new OpenAIProvider(options('http://openai.test/v1', oneReadFetch('text/event-stream', body)));
}

function anthropic(texts: readonly string[]): Provider {
  const event = (type: string, data: Record<string, unknown>): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const usage = { input_tokens: 5, output_tokens: 1 };
  const body = [
    event('message_start', {
      message: { id: 'msg_test', type: 'message', role: 'assistant', model: 'm', content: [], usage },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...texts.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }),
    event('message_stop', {}),
  ].join('');
  return new AnthropicProvider(options('http://anthropic.test', oneReadFetch('text/event-stream', body)));
}

function gemini(chunks: readonly Record<string, unknown>[][]): Provider {
  const body = sse(
    chunks.map((parts, at) => ({
      candidates: [
        { content: { parts, role: 'model' }, index: 0, ...(at === chunks.length - 1 ? { finishReason: 'STOP' } : {}) },
      ],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 },
    })),
  );
  return new GeminiProvider(options('http://gemini.test/v1beta', oneReadFetch('text/event-stream', body)));
}

function ollama(messages: readonly Record<string, unknown>[]): Provider {
  const line = (message: Record<string, unknown>, done: boolean): string =>
    `${JSON.stringify({ model: 'm', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: '', ...message }, done, ...(done ? { done_reason: 'stop', prompt_eval_count: 5, eval_count: 9 } : {}) })}\n`;
  const body = messages.map((message) => line(message, false)).join('') + line({}, true);
  return new OllamaProvider(options('http://ollama.test', oneReadFetch('application/x-ndjson', body)));
}

/** Runs one call that aborts from inside the first event of `abortOn`'s type; the events it got, by type. */
async function abortInside(provider: Provider, abortOn: CompletionEvent['type']): Promise<string[]> {
  const controller = new AbortController();
  const seen: string[] = [];
  const outcome = await provider
    .complete(
      {
        model: 'm',
        messages: [{ role: 'user', content: 'go' }],
        tools: [],
        signal: controller.signal,
        contextWindowTokens: 8192,
      },
      (event) => {
        seen.push(event.type === 'attempt' ? `attempt:${event.report.outcome}` : event.type);
        if (event.type === abortOn) controller.abort();
      },
    )
    .catch((error: unknown) => error);
  expect(outcome).toMatchObject({ kind: 'aborted' });
  return seen;
}

describe('an abort from inside a streamed event', () => {
  it('hands on no more of the same network read: OpenAI, Anthropic, Gemini, Ollama', async () => {
    const kinds: Record<string, Provider> = {
      openai: openAi(words.map((content) => ({ content }))),
      anthropic: anthropic(words),
      gemini: gemini(words.map((text) => [{ text }])),
      ollama: ollama(words.map((content) => ({ content }))),
    };
    for (const [kind, provider] of Object.entries(kinds)) {
      expect({ kind, events: await abortInside(provider, 'text') }).toEqual({
        kind,
        events: ['stream-open', 'text', 'attempt:aborted'],
      });
    }
  });

  it('hands on no more of what the same wire event carries: reasoning then text in one event', async () => {
    const kinds: Record<string, Provider> = {
      openai: openAi([{ reasoning_content: 'hmm', content: 'w0' }]),
      gemini: gemini([[{ text: 'hmm', thought: true }, { text: 'w0' }]]),
      ollama: ollama([{ thinking: 'hmm', content: 'w0' }]),
    };
    for (const [kind, provider] of Object.entries(kinds)) {
      expect({ kind, events: await abortInside(provider, 'reasoning') }).toEqual({
        kind,
        events: ['stream-open', 'reasoning', 'attempt:aborted'],
      });
    }
  });
});

describe('a stream reader whose caller aborts from inside the first of many events in one read', () => {
  it('hands on no more: the SSE reader (OpenAI, Anthropic, Gemini) and the NDJSON reader (Ollama)', async () => {
    const fetch = oneReadFetch('text/event-stream', sse(words));
    const caller = new AbortController();
    const watchdog = new AttemptWatchdog(caller.signal, { firstTokenMs: 60_000, idleMs: 60_000, deadline: Infinity });
    const sseSeen: string[] = [];
    const sseRead = readEventStream(await fetch('http://sse.test'), watchdog, ({ data }) => {
      sseSeen.push(data);
      caller.abort();
    }).catch((error: unknown) => error);
    expect(await sseRead).toMatchObject({ name: 'AbortError' });
    watchdog.dispose();
    expect(sseSeen).toEqual([JSON.stringify(words[0])]);

    const lines = words.map((word) => `${JSON.stringify(word)}\n`).join('');
    const ndjsonBody = (await oneReadFetch('application/x-ndjson', lines)('http://ndjson.test')).body;
    const reader = new AbortController();
    const ndjsonSeen: unknown[] = [];
    const ndjsonRead = readNdjson(ndjsonBody, reader.signal, (value) => {
      ndjsonSeen.push(value);
      reader.abort();
    }).catch((error: unknown) => error);
    expect(await ndjsonRead).toMatchObject({ name: 'AbortError' });
    expect(ndjsonSeen).toEqual([words[0]]);
  });
});
