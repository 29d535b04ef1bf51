import type { AnyEntry } from '../../core/tree/entry-types';

/** A hook run that passed (exit 0): its notice says so, at info level. */
export function isPassingHookNotice(entry: AnyEntry): boolean {
  return entry.type === 'notice' && entry.payload.source === 'hook' && entry.payload.level === 'info';
}

/** What is known of each notice: whether an earlier one in its turn said the same. Its ancestors never change. */
const repeats = new WeakMap<AnyEntry, boolean>();

/**
 * True when `path[index]` is a passing hook's notice that an earlier one of the same turn (since
 * the last prompt on the path) already said word for word: a preToolUse hook runs before every
 * call, and the transcript shows what it said once a turn instead of before each call. A
 * warning or a block is never folded.
 */
export function isRepeatedHookNotice(path: readonly AnyEntry[], index: number): boolean {
  const entry = path[index];
  if (entry === undefined || entry.type !== 'notice' || !isPassingHookNotice(entry)) return false;
  const known = repeats.get(entry);
  if (known !== undefined) return known;
  let repeated = false;
  for (let i = index - 1; i >= 0; i--) {
    const earlier = path[i]!;
    if (earlier.type === 'user') break;
    if (earlier.type === 'notice' && isPassingHookNotice(earlier) && earlier.payload.text === entry.payload.text) {
      repeated = true;
      break;
    }
  }
  repeats.set(entry, repeated);
  return repeated;
}
