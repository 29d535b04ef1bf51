/**
 * How the `openai` package's errors are read: its APIError carries the status, the body and the
 * headers; a connection failure and a cancel have classes of their own. The classification itself
 * is the one every kind shares (../classify-error.ts).
 */
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { type ClassifyOptions, classifyFailure, type HttpFailure, type KindErrors } from '../classify-error';
import type { ProviderError } from '../errors';

const openAIErrors: KindErrors = {
  httpFailure: (err) => (err instanceof APIError ? apiErrorFailure(err) : undefined),
  isConnectionError: (err) => err instanceof APIConnectionError,
  isAbort: (err) => err instanceof APIUserAbortError,
  baseUrlShape: 'ends in /v1',
};

export function classifyError(err: unknown, baseURL: string, options: ClassifyOptions = {}): ProviderError {
  return classifyFailure(err, baseURL, openAIErrors, options);
}

function apiErrorFailure(err: APIError): HttpFailure {
  return { status: effectiveStatus(err), message: err.message, text: errorText(err), headers: err.headers };
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
