import { describe, expect, it } from 'vitest';
import { classifyOllamaFailure } from '../../../../src/core/provider/ollama/ollama-errors';
import { OllamaAssembly, OllamaStreamError } from '../../../../src/core/provider/ollama/ollama-stream';
import { ollamaChatBody } from '../../../../src/core/provider/ollama/ollama-wire';
import type { ChatMessage, CompletionRequest } from '../../../../src/core/provider/provider';

const conversation: ChatMessage[] = [
  { role: 'system', content: 'be brief' },
  { role: 'user', content: 'list the files' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'list_dir', arguments: '{"path":"."}' }] },
  { role: 'tool', toolCallId: 'call_1', content: 'a.txt' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_2', name: 'read_file', arguments: 'not json' }] },
  { role: 'tool', toolCallId: 'call_2', content: 'error: arguments are not JSON' },
];

function request(overrides: Partial<CompletionRequest> = {}): CompletionRequest {
  return { model: 'llama3.1', messages: conversation, tools: [], signal: new AbortController().signal, ...overrides };
}

describe('the /api/chat body', () => {
  it('carries num_ctx, the sampling settings under Ollama names, and tool results named after their call', () => {
    const body = ollamaChatBody(
      request({
        tools: [{ name: 'list_dir', description: 'lists', parameters: { type: 'object' } }],
        generation: { temperature: 0.2, topP: 0.9, seed: 7, stop: ['END'], maxOutputTokens: 500 },
      }),
      'llama3.1',
      32_768,
    );
    expect(body.stream).toBe(true);
    expect(body.options).toEqual({
      num_ctx: 32_768,
      temperature: 0.2,
      top_p: 0.9,
      seed: 7,
      stop: ['END'],
      num_predict: 500,
    });
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'list_dir', description: 'lists', parameters: { type: 'object' } } },
    ]);
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 'list_dir', arguments: { path: '.' } } }],
    });
    expect(body.messages[3]).toEqual({ role: 'tool', content: 'a.txt', tool_name: 'list_dir' });
    // Arguments the model wrote that are not an object still go back, as it wrote them.
    expect(body.messages[4]).toMatchObject({ tool_calls: [{ function: { arguments: { _unparsed: 'not json' } } }] });
  });

  it('sends no options when there is nothing to set, and think only for an effort', () => {
    expect(ollamaChatBody(request(), 'llama3.1', undefined)).not.toHaveProperty('options');
    expect(ollamaChatBody(request(), 'llama3.1', undefined)).not.toHaveProperty('think');
    expect(ollamaChatBody(request({ generation: { reasoningEffort: 'none' } }), 'qwen3', undefined).think).toBe(false);
    expect(ollamaChatBody(request({ generation: { reasoningEffort: 'high' } }), 'qwen3', undefined).think).toBe(true);
    expect(ollamaChatBody(request({ generation: { reasoningEffort: 'high' } }), 'gpt-oss:20b', undefined).think).toBe(
      'high',
    );
  });
});

describe('the NDJSON stream folded', () => {
  const ids = (index: number): string => `call_${index}_x`;

  it('gives text, reasoning and whole tool calls as events, and the done line its usage and reason', () => {
    const assembly = new OllamaAssembly(ids);
    const events = [
      ...assembly.add({ message: { thinking: 'hmm' }, done: false }),
      ...assembly.add({ message: { content: 'Look' }, done: false }),
      ...assembly.add({
        message: { content: '', tool_calls: [{ function: { name: 'list_dir', arguments: { path: '.' } } }] },
        done: false,
      }),
      ...assembly.add({
        message: { content: '' },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: 120,
        eval_count: 9,
      }),
    ];
    expect(events).toEqual([
      { type: 'reasoning', delta: 'hmm' },
      { type: 'text', delta: 'Look' },
      { type: 'tool_call', index: 0, id: 'call_0_x', name: 'list_dir', argumentsDelta: '{"path":"."}' },
    ]);
    const result = assembly.result('llama3.1');
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls).toEqual([
      { id: 'call_0_x', name: 'list_dir', arguments: '{"path":"."}', idFixed: 'missing' },
    ]);
    expect(result.usage).toEqual({ inputTokens: 120, outputTokens: 9, cachedInputTokens: 0, cacheWriteTokens: 0 });
    expect(assembly.done).toBe(true);
  });

  it('keeps a server id, but not the same one twice', () => {
    const assembly = new OllamaAssembly(ids);
    assembly.add({
      message: {
        tool_calls: [
          { id: 'a', function: { name: 'x', arguments: {} } },
          { id: 'a', function: { name: 'y', arguments: {} } },
        ],
      },
    });
    expect(assembly.result('m').toolCalls.map((c) => [c.id, c.idFixed])).toEqual([
      ['a', undefined],
      ['call_1_x', 'duplicate'],
    ]);
  });

  it('says length for a reply cut by num_predict, and throws the server error of an error line', () => {
    const assembly = new OllamaAssembly(ids);
    assembly.add({ message: { content: 'abc' }, done: true, done_reason: 'length' });
    expect(assembly.result('m').finishReason).toBe('length');
    expect(() => new OllamaAssembly(ids).add({ error: 'model runner has unexpectedly stopped' })).toThrow(
      OllamaStreamError,
    );
  });
});

describe("Ollama's refusals", () => {
  const base = { baseURL: 'http://127.0.0.1:11434', model: 'llama3.1' };

  it('maps each to the shared kind with a hint that says what to do', () => {
    const kind = (status: number, body: string): string => classifyOllamaFailure({ ...base, status, body }).kind;
    expect(kind(404, '{"error":"model \\"llama3.1\\" not found, try pulling it first"}')).toBe('not_found');
    expect(classifyOllamaFailure({ ...base, status: 404, body: '{"error":"x"}' }).hint).toContain(
      'ollama pull llama3.1',
    );
    expect(kind(400, '{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}')).toBe(
      'tool_unsupported',
    );
    expect(kind(400, '{"error":"the input length exceeds the context length"}')).toBe('context_overflow');
    expect(kind(429, '{"error":"too many requests"}')).toBe('rate_limit');
    expect(kind(503, '{"error":"server busy, please try again.  maximum pending requests exceeded"}')).toBe(
      'transient',
    );
    expect(kind(500, '<html>bad gateway</html>')).toBe('transient');
    expect(kind(401, '{"error":"unauthorized"}')).toBe('auth');
    expect(kind(400, '{"error":"invalid options: num_ctx"}')).toBe('bad_request');
  });

  it('reads Retry-After on a 429', () => {
    const error = classifyOllamaFailure({
      ...base,
      status: 429,
      body: '{}',
      headers: new Headers({ 'retry-after': '3' }),
    });
    expect(error.retryAfterMs).toBe(3000);
  });
});
