/**
 * What the `openai` package cannot tell tole about an answer, learned from the response before
 * the client sees it (a `fetch` wrapper given to the client): a 200 answer to a streaming request
 * that is not an event stream (a server that ignores `stream: true` and sends one JSON
 * completion, or a proxy's HTML page) is read whole and passed on as what it is, and SSE sent
 * under a wrong content type is recognised by its first line and passed on as an event stream.
 * The end mark of a stream (`data: [DONE]`) is seen where the stream is read (openai-provider).
 */

/** How much of a non-stream body is read: a completion, or enough of a page to name it. */
const MAX_WHOLE_BODY_BYTES = 16 * 1024 * 1024;

export function isEventStream(contentType: string | null): boolean {
  return contentType !== null && /^\s*text\/event-stream\b/i.test(contentType);
}

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** `fetch` for the client: a 200 answer to a streaming request that is not an event stream is read as described above. */
export function watchingFetch(base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status !== 200 || response.body === null) return response;
    if (isEventStream(response.headers.get('content-type'))) return response;
    if (!isStreamingRequest(init)) return response;
    const text = await readCapped(response.body, init?.signal ?? undefined);
    const headers = new Headers(response.headers);
    if (looksLikeSse(text)) headers.set('content-type', 'text/event-stream');
    return new Response(text, { status: response.status, statusText: response.statusText, headers });
  };
}

function isStreamingRequest(init: RequestInit | undefined): boolean {
  return typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
}

/** SSE's first non-blank line is a field (`data:`, `event:`, `id:`, `retry:`) or a comment (`:`). */
function looksLikeSse(text: string): boolean {
  const first = text.trimStart().split('\n', 1)[0] ?? '';
  return /^(data|event|id|retry):|^:/.test(first);
}

async function readCapped(body: ReadableStream<Uint8Array>, signal: AbortSignal | undefined): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      text += decoder.decode(value, { stream: true });
      if (size >= MAX_WHOLE_BODY_BYTES) {
        cancel();
        break;
      }
    }
    return text + decoder.decode();
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
