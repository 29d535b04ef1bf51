/**
 * `JSON.stringify(value) === json`, for `json` that is itself `JSON.stringify`'s output, without
 * parsing a replayed entry's payload. The fault simulator's checks compare what a replay read back
 * with what was acknowledged or shipped, as JSON text; a replayed entry's payload is still the bytes
 * of the file until read (replayed-entry.ts), and stringifying it parsed every payload of every
 * acknowledged entry again in each lifetime's check (about 4% of a shard's time in a profile).
 *
 * Here a replayed entry's text is first built from its other fields and its payload's bytes as the
 * file holds them (one JSON value, as the replay's strict skip found it). When that text is `json`,
 * those bytes are the payload's text within `json`, which is `JSON.stringify`'s output, and
 * `JSON.stringify(JSON.parse(t))` gives back any such `t`: stringifying the entry gives `json` too.
 * Any other text (a payload written with other spacing or escapes, or one that differs) is decided
 * as before, by stringifying the value.
 */
import { ReplayedEntry } from '../../src/core/storage/replayed-entry';

export function stringifiesTo(value: unknown, json: string): boolean {
  if (value instanceof ReplayedEntry && json.charCodeAt(json.length - 1) === 0x7d) {
    const [bytes, start, end] = ReplayedEntry.rangeOf(value);
    if (textWithPayload(value, bytes.toString('utf8', start, end)) === json) return true;
  }
  return JSON.stringify(value) === json;
}

/** `entry` as `JSON.stringify` writes it, its payload's text taken as given (its other fields read without calling the payload's getter). */
function textWithPayload(entry: ReplayedEntry, payload: string): string {
  const fields = entry as unknown as Record<string, unknown>;
  let text = '{';
  for (const key of Object.keys(entry)) {
    const value = key === 'payload' ? payload : JSON.stringify(fields[key]);
    if (value === undefined) continue;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${value}`;
  }
  return `${text}}`;
}
