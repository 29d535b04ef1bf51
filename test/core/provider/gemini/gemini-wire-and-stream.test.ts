import { describe, expect, it } from 'vitest';
import { classifyGeminiFailure, geminiErrorOf } from '../../../../src/core/provider/gemini/gemini-errors';
import { GeminiAssembly, GeminiStreamError } from '../../../../src/core/provider/gemini/gemini-stream';
import { geminiBody, geminiStreamUrl, INVENTED_ID_PREFIX } from '../../../../src/core/provider/gemini/gemini-wire';
import type { ChatMessage, CompletionRequest } from '../../../../src/core/provider/provider';

function request(messages: ChatMessage[], overrides: Partial<CompletionRequest> = {}): CompletionRequest {
  return { model: 'gemini-2.5-flash', messages, tools: [], signal: new AbortController().signal, ...overrides };
}

describe('the streamGenerateContent request', () => {
  it('goes to models/{model}:streamGenerateContent with alt=sse', () => {
    expect(geminiStreamUrl('http://h/v1beta/', 'gemini-2.5-flash')).toBe(
      'http://h/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(geminiStreamUrl('http://h/v1beta', 'models/gemini-2.5-pro')).toBe(
      'http://h/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    // A model name cannot add a path or a query of its own.
    expect(geminiStreamUrl('http://h/v1beta', 'x?key=1#y')).toBe(
      'http://h/v1beta/models/x%3Fkey%3D1%23y:streamGenerateContent?alt=sse',
    );
    const climbing = new URL(geminiStreamUrl('http://h/v1beta', 'models/../../upload/x'));
    expect(climbing.pathname.startsWith('/v1beta/models/')).toBe(true);
  });

  it('puts system text in systemInstruction, calls and their answers in model and user turns, results of one reply together', () => {
    const body = geminiBody(
      request([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'look' },
        {
          role: 'assistant',
          content: 'Looking.',
          toolCalls: [
            { id: 'srv-1', name: 'list_dir', arguments: '{"path":"."}' },
            { id: `${INVENTED_ID_PREFIX}abc`, name: 'read_file', arguments: '{"path":"a"}' },
          ],
        },
        { role: 'tool', toolCallId: 'srv-1', content: 'a' },
        { role: 'tool', toolCallId: `${INVENTED_ID_PREFIX}abc`, content: 'hello' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'thanks' },
      ]),
      'gemini-2.5-flash',
    );
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'be brief' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'look' }] },
      {
        role: 'model',
        parts: [
          { text: 'Looking.' },
          { functionCall: { name: 'list_dir', args: { path: '.' }, id: 'srv-1' } },
          { functionCall: { name: 'read_file', args: { path: 'a' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'list_dir', response: { output: 'a' }, id: 'srv-1' } },
          { functionResponse: { name: 'read_file', response: { output: 'hello' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'Done.' }] },
      { role: 'user', parts: [{ text: 'thanks' }] },
    ]);
  });

  it('declares tools with their JSON Schema and maps the generation settings', () => {
    const body = geminiBody(
      request([{ role: 'user', content: 'hi' }], {
        tools: [{ name: 't', description: 'd', parameters: { type: 'object', additionalProperties: false } }],
        generation: { temperature: 0, topP: 0.5, seed: 1, stop: ['x'], maxOutputTokens: 100, reasoningEffort: 'low' },
      }),
      'gemini-2.5-flash',
    );
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 't', description: 'd', parametersJsonSchema: { type: 'object', additionalProperties: false } },
        ],
      },
    ]);
    expect(body.generationConfig).toEqual({
      temperature: 0,
      topP: 0.5,
      seed: 1,
      stopSequences: ['x'],
      maxOutputTokens: 100,
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
    const three = geminiBody(request([], { generation: { reasoningEffort: 'high' } }), 'gemini-3-pro-preview');
    expect(three.generationConfig).toEqual({ thinkingConfig: { thinkingLevel: 'high', includeThoughts: true } });
  });
});

