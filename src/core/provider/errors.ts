/**
 * Provider failures as typed data: a `ProviderError`'s `kind` decides the retry and its `hint`
 * tells the user what to do. classify-error.ts makes them from what an API kind's request threw.
 */
import type { AttemptOutcome } from './provider';

export type ProviderErrorKind = Exclude<AttemptOutcome, 'ok'>;

interface ProviderErrorInit {
  readonly kind: ProviderErrorKind;
  readonly message: string;
  readonly hint: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly cause?: unknown;
}

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  /** What the server asked us to wait (Retry-After), uncapped. */
  readonly retryAfterMs?: number;
  /** One sentence telling the user what to do about it. */
  readonly hint: string;
  /** How many attempts were made before giving up (set by the provider when it throws). */
  attempts?: number;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ProviderError';
    this.kind = init.kind;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.hint = init.hint;
  }
}

/** OpenAI, vLLM, llama.cpp, Ollama, Anthropic and Gemini ways of saying "context window full". */
const CONTEXT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /context_length_exceeded/i,
  /maximum context length/i,
  /exceeds? the (available |model'?s? )?context (window|size|length)/i,
  /context (window|size|length) (is )?(exceeded|too small)/i,
  /exceed_context_size/i,
  /prompt is too long/i,
  /prompt too long/i,
  /input (is )?too long/i,
  /too many tokens/i,
  /input token count.*exceeds/i,
  /exceeds the maximum number of tokens/i,
  /reduce the length of the messages/i,
];

/** Ways of saying "this model or server cannot call tools". */
const TOOL_UNSUPPORTED_PATTERNS: readonly RegExp[] = [
  /does not support tools/i,
  /does ?n[o']t support (function|tool)[ _-]?call/i,
  /tool[ _-]?use is not supported/i,
  /tools? (is|are) not supported/i,
  /(function|tool)[ _-]?calling is not (supported|enabled)/i,
  /support tool use/i,
  /enable-auto-tool-choice/i,
  /tools param requires/i,
  /tool_choice.*not supported/i,
];

export function isContextOverflowText(text: string): boolean {
  return CONTEXT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
}

export function isToolUnsupportedText(text: string): boolean {
  return TOOL_UNSUPPORTED_PATTERNS.some((pattern) => pattern.test(text));
}

/**
 * Milliseconds the server asks us to wait: `retry-after-ms`, else `Retry-After` in seconds or as
 * an HTTP date (read against `nowMs`; without it a date is ignored). Undefined when absent.
 */
export function parseRetryAfterMs(headers: Headers | undefined, nowMs?: number): number | undefined {
  if (headers === undefined) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis !== null && millis.trim() !== '' && Number.isFinite(Number(millis))) {
    return Math.max(0, Math.round(Number(millis)));
  }
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Math.round(Number(value) * 1000));
  const dateMs = Date.parse(value);
  if (Number.isNaN(dateMs) || nowMs === undefined) return undefined;
  return Math.max(0, dateMs - nowMs);
}

export function abortedError(cause?: unknown): ProviderError {
  return new ProviderError({ kind: 'aborted', message: 'the request was cancelled', hint: 'cancelled', cause });
}

export function streamDroppedError(baseURL: string, detail: string, cause?: unknown): ProviderError {
  return new ProviderError({
    kind: 'stream_dropped',
    message: `the stream ended before the answer was complete: ${detail}`,
    hint: `the connection to ${baseURL} dropped mid-answer; tole retries from scratch`,
    cause,
  });
}
