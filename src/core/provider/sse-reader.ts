/**
 * Reads a server-sent event stream (the SSE of the WHATWG HTML standard, parsed by
 * `eventsource-parser`) for every API kind that streams SSE: each event is handed to `onEvent`
 * as it is parsed, straight from the network read that brought it ('data' events of the
 * socket's stream, decoded as UTF-8 with a character cut between reads kept for the next). What
 * `onEvent` throws fails the read (a payload that is not JSON, an error event). An abort (the
 * caller's, or the watchdog's) fails the read at once and closes the connection; a connection
 * closed before the end is `TypeError('terminated')`, as Node's fetch says it.
 */
import { Readable } from 'node:stream';
import { createParser } from 'eventsource-parser';
import { abortError } from '../abort';
import type { AttemptWatchdog } from './attempt-watchdog';
import { eventStreamBody } from './http-fetch';

interface SseEvent {
  /** The `event:` field; undefined for a plain `message`. */
  readonly event: string | undefined;
  readonly data: string;
}

export function readEventStream(
  response: Response,
  watchdog: AttemptWatchdog,
  onEvent: (event: SseEvent) => void,
): Promise<void> {
  const body = eventStreamBody(response) ?? (response.body === null ? null : Readable.fromWeb(response.body as never));
  if (body === null) return Promise.reject(new Error('the event stream has no body'));
  const { signal } = watchdog;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) return resolve();
      body.destroy();
      reject(error);
    };
    const onAbort = (): void => finish(abortError('aborted'));
    // An event handed on can end the read (the caller aborts from inside it): the rest of the same
    // network read, parsed in the same feed, is then not handed on.
    const parser = createParser({
      onEvent: ({ event, data }) => {
        if (!settled) onEvent({ event, data });
      },
    });
    if (signal.aborted) return finish(abortError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    body.setEncoding('utf8');
    // A byte-order mark may open an event stream; the string decoder keeps it (a TextDecoder
    // would not) and the parser would read `\ufeffdata` as an unknown field, losing the first event.
    let first = true;
    body.on('data', (text: string) => {
      if (settled) return;
      if (first) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      try {
        parser.feed(text);
      } catch (error) {
        finish(error);
      }
    });
    body.on('end', () => finish());
    body.on('error', (error) => finish(terminated(error)));
    body.on('close', () => finish(terminated(new Error('the connection closed before the stream ended'))));
  });
}

function terminated(cause: unknown): Error {
  return (cause as { name?: unknown } | null)?.name === 'AbortError'
    ? (cause as Error)
    : new TypeError('terminated', { cause });
}
