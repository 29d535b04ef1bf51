/**
 * The Gemini API's refusals as tole's shared error kinds. An error body is
 * `{"error": {"code", "message", "status", "details"}}` in Google's API error model
 * (https://ai.google.dev/gemini-api/docs/troubleshooting, "Backend service error codes";
 * https://cloud.google.com/apis/design/errors): 400 INVALID_ARGUMENT (a malformed request, and a
 * prompt over the model's limit: "The input token count (N) exceeds the maximum number of tokens
 * allowed (M)"), 400 FAILED_PRECONDITION (no free tier in the user's country), 400 with reason
 * API_KEY_INVALID and 403 PERMISSION_DENIED (the key), 404 NOT_FOUND (the model), 429
 * RESOURCE_EXHAUSTED (rate or quota; `details` may hold a RetryInfo with `retryDelay` "31s"),
 * 500 INTERNAL, 503 UNAVAILABLE (overloaded), 504 DEADLINE_EXCEEDED.
 */
import { isContextOverflowText, parseRetryAfterMs, ProviderError } from '../errors';

interface GeminiFailure {
  readonly status: number;
  /** The error object (the body's `error`), or the body's text when it was not one. */
  readonly error: unknown;
  readonly headers?: Headers;
  readonly baseURL: string;
  readonly model: string;
  readonly apiKeyEnv?: string;
  readonly nowMs?: number;
}

interface GoogleError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly status?: unknown;
  readonly details?: unknown;
}

/** The `error` of a body's text, or the text itself when it holds none. */
export function geminiErrorOf(body: string): unknown {
  try {
    const parsed: unknown = JSON.parse(body);
    // A streamed request's error comes as a one-element array on some paths.
    const first = Array.isArray(parsed) ? parsed[0] : parsed;
    const error = (first as { error?: unknown } | null)?.error;
    if (error !== undefined) return error;
  } catch {
    // not JSON
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, 300);
}

export function classifyGeminiFailure(failure: GeminiFailure): ProviderError {
  const { status, baseURL, model } = failure;
  const error = (typeof failure.error === 'object' && failure.error !== null ? failure.error : {}) as GoogleError;
  const words =
    typeof failure.error === 'string' ? failure.error : typeof error.message === 'string' ? error.message : '';
  const code = typeof error.status === 'string' ? error.status : '';
  const reasons = JSON.stringify(error.details ?? '');
  const message = `${baseURL} answered ${status}${code ? ` ${code}` : ''}: ${words || '(no message)'}`;
  const base = { message, status };
  const keyVar = failure.apiKeyEnv ?? 'GEMINI_API_KEY';
  if (status === 401 || status === 403 || /API_KEY_INVALID|API key not valid/i.test(`${words} ${reasons}`)) {
    return new ProviderError({
      ...base,
      kind: 'auth',
      hint: `the Gemini API refused the key: check that ${keyVar} holds a valid key (aistudio.google.com/apikey)`,
    });
  }
  if (status === 429 || code === 'RESOURCE_EXHAUSTED') {
    const quota = /quota|billing|per day|PerDay/i.test(`${words} ${reasons}`);
    return new ProviderError({
      ...base,
      kind: 'rate_limit',
      retryAfterMs: parseRetryAfterMs(failure.headers, failure.nowMs) ?? retryDelayMs(error.details),
      hint: quota
        ? "the Gemini API says the key's quota is used up: wait for it to renew, or check the plan and billing of its project"
        : 'the Gemini API is rate limiting; tole waits and retries',
    });
  }
  if (isContextOverflowText(words)) {
    return new ProviderError({
      ...base,
      kind: 'context_overflow',
      hint: "the conversation is longer than the model's context window: /compact it or pick a model with a larger window",
    });
  }
  if (status === 404 || code === 'NOT_FOUND') {
    return new ProviderError({
      ...base,
      kind: 'not_found',
      hint: `the Gemini API does not know the model ${model}: check --model (names look like gemini-2.5-flash)`,
    });
  }
  if (status >= 300 && status < 400) {
    return new ProviderError({
      ...base,
      kind: 'bad_request',
      hint: `the server at ${baseURL} redirects; tole does not follow a provider's redirects: give the right address with --base-url`,
    });
  }
  if (status === 408 || status >= 500) {
    return new ProviderError({
      ...base,
      kind: 'transient',
      retryAfterMs: parseRetryAfterMs(failure.headers, failure.nowMs),
      hint: `the Gemini API failed (${status}${code ? ` ${code}` : ''}); tole retries on its own`,
    });
  }
  return new ProviderError({
    ...base,
    kind: 'bad_request',
    hint: 'the Gemini API rejected the request; its message says why',
  });
}

/** The wait a RetryInfo detail asks for (`"retryDelay": "31s"` or "1.5s"), in milliseconds. */
function retryDelayMs(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
    const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay.trim()) : null;
    if (match) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}
