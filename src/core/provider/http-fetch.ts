/**
 * The `fetch` the provider's client runs on: node:http / node:https. A streamed reply is ~2,000
 * small network reads; Node's own fetch (undici) hands each one through its JS HTTP parser and
 * a web ReadableStream before tole sees it, which took about as much CPU as parsing the events.
 * Here an event stream's body is left as the socket's IncomingMessage (its reads are parsed by
 * Node's built-in HTTP parser and come as 'data' events), set aside for `eventStreamBody`, and
 * the client gets a Response with no body to decide on. Every other answer (an error's body, a
 * model list, a JSON completion) is a Response over the same bytes, read once, as before.
 *
 * What Node's fetch did that a caller could see is kept: redirects are not followed (the caller
 * asks `redirect: 'manual'`; a 3xx comes back as it is), a failure to connect rejects with
 * `TypeError('fetch failed')` whose cause is the socket's error, the signal aborts with an
 * `AbortError` and closes the connection at any point (before the headers or mid-body), a body
 * cut off rejects with `TypeError('terminated')`, and connections are kept alive (Node's global
 * agents do so). Node's fetch reads no proxy variables, so neither does this. No
 * `accept-encoding` is sent, so the server has no reason to compress an event stream.
 * Written here because no library makes node:http a fetch without its own stream layer on top.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { abortError } from '../abort';
import { type Fetch, isEventStream } from './sse-response';

const eventStreams = new WeakMap<Response, IncomingMessage>();

/** The body of an event stream `httpFetch` answered, still unread, as Node's socket stream. */
export function eventStreamBody(response: Response): IncomingMessage | undefined {
  return eventStreams.get(response);
}

/** Statuses whose Response may not have a body. */
const nullBodyStatus = new Set([101, 204, 205, 304]);

export const httpFetch: Fetch = (input, init = {}) => {
  const body = init.body;
  if (input instanceof Request || !(body == null || typeof body === 'string' || body instanceof Uint8Array)) {
    // Not what the client sends for chat or models: Node's own fetch takes it.
    return fetch(input, init);
  }
  return new Promise<Response>((resolve, reject) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return reject(fetchAborted());
    let req: ReturnType<typeof httpRequest>;
    try {
      const url = new URL(input);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return reject(new TypeError(`fetch failed: ${url.protocol} URLs are not served`));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      if (body != null) headers['content-length'] = String(Buffer.byteLength(body));
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      req = send(url, { method: init.method ?? 'GET', headers });
    } catch (error) {
      return reject(error instanceof TypeError ? error : new TypeError('fetch failed', { cause: error }));
    }
    let answered = false;
    const onAbort = (): void => {
      if (!answered) reject(fetchAborted());
      req.destroy(fetchAborted());
    };
    const release = (): void => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    // Before the answer, a socket error fails the fetch; after it, the body's reader hears of it.
    req.on('error', (error) => {
      if (answered) return;
      release();
      reject(new TypeError('fetch failed', { cause: error }));
    });
    // The agents keep an idle connection for 5 s (or the server's keep-alive hint) with a socket
    // timer, which every network read would re-arm; while the connection carries this request
    // the provider's own watchdog times it, and the agent sets its timer again when it is free.
    req.on('socket', (socket) => socket.setTimeout(0));
    req.on('response', (res) => {
      answered = true;
      res.on('end', release);
      res.on('close', release);
      const status = res.statusCode ?? 0;
      const headers = new Headers();
      const raw = res.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      const meta = { status, statusText: res.statusMessage ?? '', headers };
      const ok = status >= 200 && status < 300;
      try {
        if (ok && isEventStream(headers.get('content-type'))) {
          // Errors reach the reader through its own listener; until it comes, none is thrown.
          res.on('error', () => undefined);
          const response = new Response(null, meta);
          eventStreams.set(response, res);
          resolve(response);
        } else if (nullBodyStatus.has(status) || init.method === 'HEAD') {
          res.resume();
          resolve(new Response(null, meta));
        } else {
          resolve(new Response(bodyOf(res), meta));
        }
      } catch (error) {
        // A status a Response cannot carry (outside 200-599).
        res.destroy();
        reject(new TypeError('fetch failed', { cause: error }));
      }
    });
    req.end(body ?? undefined);
  });
};

/**
 * The body as a stream read on demand. Cancelling it (as the context-window probes do with every
 * non-OK answer they do not read) destroys the response, closing its connection at once, as Node's
 * fetch did; a generator given to Response as the body would not: a cancel before the first read
 * returns a generator that never started, leaving the answer unread and its socket held.
 */
function bodyOf(res: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = cutOffAsTerminated(res);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel() {
        res.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The body as chunks; a connection that closes before the end is `TypeError('terminated')`, as in Node's fetch. */
async function* cutOffAsTerminated(res: IncomingMessage): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of res) yield chunk as Buffer;
  } catch (error) {
    throw isAbort(error) ? error : new TypeError('terminated', { cause: error });
  }
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/** The abort Node's fetch rejects with. */
function fetchAborted(): Error {
  return abortError('This operation was aborted');
}
