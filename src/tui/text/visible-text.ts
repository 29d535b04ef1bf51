/**
 * Text as what it is: what a command or argument holds, shown so that nothing in it acts on the
 * terminal or hides from the reader. A line break starts a new line; a tab, a carriage return,
 * an escape and every other control character become a visible symbol; characters that reorder
 * or hide text (bidirectional overrides, zero-width marks) are named by their code point. Used
 * where a user decides on text a model wrote: the approval box, the transcript, tree and
 * registers rows.
 */

import { visibleCharacter } from '../../core/terminal-text';

/** A tab is shown as an arrow and spaces to the next stop, so its place and width both read. */
const TAB_STOP = 4;

/** Reorder text or take no room: a reader cannot see them, so they are named. */
const HIDDEN = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

/**
 * Code points named too, by range (one code point is tested at a time): the emoji parts the
 * screen leaves out (a keycap's U+20E3, U+FE0F, the skin tones: drawn-emoji.ts) and the other
 * selectors and tags that draw nothing. `2\u20E3>/dev/null` would otherwise be drawn as
 * `2>/dev/null`, a redirection where bash reads an argument.
 */
const DRAWN_AS_NOTHING: readonly (readonly [number, number])[] = [
  [0x20e3, 0x20e3],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

/**
 * Every other character Unicode says draws nothing (Default_Ignorable_Code_Point: the combining
 * grapheme joiner U+034F, the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, which terminals draw as
 * blanks, …) and the line and paragraph separators: by the property, not a list, so `rm -rf
 * build\u3164` is never drawn as `rm -rf build`.
 */
const DRAWS_NOTHING = /[\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;

function hidden(ch: string): boolean {
  if (HIDDEN.test(ch) || DRAWS_NOTHING.test(ch)) return true;
  const code = ch.codePointAt(0)!;
  return DRAWN_AS_NOTHING.some(([from, to]) => code >= from && code <= to);
}

/**
 * Replaces one character that must not reach the terminal as it is; null when it may. Controls,
 * DEL, C1 and bidi overrides as the one terminal sanitizer shows them (src/core/terminal-text.ts);
 * here also a tab, and what hides text from a reader deciding on it.
 */
function shown(ch: string, column: number): string | null {
  if (ch === '\t') return `→${' '.repeat(TAB_STOP - 1 - (column % TAB_STOP))}`;
  const control = visibleCharacter(ch);
  if (control !== null) return control;
  if (hidden(ch)) return `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
  return null;
}

/** One line of text (no line break in it) with its controls made visible. */
export function visibleControls(line: string): string {
  let out = '';
  let column = 0;
  for (const ch of line) {
    const swap = shown(ch, column);
    out += swap ?? ch;
    column += swap?.length ?? 1;
  }
  return out;
}

/** The lines of `text`, split at each line break, each with its controls made visible. */
export function visibleLines(text: string): string[] {
  return text.split('\n').map(visibleControls);
}

/** One row for text of any shape: line breaks shown as `⏎`, controls made visible. */
export function visibleRow(text: string): string {
  return visibleLines(text).join('⏎');
}
