import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  UnprocessableEntityError,
} from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../../src/core/provider/openai-chat/classify-openai-error';
import { parseRetryAfterMs, ProviderError } from '../../../src/core/provider/errors';

const baseURL = 'http://127.0.0.1:11434/v1';

function apiError(status: number, message: string, headers: Record<string, string> = {}): APIError {
  return APIError.generate(status, { error: { message } }, undefined, new Headers(headers));
}

describe('classifyError', () => {
  const overflowPhrasings = [
    "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens", // OpenAI, vLLM
    'the request exceeds the available context size, try increasing it', // llama.cpp
    'input length exceeds the context window of this model', // generic
    'prompt is too long: 210000 tokens > 200000 maximum', // Anthropic
    'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', // Gemini
    'context size exceeded: too many tokens in prompt', // llama.cpp-based servers
  ];
  for (const phrasing of overflowPhrasings) {
    it(`reads a context overflow in "${phrasing.slice(0, 40)}..."`, () => {
      const error = classifyError(apiError(400, phrasing), baseURL);
      expect(error.kind).toBe('context_overflow');
      expect(error.status).toBe(400);
    });
  }

  it('reads a context overflow from the error code alone', () => {
    const error = APIError.generate(
      400,
      { error: { message: 'bad', code: 'context_length_exceeded' } },
      undefined,
      new Headers(),
    );
    expect(classifyError(error, baseURL).kind).toBe('context_overflow');
  });

  it('reads a context overflow even when the server answers 500 (older llama.cpp)', () => {
    expect(classifyError(apiError(500, 'the request exceeds the available context size'), baseURL).kind).toBe(
      'context_overflow',
    );
  });

  const toolPhrasings: ReadonlyArray<[number, string]> = [
    [400, 'registry.ollama.ai/library/phi:latest does not support tools'],
    [422, 'tool use is not supported for this model'],
    [404, 'No endpoints found that support tool use.'],
    [400, 'tools is not supported'],
    [400, 'Function calling is not enabled for this model'],
  ];
  for (const [status, phrasing] of toolPhrasings) {
    it(`reads "${phrasing}" (${status}) as tool_unsupported`, () => {
      expect(classifyError(apiError(status, phrasing), baseURL).kind).toBe('tool_unsupported');
    });
  }

  it('maps statuses to kinds', () => {
    expect(classifyError(apiError(401, 'no'), baseURL).kind).toBe('auth');
    expect(classifyError(apiError(403, 'no'), baseURL).kind).toBe('auth');
    expect(classifyError(apiError(404, 'model "x" not found, try pulling it first'), baseURL).kind).toBe('not_found');
    expect(classifyError(apiError(408, 'timeout'), baseURL).kind).toBe('transient');
    expect(classifyError(apiError(502, 'bad gateway'), baseURL).kind).toBe('transient');
    expect(classifyError(apiError(503, 'loading model'), baseURL).kind).toBe('transient');
    expect(classifyError(apiError(400, 'temperature must be <= 2'), baseURL).kind).toBe('bad_request');
    expect(classifyError(apiError(422, 'missing field messages'), baseURL).kind).toBe('bad_request');
  });

  it('keeps the SDK error classes it is given', () => {
    expect(apiError(400, 'x')).toBeInstanceOf(BadRequestError);
    expect(apiError(404, 'x')).toBeInstanceOf(NotFoundError);
    expect(apiError(422, 'x')).toBeInstanceOf(UnprocessableEntityError);
    expect(apiError(500, 'x')).toBeInstanceOf(InternalServerError);
    expect(apiError(429, 'x')).toBeInstanceOf(RateLimitError);
  });

  it('reads a 429 as rate_limit with the wait the server asks for', () => {
    const error = classifyError(apiError(429, 'slow down', { 'retry-after': '3' }), baseURL);
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryAfterMs: 3000 });
    expect(classifyError(apiError(429, 'slow down'), baseURL).retryAfterMs).toBeUndefined();
  });

  it('tells a used-up quota apart in the hint', () => {
    const error = classifyError(
      apiError(429, 'You exceeded your current quota, please check your plan and billing details.'),
      baseURL,
    );
    expect(error.kind).toBe('rate_limit');
    expect(error.hint).toMatch(/billing/);
  });

  it('reads connection failures and timeouts as transient, naming the server', () => {
    const refused = new APIConnectionError({
      message: 'Connection error.',
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const error = classifyError(refused, baseURL);
    expect(error.kind).toBe('transient');
    expect(error.hint).toContain(`is the server at ${baseURL} running?`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(classifyError(new APIConnectionTimeoutError(), baseURL).kind).toBe('transient');
  });

  it('reads aborts as aborted', () => {
    expect(classifyError(new APIUserAbortError(), baseURL).kind).toBe('aborted');
    expect(classifyError(new DOMException('This operation was aborted', 'AbortError'), baseURL).kind).toBe('aborted');
  });

  it('reads a broken socket in the middle of a stream as stream_dropped', () => {
    const terminated = new TypeError('terminated', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    expect(classifyError(terminated, baseURL).kind).toBe('transient');
    expect(classifyError(terminated, baseURL, { midStream: true }).kind).toBe('stream_dropped');
    expect(classifyError(new SyntaxError('Unexpected token'), baseURL, { midStream: true }).kind).toBe(
      'stream_dropped',
    );
  });

  it('reads an error event inside a stream by the code and message it carries', () => {
    const inStream = (error: object) => new APIError(undefined, error, undefined, new Headers());
    expect(
      classifyError(inStream({ message: 'Rate limit exceeded', code: 429 }), baseURL, { midStream: true }).kind,
    ).toBe('rate_limit');
    expect(classifyError(inStream({ message: 'prompt is too long' }), baseURL, { midStream: true }).kind).toBe(
      'context_overflow',
    );
    expect(classifyError(inStream({ message: 'upstream went away' }), baseURL, { midStream: true }).kind).toBe(
      'stream_dropped',
    );
  });

  it('does not retry an unknown error by default', () => {
    const error = classifyError(new RangeError('who knows'), baseURL);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.kind).toBe('bad_request');
  });

  it('passes a ProviderError through unchanged', () => {
    const original = new ProviderError({ kind: 'auth', message: 'm', hint: 'h' });
    expect(classifyError(original, baseURL)).toBe(original);
  });
});

describe('parseRetryAfterMs', () => {
  it('reads seconds, fractional seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const nowMs = Date.parse('2030-05-01T12:00:00Z');
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Wed, 01 May 2030 12:00:45 GMT' }), nowMs)).toBe(45_000);
  });

  it('ignores what it cannot read and never returns a negative wait', () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers())).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }), 0)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Wed, 01 May 2030 12:00:45 GMT' }))).toBeUndefined();
    expect(
      parseRetryAfterMs(new Headers({ 'retry-after': 'Wed, 01 May 2030 12:00:45 GMT' }), Date.parse('2031-01-01')),
    ).toBe(0);
  });
});
