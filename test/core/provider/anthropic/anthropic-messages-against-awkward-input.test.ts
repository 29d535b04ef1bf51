/**
 * Cases the happy path does not cover, as a careless model or a hostile server would make them:
 * broken tool arguments sent back, redacted thinking, notices inside a tool round, a call with no
 * arguments, a refusal, duplicate tool ids, and a redirect that would carry the key elsewhere.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../../src/core/clock';
import { AnthropicProvider } from '../../../../src/core/provider/anthropic-messages/anthropic-provider';
import { toWireMessages } from '../../../../src/core/provider/anthropic-messages/anthropic-request';
import { MessagesAssembly } from '../../../../src/core/provider/anthropic-messages/anthropic-stream';
import type { ChatMessage, CompletionRequest } from '../../../../src/core/provider/provider';
import { type AnthropicServer, startAnthropicServer } from '../../../support/anthropic-server';

let server: AnthropicServer;

beforeEach(async () => {
  server = await startAnthropicServer();
});

afterEach(async () => {
  await server.close();
});

function provider(baseURL = server.url) {
  return new AnthropicProvider({
    baseURL,
    apiKey: 'sk-ant-test',
    random: seededRandom(5),
    clock: systemClock,
    sleep: async () => {},
    retry: { jitter: 'none', maxAttempts: 2 },
  });
}

function request(messages: ChatMessage[]): CompletionRequest {
  return {
    model: 'claude-sonnet-4-5',
    messages: [{ role: 'system', content: 'sys' }, ...messages],
    tools: [{ name: 'read_file', description: 'reads', parameters: { type: 'object' } }],
    signal: new AbortController().signal,
  };
}

describe('the anthropic-messages kind with awkward input', () => {
  it('arguments that are not a JSON object go back as an object holding their text, which the API accepts', async () => {
    const result = await provider().complete(
      request([
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'read_file', arguments: '{"path": "a' }] },
        { role: 'tool', toolCallId: 't1', content: 'error: the arguments are not JSON' },
      ]),
      () => {},
    );
    expect(result.text).toMatch(/^echo:/);
    const sent = server.requests[0]!.body.messages![1]!.content as readonly Record<string, unknown>[];
    expect(sent).toEqual([
      { type: 'tool_use', id: 't1', name: 'read_file', input: { invalid_arguments: '{"path": "a' } },
    ]);
  });

  it('a notice inside a tool round joins the user turn after the results, so the turns still alternate', () => {
    const wire = toWireMessages([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'read_file', arguments: '{}' },
          { id: 'b', name: 'read_file', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', content: 'A' },
      { role: 'tool', toolCallId: 'b', content: 'B' },
      { role: 'user', content: '[tole] the user restored the files' },
      { role: 'assistant', content: '' },
    ]);
    expect(wire.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(wire[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
    // An assistant turn that said nothing still says something: the API refuses empty content.
    expect(wire[3]!.content).toEqual([{ type: 'text', text: '(no answer)' }]);
  });

  it('redacted thinking is kept and sent back as it came; a call with no arguments has the empty object', async () => {
    server.push({ redactedThinking: 'opaque-bytes', toolCalls: [{ id: 'toolu_x', name: 'read_file', input: '' }] });
    const first = await provider().complete(request([{ role: 'user', content: 'go' }]), () => {});
    expect(first.thinking).toEqual([{ type: 'redacted', data: 'opaque-bytes' }]);
    expect(first.toolCalls).toEqual([{ id: 'toolu_x', name: 'read_file', arguments: '{}' }]);
    await provider().complete(
      request([
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          toolCalls: first.toolCalls,
          ...(first.thinking ? { thinking: first.thinking } : {}),
        },
        { role: 'tool', toolCallId: 'toolu_x', content: 'done' },
      ]),
      () => {},
    );
    const sent = server.requests[1]!.body.messages![1]!.content as readonly Record<string, unknown>[];
    expect(sent[0]).toEqual({ type: 'redacted_thinking', data: 'opaque-bytes' });
  });

  it('a refusal is recorded as one, and a reused tool id is made unique', async () => {
    server.push(
      { text: 'I will not help with that.', stopReason: 'refusal' },
      {
        toolCalls: [
          { id: 'toolu_same', name: 'read_file', input: '{}' },
          { id: 'toolu_same', name: 'read_file', input: '{}' },
        ],
      },
    );
    const refused = await provider().complete(request([{ role: 'user', content: 'x' }]), () => {});
    expect(refused).toMatchObject({ text: '', refusal: 'I will not help with that.', finishReason: 'content_filter' });
    const twice = await provider().complete(request([{ role: 'user', content: 'y' }]), () => {});
    expect(twice.toolCalls.map((c) => c.id)).toHaveLength(2);
    expect(new Set(twice.toolCalls.map((c) => c.id)).size).toBe(2);
    expect(twice.toolCalls[1]!.idFixed).toBe('duplicate');
  });

  it('thinking is left out of a request that continues a tool round begun without it, which the API would refuse', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'read_file', arguments: '{}' }] },
      { role: 'tool', toolCallId: 't1', content: 'done' },
    ];
    const result = await provider().complete(
      { ...request(messages), generation: { thinkingBudgetTokens: 2048 } },
      () => {},
    );
    expect(result.text).toMatch(/^echo:/);
    expect(server.requests[0]!.body.thinking).toBeUndefined();
    // At the next prompt thinking is on again.
    await provider().complete(
      {
        ...request([...messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }]),
        generation: { thinkingBudgetTokens: 2048 },
      },
      () => {},
    );
    expect(server.requests[1]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('a temperature or a low topP beside thinking is refused before sending, naming the setting', async () => {
    const ask = (generation: CompletionRequest['generation']) =>
      provider()
        .complete({ ...request([{ role: 'user', content: 'x' }]), ...(generation ? { generation } : {}) }, () => {})
        .catch((e: unknown) => e);
    await expect(ask({ reasoningEffort: 'medium', temperature: 0.3 })).resolves.toMatchObject({
      kind: 'bad_request',
      hint: expect.stringContaining('"temperature"'),
    });
    await expect(ask({ thinkingBudgetTokens: 2048, topP: 0.5 })).resolves.toMatchObject({
      kind: 'bad_request',
      hint: expect.stringContaining('"topP"'),
    });
    await expect(ask({ thinkingBudgetTokens: 4096, maxOutputTokens: 2048 })).resolves.toMatchObject({
      kind: 'bad_request',
      hint: expect.stringContaining('maxOutputTokens'),
    });
    expect(server.requests).toHaveLength(0);
    // Without thinking the same temperature is sent as it is.
    await ask({ temperature: 0.3 });
    expect(server.requests[0]!.body['temperature']).toBe(0.3);
  });

  it('a message that ends without a message_delta (no stop reason) is still a tool-call reply or an answer', () => {
    const assembly = new MessagesAssembly(() => 'invented');
    assembly.add({ type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } });
    assembly.add({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'read_file' },
    });
    assembly.add({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' },
    });
    // A delta for a block never started, and an event type the API may add later: ignored.
    assembly.add({ type: 'content_block_delta', index: 7, delta: { type: 'text_delta', text: 'stray' } });
    assembly.add({ type: 'content_block_future', index: 0 });
    assembly.add({ type: 'message_stop' });
    const result = assembly.result('m');
    expect(result.finishReason).toBe('tool_calls');
    expect(result.text).toBe('');
    expect(result.toolCalls).toEqual([{ id: 'toolu_1', name: 'read_file', arguments: '{"path":"a"}' }]);
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0 });
  });

  it("a Claude model's window is the documented 200k (the API does not say it); another model's is unknown", async () => {
    await expect(provider().contextWindow('claude-sonnet-4-5')).resolves.toMatchObject({ tokens: 200_000 });
    await expect(provider().contextWindow('my-proxy-model')).resolves.toBeNull();
  });

  it('a redirect is not followed: the key and the conversation stay with the server named', async () => {
    let elsewhere = 0;
    const other: Server = createServer((_req, res) => {
      elsewhere++;
      res.end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
    const redirecting: Server = createServer((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${(other.address() as AddressInfo).port}/v1/messages` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', () => resolve()));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
      const error = await provider(url)
        .complete(request([{ role: 'user', content: 'x' }]), () => {})
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'bad_request', status: 307, hint: expect.stringContaining('redirects') });
      expect(elsewhere).toBe(0);
    } finally {
      redirecting.close();
      other.close();
    }
  });
});
