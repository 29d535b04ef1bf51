/**
 * What the `openai` package cannot tell tole about a streamed answer, learned from the bytes of
 * the response as they pass (a `fetch` wrapper given to the client):
 * - whether the stream ended with `data: [DONE]` (the SSE end mark of the Chat Completions
 *   protocol). A server that never sends `finish_reason` still ends with it, while a connection
 *   that closes early does not: only the mark tells a finished answer from a cut one;
 * - a 200 answer to a streaming request that is not an event stream (a server that ignores
 *   `stream: true` and sends one JSON completion, or a proxy's HTML page): its content type says
 *   so, and SSE sent under a wrong content type is recognised by its first line and passed on.
 */

const DONE_MARK = '[DONE]';
/** How much of a non-stream body is read: a completion, or enough of a page to name it. */
const MAX_WHOLE_BODY_BYTES = 16 * 1024 * 1024;

interface StreamMarks {
  sawDone: boolean;
}

const marks = new WeakMap<Response, StreamMarks>();

/** Whether the response (as the client returned it) carried the `[DONE]` end mark. */
export function sawDoneMark(response: Response): boolean {
  return marks.get(response)?.sawDone ?? false;
}

export function isEventStream(contentType: string | null): boolean {
  return contentType !== null && /^\s*text\/event-stream\b/i.test(contentType);
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** `fetch` for the client: every 200 answer's body is watched as described above. */
export function watchingFetch(base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status !== 200 || response.body === null) return response;
    if (isEventStream(response.headers.get('content-type'))) return watched(response.body, response);
    if (!isStreamingRequest(init)) return response;
    const text = await readCapped(response.body, init?.signal ?? undefined);
    if (!looksLikeSse(text)) {
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    const headers = new Headers(response.headers);
    headers.set('content-type', 'text/event-stream');
    return watched(new Blob([text]).stream(), response, headers);
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

function watched(body: ReadableStream<Uint8Array>, from: Response, headers: Headers = from.headers): Response {
  const state: StreamMarks = { sawDone: false };
  const decoder = new TextDecoder();
  // The end of the text seen so far, enough to find a mark cut across two chunks.
  let tail = '\n';
  const scan = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      if (state.sawDone) return;
      const text = tail + decoder.decode(chunk, { stream: true });
      if (hasDoneLine(text)) state.sawDone = true;
      tail = text.slice(-(DONE_MARK.length + 8));
    },
  });
  const response = new Response(body.pipeThrough(scan), { status: from.status, statusText: from.statusText, headers });
  marks.set(response, state);
  return response;
}

/** A line `data: [DONE]` (the space is optional); a `[DONE]` inside a JSON payload never starts a line. */
function hasDoneLine(text: string): boolean {
  return /(^|[\r\n])data: ?\[DONE\]/.test(text);
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
