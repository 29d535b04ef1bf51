/**
 * One `GET` of a server's model list, for the kinds whose list is a plain JSON answer (Anthropic's
 * `GET /v1/models`, Ollama's `GET /api/tags`): bounded in time, no redirect followed (a redirect
 * would carry the key somewhere the user never named), a refusal or a page that is not JSON thrown
 * as an Error naming the address and the status.
 */
import { httpFetch } from './http-fetch';
import type { Fetch } from './sse-response';

/** How long a model list may take before it is given up. */
const MODEL_LIST_TIMEOUT_MS = 10_000;
/** How large a model list's answer may be (a thousand models take about 100 KB). */
export const MODEL_LIST_MAX_BYTES = 8 * 1024 * 1024;

export async function getModelList(
  url: string,
  headers: Readonly<Record<string, string>>,
  options: { readonly fetch?: Fetch | undefined; readonly signal?: AbortSignal | undefined },
): Promise<unknown> {
  const timeout = AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const response = await (options.fetch ?? httpFetch)(url, {
    method: 'GET',
    headers: { accept: 'application/json', ...headers },
    redirect: 'manual',
    signal,
  });
  const text = await readUpTo(response, url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`GET ${url} answered with something that is not JSON`);
  }
}

/**
 * The answer's text, refused once it passes MODEL_LIST_MAX_BYTES: a server that keeps sending
 * would otherwise fill memory until the time limit (gigabytes in ten seconds from a local one).
 */
async function readUpTo(response: Response, url: string): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MODEL_LIST_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`GET ${url} answered more than ${MODEL_LIST_MAX_BYTES / 1024 / 1024} MB: not a model list`);
    }
    text += decoder.decode(value, { stream: true });
  }
}
