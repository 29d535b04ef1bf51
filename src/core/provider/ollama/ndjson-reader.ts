/**
 * Reads a newline-delimited JSON body (Ollama's streamed answers): every line is one JSON value,
 * handed to `onLine` as soon as the read that completes it arrives; blank lines are skipped, a
 * line that is not JSON fails the read, and so does what `onLine` throws. An abort of `signal`
 * (from inside `onLine` too) fails the read at once and closes the connection; a body cut off
 * is `TypeError('terminated')` (http-fetch.ts). Written here because splitting a byte stream on
 * "\n" is a few lines, and the NDJSON packages on npm are Node-stream transforms that would add
 * a layer for no gain.
 */
import { abortError } from '../../abort';
import { abortable } from '../attempt-watchdog';

/** A line longer than this is not an answer line: the read fails rather than buffer without end. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

export async function readNdjson(
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal,
  onLine: (value: unknown) => void,
): Promise<void> {
  if (body === null) throw new Error('the answer has no body');
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  const take = (line: string): void => {
    // A line handed on can end the read (the caller aborts from inside it): the rest of the same
    // network read is then not handed on.
    if (signal.aborted) throw abortError('aborted');
    const trimmed = line.trim();
    if (trimmed !== '') onLine(JSON.parse(trimmed));
  };
  try {
    for (;;) {
      const { done, value } = await abortable(reader.read(), signal);
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        take(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      if (pending.length > MAX_LINE_CHARS)
        throw new Error(`a line of the answer is longer than ${MAX_LINE_CHARS} characters`);
    }
    take(pending + decoder.decode());
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    throw error;
  }
}
