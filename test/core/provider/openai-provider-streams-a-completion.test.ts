import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/provider/provider';
import { startChatServer, streamChunks, type ChatServer } from '../../support/chat-server';
import { makeProvider, run, steppingClock, textOf, userRequest } from './harness';

let server: ChatServer;

beforeEach(async () => {
  server = await startChatServer();
});

afterEach(async () => {
  await server.close();
});

describe('OpenAIProvider streaming', () => {
  it('streams text deltas and reports one ok attempt with usage and latency from the clock', async () => {
    server.push({ text: ['Hel', 'lo', ', world'], usage: { prompt_tokens: 12, completion_tokens: 3 } });
    const provider = makeProvider(server.url, { clock: steppingClock(0, 7) });

    const { events, attempts, result } = await run(provider, userRequest('hi'));

    expect(
      events.filter((event) => event.type === 'text').map((event) => (event.type === 'text' ? event.delta : '')),
    ).toEqual(['Hel', 'lo', ', world']);
    expect(result?.text).toBe('Hello, world');
    expect(result?.finishReason).toBe('stop');
    expect(result?.usage).toEqual({ inputTokens: 12, outputTokens: 3, cachedInputTokens: 0, cacheWriteTokens: 0 });
    expect(attempts).toEqual([
      { model: 'tole-test-model', attempt: 1, outcome: 'ok', usage: result?.usage, latencyMs: 7 },
    ]);
    expect(events.at(-1)?.type).toBe('attempt');
  });

  it('sends messages, tools and limits in the Chat Completions wire format', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'list files' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'ls', arguments: '{"path":"."}' }] },
      { role: 'tool', toolCallId: 'call_1', content: 'a.txt' },
    ];
    const tools = [
      {
        name: 'ls',
        description: 'list a directory',
        parameters: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ];
    const provider = makeProvider(server.url);

    await run(provider, userRequest('', { messages, tools, maxOutputTokens: 256 }));

    const body = server.requests[0].body;
    expect(body?.stream).toBe(true);
    expect(body?.stream_options).toEqual({ include_usage: true });
    expect(body?.max_tokens).toBe(256);
    expect(body?.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'list files' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
    ]);
    expect(body?.tools).toEqual([{ type: 'function', function: tools[0] }]);
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-test');
  });

  it('omits tools when there are none and sends a placeholder key to servers that need none', async () => {
    const provider = makeProvider(server.url, { apiKey: '' });

    const { result } = await run(provider, userRequest('ping'));

    expect(result?.text).toBe('echo: ping');
    expect(server.requests[0].body).not.toHaveProperty('tools');
    expect(server.requests[0].body).not.toHaveProperty('max_tokens');
    expect(server.requests[0].headers.authorization).toMatch(/^Bearer \S+$/);
  });

  it('assembles tool calls sent in many fragments, inventing ids the server left out', async () => {
    const readArgs = '{"path":"src/index.ts","limit":200}';
    const runArgs = '{"command":"ls -la"}';
    server.push({
      text: 'Let me look.',
      toolCalls: [
        { id: 'call_abc', name: 'read_file', arguments: readArgs, fragments: 6 },
        { id: null, name: 'run', arguments: runArgs, fragments: 4 },
      ],
    });
    const provider = makeProvider(server.url);

    const { events, result } = await run(provider, userRequest('go'));

    const toolEvents = events.flatMap((event) => (event.type === 'tool_call' ? [event] : []));
    expect(toolEvents).toHaveLength(10);
    expect(toolEvents[0]).toMatchObject({ index: 0, id: 'call_abc', name: 'read_file' });
    expect(toolEvents[1]).not.toHaveProperty('id');
    expect(toolEvents[1]).not.toHaveProperty('name');
    expect(toolEvents[6]).toMatchObject({ index: 1, name: 'run' });
    expect(
      toolEvents
        .filter((event) => event.index === 0)
        .map((event) => event.argumentsDelta)
        .join(''),
    ).toBe(readArgs);
    expect(result?.text).toBe('Let me look.');
    expect(result?.finishReason).toBe('tool_calls');
    expect(result?.toolCalls).toHaveLength(2);
    expect(result?.toolCalls[0]).toEqual({ id: 'call_abc', name: 'read_file', arguments: readArgs });
    expect(result?.toolCalls[1].name).toBe('run');
    expect(result?.toolCalls[1].arguments).toBe(runArgs);
    expect(result?.toolCalls[1].id).toMatch(/^call_1_[0-9a-f]+$/);
    expect(toolEvents[6]).toMatchObject({ id: result?.toolCalls[1].id });
  });

  it('completes with null usage when the server sends none', async () => {
    server.push({ text: 'no usage here', usage: null });
    const provider = makeProvider(server.url);

    const { result, attempts } = await run(provider, userRequest('x'));

    expect(result?.text).toBe('no usage here');
    expect(result?.usage).toBeNull();
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ outcome: 'ok', usage: null });
  });

  it('reads a finish_reason sent in a chunk of its own and usage in a final empty-choices chunk', async () => {
    const reply = {
      text: 'done',
      finishReason: 'length',
      finishInEmptyChoices: true,
      usageInFinalChunk: true,
      usage: { prompt_tokens: 9, completion_tokens: 4 },
    };
    // The script really does put them there: the finish in a chunk with an empty delta, the usage after it.
    const chunks = streamChunks({ model: 'm' }, reply);
    expect(chunks.at(-2)?.choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }]);
    expect(chunks.at(-1)?.choices).toEqual([]);
    server.push(reply);
    const provider = makeProvider(server.url);

    const { result } = await run(provider, userRequest('x'));

    expect(result?.finishReason).toBe('length');
    expect(result?.usage).toMatchObject({ inputTokens: 9, outputTokens: 4 });
  });

  it('reads cached tokens, cache writes and the cost OpenRouter reports', async () => {
    server.push({
      text: 'a',
      usageInFinalChunk: true,
      usage: {
        prompt_tokens: 1000,
        completion_tokens: 50,
        prompt_tokens_details: { cached_tokens: 600 },
        cache_creation_input_tokens: 200,
        cost: 0.001234,
      },
    });
    const provider = makeProvider(server.url);

    const { result } = await run(provider, userRequest('x'));

    expect(result?.usage).toEqual({
      inputTokens: 1000,
      outputTokens: 50,
      cachedInputTokens: 600,
      cacheWriteTokens: 200,
      serverCostUsdMicros: 1234,
    });
  });

  it('streams reasoning from reasoning_content and from reasoning', async () => {
    server.push({ reasoning: ['think ', 'hard'], text: 'answer' });
    server.push({ reasoning: 'routed thought', reasoningField: 'reasoning', text: 'answer 2' });
    const provider = makeProvider(server.url);

    const first = await run(provider, userRequest('x'));
    const second = await run(provider, userRequest('y'));

    expect(first.events.filter((event) => event.type === 'reasoning')).toHaveLength(2);
    expect(first.result?.reasoning).toBe('think hard');
    expect(first.result?.text).toBe('answer');
    expect(second.result?.reasoning).toBe('routed thought');
    expect(textOf(second.events)).toBe('answer 2');
  });

  it('lists models with the context window when the server gives one', async () => {
    await server.close();
    server = await startChatServer({
      models: [
        { id: 'routed/model', context_length: 128_000 },
        { id: 'vllm-model', max_model_len: 4096 },
        { id: 'groq-model', context_window: 131_072 },
        { id: 'llama-cpp', meta: { n_ctx_train: 8192 } },
        { id: 'bare' },
      ],
    });
    const provider = makeProvider(server.url);

    const models = await provider.listModels();

    expect(models).toEqual([
      { id: 'routed/model', contextWindowTokens: 128_000 },
      { id: 'vllm-model', contextWindowTokens: 4096 },
      { id: 'groq-model', contextWindowTokens: 131_072 },
      { id: 'llama-cpp', contextWindowTokens: 8192 },
      { id: 'bare' },
    ]);
  });
});
