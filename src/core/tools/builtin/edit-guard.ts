import type { GuardVerdict } from '../tool';
import { sha256Hex } from './file-io';

/** How many characters on each side of an edit's region are recorded to recognise it later. */
export const EDIT_CONTEXT_CHARS = 64;

/**
 * Stored with an edit_file intent: what the edit will produce, so that a resume can tell from
 * the file as it is then (changed by a hook, an editor or anyone else meanwhile) whether the
 * edit already happened. `sha256` is the whole file as the edit would leave it; `before` and
 * `after` are the text around the replaced region (up to `EDIT_CONTEXT_CHARS` each, text the
 * call's diff shows anyway), which must surround `new_text` once the edit happened and
 * `old_text` while it has not.
 */
export interface PreparedEdit {
  readonly sha256: string;
  readonly before: string;
  readonly after: string;
}

/** What to record for replacing `oldText` at `at` in `text` with `newText`. */
export function prepareEditMarks(text: string, at: number, oldText: string, newText: string): PreparedEdit {
  const end = at + oldText.length;
  return {
    sha256: sha256Hex(text.slice(0, at) + newText + text.slice(end)),
    before: text.slice(Math.max(0, at - EDIT_CONTEXT_CHARS), at),
    after: text.slice(end, end + EDIT_CONTEXT_CHARS),
  };
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * Whether the edit `prepared` describes is in `text`: done when its new text stands once between
 * the recorded context and its old text does not (outside that one place), not done when the old
 * text stands once in its context and the new does not, unknown otherwise (the region's
 * surroundings changed, or either appears more than once), so that a resume never applies it twice.
 */
export function editVerdict(text: string, oldText: string, newText: string, prepared: PreparedEdit): GuardVerdict {
  if (sha256Hex(text) === prepared.sha256) return true;
  const done = spans(text, prepared.before + newText + prepared.after);
  const notDone = spans(text, prepared.before + oldText + prepared.after);
  const [first] = done;
  const [only] = notDone;
  if (done.length === 1 && first && notDone.every((span) => within(span, first))) return true;
  if (notDone.length === 1 && only && done.every((span) => within(span, only))) return false;
  if (done.length === 0 && notDone.length === 0) {
    return {
      unknown:
        'the file changed around the edit since it was prepared: neither the old nor the new text stands between the text it had around it',
    };
  }
  return {
    unknown: `the new text stands ${done.length} and the old text ${notDone.length} times between the text the edit had around it`,
  };
}

/** Every place `marker` occurs in `text`, overlapping ones included. */
function spans(text: string, marker: string): Span[] {
  const found: Span[] = [];
  // Only an edit that empties a file consisting of old_text alone has no marker: the whole-file hash decides it.
  if (marker === '') return found;
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
    found.push({ start: at, end: at + marker.length });
  }
  return found;
}

function within(inner: Span, outer: Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

export function isPreparedEdit(prepared: unknown): prepared is PreparedEdit {
  if (typeof prepared !== 'object' || prepared === null) return false;
  const { sha256, before, after } = prepared as Partial<Record<keyof PreparedEdit, unknown>>;
  return typeof sha256 === 'string' && typeof before === 'string' && typeof after === 'string';
}
