import { currentHead } from '../core/session/cursor';
import type { SessionStore } from '../core/storage/session-store';

/** OSC 52 "set the clipboard" (`c`), the text base64-encoded, ended with BEL. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/** The text of the last assistant answer on the checked-out path; null when there is none. */
export function lastAnswer(store: SessionStore): string | null {
  const path = store.tree.pathTo(currentHead(store).entryId);
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type === 'assistant' && entry.payload.text.trim() !== '') return entry.payload.text;
  }
  return null;
}
