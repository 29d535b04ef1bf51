import { graphemes } from '../text/cell-width';

/**
 * What the terminal sends, cut into keys. A read of the terminal holds as many keys as arrived
 * since the last one: a key repeat, tmux's `send-keys Up Up Up`, a script, an SSH link that
 * batches. Each key is a piece of its own so that each acts, in order:
 * - an escape sequence: CSI (`ESC [` parameters, intermediates, a final byte; the Linux console's
 *   `ESC [ [ A` too), SS3 (`ESC O` and a final byte), either after a second ESC (Alt with an
 *   arrow), or ESC with one character (Alt-b, Alt-Backspace);
 * - a control character (Tab, Enter, Backspace, Ctrl-letters);
 * - a grapheme of text (a letter, an emoji with its skin tone, a letter with its combining marks);
 * - a bracketed paste: its start mark, its text as one piece, its end mark.
 * A key cut in two by the end of a read (a sequence not finished, half a surrogate pair, the
 * start of a paste's end mark) is held until the next read completes it; `flush` gives what is
 * held as it is, for when nothing more comes.
 */

const ESC = '\x1b';
export const PASTE_START = `${ESC}[200~`;
export const PASTE_END = `${ESC}[201~`;

/** A CSI sequence longer than this is no key (a terminal's longest, a mouse report, is ~20): not held for ever. */
export const MAX_SEQUENCE_CHARS = 64;

/** An escape sequence read from `at`: its end, 'more' when the text ends inside it. */
type Sequence = number | 'more';

export class KeySplitter {
  #held = '';
  #pasting = false;

  /** What is held back, waiting for the rest of its key. */
  get held(): string {
    return this.#held;
  }

  /** The keys completed by `chunk`, in order. */
  push(chunk: string): string[] {
    const text = this.#held + chunk;
    this.#held = '';
    const keys: string[] = [];
    let at = 0;
    while (at < text.length) {
      if (this.#pasting) {
        at = this.#pasted(text, at, keys);
        continue;
      }
      if (!isControl(text.charCodeAt(at))) {
        at = this.#text(text, at, keys);
        continue;
      }
      const end = text[at] === ESC ? escapeEnd(text, at) : at + 1;
      if (end === 'more') {
        this.#held = text.slice(at);
        break;
      }
      const key = text.slice(at, end);
      if (key === PASTE_START) this.#pasting = true;
      keys.push(key);
      at = end;
    }
    return keys;
  }

  /** What is held, given as it is: nothing more came to complete it. */
  flush(): string[] {
    const held = this.#held;
    this.#held = '';
    return held === '' ? [] : [held];
  }

  /** A run of text: each grapheme a key (half a surrogate pair at the end is held). */
  #text(text: string, at: number, keys: string[]): number {
    let end = at;
    while (end < text.length && !isControl(text.charCodeAt(end))) end++;
    if (end === text.length && isHighSurrogate(text.charCodeAt(end - 1))) {
      this.#held = text.slice(end - 1);
      end--;
    }
    for (const grapheme of graphemes(text.slice(at, end))) keys.push(grapheme.text);
    return this.#held === '' ? end : text.length;
  }

  /** Inside a paste: the text up to its end mark is one piece (a cut end mark is held). */
  #pasted(text: string, at: number, keys: string[]): number {
    const close = text.indexOf(PASTE_END, at);
    if (close >= 0) {
      if (close > at) keys.push(text.slice(at, close));
      keys.push(PASTE_END);
      this.#pasting = false;
      return close + PASTE_END.length;
    }
    const keep = heldTail(text, at);
    if (keep > at) keys.push(text.slice(at, keep));
    this.#held = text.slice(keep);
    return text.length;
  }
}

/** Where pasted text can be given up to: before a tail that may be the start of the end mark or half a pair. */
function heldTail(text: string, from: number): number {
  for (let length = Math.min(PASTE_END.length - 1, text.length - from); length > 0; length--)
    if (PASTE_END.startsWith(text.slice(text.length - length))) return text.length - length;
  return isHighSurrogate(text.charCodeAt(text.length - 1)) ? text.length - 1 : text.length;
}

function escapeEnd(text: string, at: number): Sequence {
  if (at + 1 === text.length) return 'more';
  const sequence = controlSequenceEnd(text, at + 1);
  if (sequence !== null) return sequence;
  if (text[at + 1] === ESC) {
    // ESC ESC: Alt with a sequence, or two Escapes.
    if (at + 2 === text.length) return 'more';
    return controlSequenceEnd(text, at + 2) ?? at + 2;
  }
  // Alt with one character: a code point (both halves of a pair).
  if (isHighSurrogate(text.charCodeAt(at + 1))) return at + 2 === text.length ? 'more' : at + 3;
  return at + 2;
}

/** A CSI or SS3 sequence whose ESC is just before `at`: its end, 'more', or null when it is neither. */
function controlSequenceEnd(text: string, at: number): Sequence | null {
  const kind = text[at];
  if (kind === 'O') {
    if (at + 1 === text.length) return 'more';
    return isFinal(text.charCodeAt(at + 1)) ? at + 2 : null;
  }
  if (kind !== '[') return null;
  let i = at + 1;
  // The Linux console's function keys: ESC [ [ A.
  if (text[i] === '[') i++;
  for (; i < text.length; i++) {
    if (i - at > MAX_SEQUENCE_CHARS) return null;
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code <= 0x3f) continue;
    return isFinal(code) ? i + 1 : null;
  }
  return 'more';
}

function isFinal(code: number): boolean {
  return code >= 0x40 && code <= 0x7e;
}

function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
