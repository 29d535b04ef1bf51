/**
 * How Anthropic's refusals are read (https://docs.anthropic.com/en/api/errors): an HTTP status
 * with a body `{"type":"error","error":{"type":"overloaded_error","message":"..."}}`, or the same
 * object as an `error` event inside a stream that had started (an `overloaded_error` there is
 * what a 529 is outside one). The error's `type` names it: `rate_limit_error` (429),
 * `overloaded_error` (529), `invalid_request_error` (400, "prompt is too long" for a full
 * context window), `authentication_error` (401), `permission_error` (403), `not_found_error`.
 */
import { type ClassifyOptions, classifyFailure, HttpError, httpErrorFailure, type KindErrors } from '../classify-error';
import type { ProviderError } from '../errors';

const anthropicErrors: KindErrors = {
  httpFailure: httpErrorFailure,
  keyVariable: 'ANTHROPIC_API_KEY',
};

export function classifyAnthropicError(err: unknown, baseURL: string, options: ClassifyOptions = {}): ProviderError {
  return classifyFailure(err, baseURL, anthropicErrors, options);
}

/** The error object of a body or an `error` event: its type and message, when it has them. */
function errorOf(body: unknown): { type?: string; message?: string } {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error !== 'object' || error === null) return {};
  const { type, message } = error as { type?: unknown; message?: unknown };
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

/** A refused request (status and body as the server sent them). */
export function refusalError(status: number, bodyText: string, headers: Headers): HttpError {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const { type, message } = errorOf(body);
  const words = message ?? (bodyText.replace(/\s+/g, ' ').trim().slice(0, 200) || 'no message');
  return new HttpError(status, `${status}${type ? ` ${type}` : ''}: ${words}`, bodyText, headers, type);
}

/** The status an error type stands for when it comes inside a stream (the documents pair them). */
const STATUS_OF_TYPE: Readonly<Record<string, number>> = { overloaded_error: 529, rate_limit_error: 429 };

/** An `error` event inside a stream. */
export function streamErrorEvent(data: string, parsed: unknown, headers: Headers): HttpError {
  const { type, message } = errorOf(parsed);
  return new HttpError(
    type === undefined ? undefined : STATUS_OF_TYPE[type],
    `${type ?? 'error'}: ${message ?? 'the stream reported an error'}`,
    data,
    headers,
    type,
  );
}