describe('the SSE stream folded', () => {
  const ids = (index: number): string => `${index}`;

  it('gives thoughts as reasoning, text, whole calls, and the usage with the cached part apart', () => {
    const assembly = new GeminiAssembly(ids);
    const events = [
      ...assembly.add({ candidates: [{ content: { parts: [{ text: 'plan', thought: true }] } }] }),
      ...assembly.add({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] }),
      ...assembly.add({
        candidates: [
          { content: { parts: [{ functionCall: { name: 'list_dir', args: { path: '.' } } }] }, finishReason: 'STOP' },
        ],
        usageMetadata: {
          promptTokenCount: 2000,
          cachedContentTokenCount: 1500,
          candidatesTokenCount: 10,
          thoughtsTokenCount: 5,
        },
      }),
    ];
    expect(events).toEqual([
      { type: 'reasoning', delta: 'plan' },
      { type: 'text', delta: 'Hi' },
      { type: 'tool_call', index: 0, id: `${INVENTED_ID_PREFIX}0`, name: 'list_dir', argumentsDelta: '{"path":"."}' },
    ]);
    const result = assembly.result('gemini-2.5-flash');
    expect(result.finishReason).toBe('tool_calls');
    expect(result.usage).toEqual({ inputTokens: 2000, outputTokens: 15, cachedInputTokens: 1500, cacheWriteTokens: 0 });
  });

  it('names the filters and the output limit, and a blocked prompt as a refusal', () => {
    const cut = new GeminiAssembly(ids);
    cut.add({ candidates: [{ content: { parts: [{ text: 'a' }] }, finishReason: 'MAX_TOKENS' }] });
    expect(cut.result('m').finishReason).toBe('length');
    const filtered = new GeminiAssembly(ids);
    filtered.add({ candidates: [{ finishReason: 'SAFETY' }] });
    expect(filtered.result('m').finishReason).toBe('content_filter');
    const blocked = new GeminiAssembly(ids);
    blocked.add({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } });
    expect(blocked.result('m')).toMatchObject({
      finishReason: 'content_filter',
      refusal: expect.stringContaining('PROHIBITED_CONTENT'),
    });
  });

  it('throws an error event as the server error it is', () => {
    const assembly = new GeminiAssembly(ids);
    let thrown: unknown;
    try {
      assembly.add({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GeminiStreamError);
    expect((thrown as GeminiStreamError).code).toBe(503);
  });
});

describe("Gemini's refusals", () => {
  const base = { baseURL: 'https://generativelanguage.googleapis.com/v1beta', model: 'gemini-2.5-flash' };
  const classify = (status: number, body: unknown, headers?: Headers) =>
    classifyGeminiFailure({
      ...base,
      status,
      error: geminiErrorOf(JSON.stringify(body)),
      ...(headers ? { headers } : {}),
    });

  it('maps 429, 503, the token limit, a bad key and an unknown model', () => {
    const limited = classify(429, {
      error: {
        code: 429,
        message: 'You exceeded your current quota, please check your plan and billing details.',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '31s' }],
      },
    });
    expect(limited.kind).toBe('rate_limit');
    expect(limited.retryAfterMs).toBe(31_000);
    expect(limited.hint).toContain('quota');
    expect(
      classify(503, { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }).kind,
    ).toBe('transient');
    expect(
      classify(400, {
        error: {
          code: 400,
          message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
          status: 'INVALID_ARGUMENT',
        },
      }).kind,
    ).toBe('context_overflow');
    const badKey = classify(400, {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ reason: 'API_KEY_INVALID' }],
      },
    });
    expect(badKey.kind).toBe('auth');
    expect(badKey.hint).toContain('GEMINI_API_KEY');
    expect(classify(404, { error: { code: 404, message: 'models/x is not found', status: 'NOT_FOUND' } }).kind).toBe(
      'not_found',
    );
    expect(
      classify(400, { error: { code: 400, message: 'Invalid JSON payload', status: 'INVALID_ARGUMENT' } }).kind,
    ).toBe('bad_request');
  });

  it('reads an error body sent as a one-element array, and a body that is not JSON', () => {
    expect(geminiErrorOf('[{"error":{"code":500,"message":"m","status":"INTERNAL"}}]')).toEqual({
      code: 500,
      message: 'm',
      status: 'INTERNAL',
    });
    expect(classifyGeminiFailure({ ...base, status: 502, error: geminiErrorOf('<html>Bad Gateway</html>') }).kind).toBe(
      'transient',
    );
  });
});
