/**
 * One streaming request of a kind that needs no client library (Ollama, Gemini): a JSON body
 * POSTed over tole's node:http fetch, redirects not followed (they would take the conversation,
 * and the key, somewhere the user did not name), the wait for the answer's headers bounded by
 * `timeoutMs`, and a refusal (any status but 2xx) read whole as a `Refusal` for the kind to
 * classify. The body of an accepted answer is left to the kind's stream reader.
 */
import { abortable } from './attempt-watchdog';
import { httpFetch } from './http-fetch';
import type { Fetch } from './sse-response';

/** A refused request: the status, the body's text (capped) and the headers. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Headers,
  ) {
    super(`the server answered ${status}`);
    this.name = 'Refusal';
  }
}

/** How much of a refusal's body is read: enough for any error object. */
const MAX_REFUSAL_BYTES = 64 * 1024;

interface PostOptions {
  readonly url: string;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** The attempt's signal (the caller's, the watchdog's). */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly fetch?: Fetch;
}

export async function postJson(options: PostOptions): Promise<Response> {
  const headerWait = new AbortController();
  const forward = (): void => headerWait.abort();
  options.signal.addEventListener('abort', forward, { once: true });
  const timer = setTimeout(forward, options.timeoutMs);
  let response: Response;
  try {
    response = await abortable(
      (options.fetch ?? httpFetch)(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify(options.body),
        redirect: 'manual',
        signal: headerWait.signal,
      }),
      headerWait.signal,
    );
  } catch (error) {
    if (!options.signal.aborted && headerWait.signal.aborted)
      throw new TypeError(`fetch failed: no answer within ${options.timeoutMs} ms`, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // From here the attempt's own signal (not the header wait's) ends the body.
  options.signal.removeEventListener('abort', forward);
  if (response.status >= 200 && response.status < 300) return response;
  throw new Refusal(response.status, await capped(response, options.signal), response.headers);
}

async function capped(response: Response, signal: AbortSignal): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < MAX_REFUSAL_BYTES) {
      const { done, value } = await abortable(reader.read(), signal);
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // what was read says enough
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text.slice(0, MAX_REFUSAL_BYTES);
}
