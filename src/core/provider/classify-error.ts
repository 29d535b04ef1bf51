/**
 * `classifyFailure` turns what a provider kind's request threw into a `ProviderError` whose `kind`
 * decides the retry and whose `hint` tells the user what to do. Each API kind says how to read its
 * own errors (`KindErrors`: the status, words and headers of a refusal); the meaning of a status
 * or of "context window full" is decided here, the same for every kind. Apart from errors.ts so
 * that what only reads a ProviderError does not load this.
 */
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

/** A server's refusal as the classification reads it, whatever client received it. */
export interface HttpFailure {
  /** The HTTP status, or the numeric code an error event inside a stream carried. */
  readonly status: number | undefined;
  readonly message: string;
  /** Everything the server said (message, codes, body), searched for known phrases. */
  readonly text: string;
  readonly headers: Headers | undefined;
  /** The server's own name for the error (`overloaded_error`, `rate_limit_error`), when it gave one. */
  readonly type?: string;
}

/** How one API kind's errors are read. */
export interface KindErrors {
  /** The error as a server's refusal, when it is one. */
  httpFailure(err: unknown): HttpFailure | undefined;
  /** The kind's client says it could not reach the server. */
  isConnectionError?(err: unknown): boolean;
  /** The kind's client says the request was cancelled. */
  isAbort?(err: unknown): boolean;
  /** The variable the key is read from, for the hint of a refused key. */
  readonly keyVariable?: string;
  /** What the base URL of this kind looks like, for the hint of a 404 ("ends in /v1"). */
  readonly baseUrlShape?: string;
}

/**
 * A refusal read by tole's own fetch (kinds that need no client library): the status, the body's
 * words and the headers, for `httpFailure` below.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number | undefined,
    message: string,
    /** The body (or the error event) as the server sent it. */
    readonly body: string,
    readonly headers: Headers | undefined,
    /** The server's own name for the error, when its body gave one. */
    readonly type?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** What an `HttpError` says, for a kind's `httpFailure`. */
export function httpErrorFailure(err: unknown): HttpFailure | undefined {
  if (!(err instanceof HttpError)) return undefined;
  return {
    status: err.status,
    message: err.message,
    text: `${err.message} ${err.type ?? ''} ${err.body}`,
    headers: err.headers,
    ...(err.type === undefined ? {} : { type: err.type }),
  };
}

export function classifyFailure(
  err: unknown,
  baseURL: string,
  kind: KindErrors,
  options: ClassifyOptions = {},
): ProviderError {
  if (err instanceof ProviderError) return err;
  if (kind.isAbort?.(err) || isAbortError(err)) return abortedError(err);
  const classified = classifyThrown(err, baseURL, kind, options.nowMs);
  if (options.midStream && classified.status === undefined && isDropLike(classified.kind)) {
    return streamDroppedError(baseURL, classified.message, err);
  }
  return classified;
}

function isDropLike(kind: ProviderErrorKind): boolean {
  return kind === 'transient' || kind === 'bad_request';
}

function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'name' in err && err.name === 'AbortError';
}

function classifyThrown(err: unknown, baseURL: string, kind: KindErrors, nowMs: number | undefined): ProviderError {
  if (kind.isConnectionError?.(err)) return connectionError(err, baseURL);
  const failure = kind.httpFailure(err);
  if (failure !== undefined) return classifyHttpFailure(failure, err, baseURL, kind, nowMs);
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

/** Errors from fetch/undici/node sockets, which a client sometimes lets through mid-stream. */
function isNetworkError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const text = `${err.message} ${describeCause(err)}`;
  if (/ECONN(REFUSED|RESET|ABORTED)|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(text))
    return true;
  return err instanceof TypeError && /fetch failed|terminated|socket|network/i.test(text);
}

function describeCause(err: unknown): string {
  // Clients wrap the socket's error in generic ones ("Connection error.", "fetch failed"): the
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

/** Anthropic's name for "the servers are overloaded" (status 529), which may also come inside a stream. */
const OVERLOADED = /overloaded_error|\boverloaded\b/i;

function classifyHttpFailure(
  failure: HttpFailure,
  err: unknown,
  baseURL: string,
  kind: KindErrors,
  nowMs: number | undefined,
): ProviderError {
  const { status, text } = failure;
  const base = { message: failure.message, status, cause: err };
  if (status === 401 || status === 403) {
    return new ProviderError({
      ...base,
      kind: 'auth',
      hint: `the server at ${baseURL} refused the key: set ${kind.keyVariable ?? 'OPENAI_API_KEY'} or the key variable of your provider`,
    });
  }
  if (status === 429 || failure.type === 'rate_limit_error') return rateLimitError(failure, err, baseURL, nowMs);
  if (status === 529 || failure.type === 'overloaded_error' || (status === undefined && OVERLOADED.test(text))) {
    return new ProviderError({
      ...base,
      kind: 'transient',
      retryAfterMs: parseRetryAfterMs(failure.headers, nowMs),
      hint: `the server at ${baseURL} is overloaded; tole waits and retries`,
    });
  }
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
  return classifyByStatus(failure, err, baseURL, kind);
}

function rateLimitError(failure: HttpFailure, err: unknown, baseURL: string, nowMs: number | undefined): ProviderError {
  const quota = /insufficient_quota|quota|billing/i.test(failure.text);
  return new ProviderError({
    kind: 'rate_limit',
    message: failure.message,
    status: failure.status ?? 429,
    retryAfterMs: parseRetryAfterMs(failure.headers, nowMs),
    hint: quota
      ? `the server at ${baseURL} says your quota is used up: check your plan and billing`
      : `the server at ${baseURL} is rate limiting; tole waits and retries`,
    cause: err,
  });
}

function classifyByStatus(failure: HttpFailure, err: unknown, baseURL: string, kind: KindErrors): ProviderError {
  const { status } = failure;
  const base = { message: failure.message, status, cause: err };
  if (status === 404) {
    return new ProviderError({
      ...base,
      kind: 'not_found',
      hint: `the model name is not known to the server at ${baseURL}: check --model${kind.baseUrlShape ? ` (and that the base URL ${kind.baseUrlShape})` : ''}`,
    });
  }
  if (status !== undefined && status >= 300 && status < 400) {
    const to = failure.headers?.get('location');
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
