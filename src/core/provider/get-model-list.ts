/**
 * One `GET` of a server's model list, for the kinds whose list is a plain JSON answer (Anthropic's
 * `GET /v1/models`, Ollama's `GET /api/tags`): bounded in time, no redirect followed (a redirect
 * would carry the key somewhere the user never named), a refusal or a page that is not JSON thrown
 * as an Error naming the address and the status.
 */
import { httpFetch } from './http-fetch';
import type { Fetch } from './sse-response';

/** How long a model list may take before it is given up. */
export const MODEL_LIST_TIMEOUT_MS = 10_000;

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
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`GET ${url} answered with something that is not JSON`);
  }
}
