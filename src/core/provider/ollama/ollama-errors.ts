/**
 * Ollama's refusals as tole's shared error kinds. Ollama answers a failed request with a status
 * and `{"error": "<text>"}` (docs/api.md, "Errors"): 404 for a model it has not pulled ("model
 * 'x' not found"), 400 for a model that cannot call tools ("... does not support tools") or a
 * bad request, 429 from a server that limits (Ollama's cloud), 503 when its queue is full
 * ("server busy, please try again"), 500 when the runner fails (out of memory, a crashed model).
 * A prompt longer than the window is cut by Ollama, not refused; newer servers that refuse say
 * "exceeds the context length", which the shared patterns know.
 */
import { isContextOverflowText, isToolUnsupportedText, parseRetryAfterMs, ProviderError } from '../errors';

interface OllamaFailure {
  readonly status: number;
  /** The body as sent (JSON or not). */
  readonly body: string;
  readonly headers?: Headers;
  readonly baseURL: string;
  readonly model: string;
  readonly nowMs?: number;
}

/** The `error` text of an Ollama error body, else the body itself (trimmed, capped). */
function ollamaErrorText(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = (parsed as { error?: unknown } | null)?.error;
    if (typeof error === 'string') return error;
    const message = (error as { message?: unknown } | null)?.message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON: the text itself
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, 300);
}

export function classifyOllamaFailure(failure: OllamaFailure): ProviderError {
  const { status, baseURL, model } = failure;
  const text = ollamaErrorText(failure.body);
  const message = `${baseURL} answered ${status}: ${text || '(no message)'}`;
  const base = { message, status };
  if (status === 401 || status === 403) {
    return new ProviderError({
      ...base,
      kind: 'auth',
      hint: `the server at ${baseURL} wants a key it did not get or did not accept: set the key variable of your provider`,
    });
  }
  if (status === 429) {
    return new ProviderError({
      ...base,
      kind: 'rate_limit',
      retryAfterMs: parseRetryAfterMs(failure.headers, failure.nowMs),
      hint: `the server at ${baseURL} is rate limiting; tole waits and retries`,
    });
  }
  if (isContextOverflowText(text)) {
    return new ProviderError({
      ...base,
      kind: 'context_overflow',
      hint: "the conversation is longer than the model's context window: /compact it, or give the model a larger window",
    });
  }
  if (isToolUnsupportedText(text)) {
    return new ProviderError({
      ...base,
      kind: 'tool_unsupported',
      hint: `the model ${model} cannot call tools in Ollama: pick one that can (ollama.com/search?c=tools)`,
    });
  }
  if (status === 404) {
    return new ProviderError({
      ...base,
      kind: 'not_found',
      hint: `Ollama at ${baseURL} does not have the model ${model}: run \`ollama pull ${model}\`, or name another with --model`,
    });
  }
  if (status >= 300 && status < 400) {
    return new ProviderError({
      ...base,
      kind: 'bad_request',
      hint: `the server at ${baseURL} redirects; tole does not follow a provider's redirects: give the right address with --base-url`,
    });
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new ProviderError({
      ...base,
      kind: 'transient',
      retryAfterMs: parseRetryAfterMs(failure.headers, failure.nowMs),
      hint: `Ollama at ${baseURL} failed (${status}); tole retries, and if it persists, look at the server's log (a model too large for memory fails this way)`,
    });
  }
  return new ProviderError({
    ...base,
    kind: 'bad_request',
    hint: `Ollama at ${baseURL} rejected the request; its message says why`,
  });
}
