/**
 * `classifyError` turns whatever the `openai` package (or the fetch beneath it) threw into a
 * `ProviderError` whose `kind` decides the retry and whose `hint` tells the user what to do. Apart
 * from errors.ts so that what only reads a ProviderError does not load the provider client.
 */
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import {
  ProviderError,
  type ProviderErrorKind,
  abortedError,
  streamDroppedError,
  parseRetryAfterMs,
  isContextOverflowText,
  isToolUnsupportedText,
} from './errors';

export interface ClassifyOptions {
  /** Now, from the injected clock: needed to read a Retry-After given as an HTTP date. */
  readonly nowMs?: number;
  /** The error came while reading the body of a stream that had started. */
  readonly midStream?: boolean;
}

export function classifyError(err: unknown, baseURL: string, options: ClassifyOptions = {}): ProviderError {
  if (err instanceof ProviderError) return err;
  if (isAbort(err)) return abortedError(err);
  const classified = classifyThrown(err, baseURL, options.nowMs);
  if (options.midStream && classified.status === undefined && isDropLike(classified.kind)) {
    return streamDroppedError(baseURL, classified.message, err);
  }
  return classified;
}

function isDropLike(kind: ProviderErrorKind): boolean {
  return kind === 'transient' || kind === 'bad_request';
}

function isAbort(err: unknown): boolean {
  if (err instanceof APIUserAbortError) return true;
  return typeof err === 'object' && err !== null && 'name' in err && err.name === 'AbortError';
}

function classifyThrown(err: unknown, baseURL: string, nowMs: number | undefined): ProviderError {
  if (err instanceof APIConnectionError) return connectionError(err, baseURL);
  if (err instanceof APIError) return classifyApiError(err, baseURL, nowMs);
  if (isNetworkError(err)) return connectionError(err, baseURL);
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderError({
    kind: 'bad_request',
    message: `unexpected error talking to ${baseURL}: ${message}`,
    hint: `the exchange with ${baseURL} failed in a way tole does not know; the message says what went wrong`,
    cause: err,
  });
}

function connectionError(err: unknown, baseURL: string): ProviderError {
  const detail = describeCause(err);
  return new ProviderError({
    kind: 'transient',
    message: `could not reach ${baseURL}: ${detail}`,
    hint: `is the server at ${baseURL} running? check the base URL and your network`,
    cause: err,
  });
}

/** Errors from fetch/undici/node sockets, which the SDK sometimes lets through mid-stream. */
function isNetworkError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const text = `${err.message} ${describeCause(err)}`;
  if (/ECONN(REFUSED|RESET|ABORTED)|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(text))
    return true;
  return err instanceof TypeError && /fetch failed|terminated|socket|network/i.test(text);
}

function describeCause(err: unknown): string {
  // The SDK wraps the socket's error in generic ones ("Connection error.", "fetch failed"): the
  // innermost error with a code ("connect ECONNREFUSED 127.0.0.1:9") is the one that explains.
  const chain: Error[] = [];
  for (let current: unknown = err; chain.length < 6 && current instanceof Error; current = current.cause)
    chain.push(current);
  if (chain.length === 0) return String(err);
  const withCode = [...chain].reverse().find((e) => typeof (e as { code?: unknown }).code === 'string');
  const chosen = withCode ?? chain[chain.length - 1]!;
  const code = (chosen as { code?: unknown }).code;
  return typeof code === 'string' && !chosen.message.includes(code) ? `${chosen.message} (${code})` : chosen.message;
}

/** The HTTP status, or for an error event inside a stream the numeric code its body carries. */
function effectiveStatus(err: APIError): number | undefined {
  if (typeof err.status === 'number') return err.status;
  const code = (err.error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : undefined;
}

function errorText(err: APIError): string {
  const body = err.error === undefined ? '' : safeStringify(err.error);
  return [err.message, err.code ?? '', err.type ?? '', body].join(' ');
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function classifyApiError(err: APIError, baseURL: string, nowMs: number | undefined): ProviderError {
  const status = effectiveStatus(err);
  const text = errorText(err);
  const base = { message: err.message, status, cause: err };
  if (status === 401 || status === 403) {
    return new ProviderError({
      ...base,
      kind: 'auth',
      hint: `the server at ${baseURL} refused the key: set OPENAI_API_KEY or the key variable of your provider`,
    });
  }
  if (status === 429) return rateLimitError(err, baseURL, text, nowMs);
  if (isContextOverflowText(text)) {
    return new ProviderError({
      ...base,
      kind: 'context_overflow',
      hint: "the conversation is longer than the model's context window: /compact it or pick a model with a larger window",
    });
  }
  if (
    (status === undefined || status === 400 || status === 404 || status === 422 || status >= 500) &&
    isToolUnsupportedText(text)
  ) {
    return new ProviderError({
      ...base,
      kind: 'tool_unsupported',
      hint: 'this model or server cannot call tools: pick a model that can (vLLM needs --enable-auto-tool-choice, llama.cpp needs --jinja)',
    });
  }
  return classifyByStatus(err, status, baseURL);
}

function rateLimitError(err: APIError, baseURL: string, text: string, nowMs: number | undefined): ProviderError {
  const quota = /insufficient_quota|quota|billing/i.test(text);
  return new ProviderError({
    kind: 'rate_limit',
    message: err.message,
    status: 429,
    retryAfterMs: parseRetryAfterMs(err.headers, nowMs),
    hint: quota
      ? `the server at ${baseURL} says your quota is used up: check your plan and billing`
      : `the server at ${baseURL} is rate limiting; tole waits and retries`,
    cause: err,
  });
}

function classifyByStatus(err: APIError, status: number | undefined, baseURL: string): ProviderError {
  const base = { message: err.message, status, cause: err };
  if (status === 404) {
    return new ProviderError({
      ...base,
      kind: 'not_found',
      hint: `the model name is not known to the server at ${baseURL}: check --model (and that the base URL ends in /v1)`,
    });
  }
  if (status !== undefined && status >= 300 && status < 400) {
    const to = err.headers?.get('location');
    return new ProviderError({
      ...base,
      kind: 'bad_request',
      hint: `the server at ${baseURL} redirects${to ? ` to ${to}` : ''}; tole does not follow a provider's redirects (they would take the conversation elsewhere): if that is the right server, give its URL with --base-url`,
    });
  }
  if (status === undefined || status === 408 || status === 409 || status >= 500) {
    return new ProviderError({
      ...base,
      kind: 'transient',
      hint: `the server at ${baseURL} failed${status === undefined ? '' : ` (${status})`}; tole retries on its own, and if it persists, is the server healthy?`,
    });
  }
  return new ProviderError({
    ...base,
    kind: 'bad_request',
    hint: `the server at ${baseURL} rejected the request; its message says why (check --model and the server's options)`,
  });
}
