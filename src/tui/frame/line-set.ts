/**
 * Box-drawing characters in the DEC special graphics set, where tole runs inside tmux
 * (`drawsLineSet` in src/tui/frame/repeat-probe.ts). A frame's runs of them, with the cursor moves
 * and style codes between them, go out between `ESC ( 0` (the set chosen) and `ESC ( B` (ASCII
 * chosen back), one ASCII byte a character instead of three in UTF-8: a pane's rule, or the
 * vertical rules of the blank rows under a pane, drawn down the screen. tmux keeps such a cell as
 * the box-drawing character (it shows it to its own terminal in UTF-8, and copies it as UTF-8), so
 * the screen does not change. Nothing else is ever written while the set is chosen: a span holds
 * only the set's characters, cursor moves and style codes, and is closed where it ends. Where tmux
 * said it repeats ASCII characters, a run of one of them is its letter and a REP: a 119-cell rule
 * is 13 bytes.
 */

/** Each box-drawing character the set holds, and its letter there. */
export const LINE_SET: ReadonlyMap<string, string> = new Map([
  ['─', 'q'],
  ['│', 'x'],
  ['┌', 'l'],
  ['┐', 'k'],
  ['└', 'm'],
  ['┘', 'j'],
  ['├', 't'],
  ['┤', 'u'],
  ['┬', 'w'],
  ['┴', 'v'],
  ['┼', 'n'],
]);

const ON = '\x1b(0';
const OFF = '\x1b(B';
/** What choosing the set and choosing ASCII back cost; each character in the set saves 2 bytes. */
const SWITCH_COST = ON.length + OFF.length;

/**
 * Runs of the set's characters and CSI codes that neither print nor take a character from before
 * (cursor moves, style, erases; REP is left out: it repeats whatever came last), and the backspaces
 * and line feeds (`BS VT`) that take the cursor down a column of them (`linesDown` in
 * src/tui/frame/row-diff.ts), and the carriage returns and tabs that take it to a row's start. A character with a mark joined to it (a combining accent, a variation
 * selector, a joiner) is not the set's.
 */
const SPAN = /(?:\x1b\[[0-9;]*[A-HJKSTX@Pdfm]|[\x08\x0b\r\t]|[─│┌┐└┘├┤┬┴┼](?!\p{M}|\u200d|\ufe0e|\ufe0f))+/gu;
const BOX = /[─│┌┐└┘├┤┬┴┼]/g;
/** Runs of one box-drawing character (matched before the set's letters replace them, so no CSI's final letter is taken). */
const RUN = /([─│┌┐└┘├┤┬┴┼])\1+/g;

/** `letter` `count` times: the letter and a REP (`CSI n b`) where that is shorter. */
function repeated(letter: string, count: number): string {
  const rep = `\x1b[${count - 1}b`;
  return rep.length + 1 < count ? letter + rep : letter.repeat(count);
}

/** An escape that is not a CSI (an OSC, a DCS, a charset choice): a frame holding one is left as it is. */
export const NOT_CSI = /\x1b[^[]/;

/**
 * `out` with each span of box-drawing characters worth it written in the graphics set. A frame
 * holding any escape other than CSI is left as it is (a box-drawing character inside a string
 * sequence's text is not drawn, and an escape written into one would end it).
 */
export function inLineSet(out: string, repeats = false): string {
  if (NOT_CSI.test(out)) return out;
  return out.replace(SPAN, (span) => {
    const first = span.search(BOX);
    if (first === -1) return span;
    let count = 0;
    let last = first;
    for (let i = first; i < span.length; i++) {
      if (LINE_SET.has(span[i]!)) {
        count++;
        last = i;
      }
    }
    if (count * 2 <= SWITCH_COST) return span;
    let inside = span.slice(first, last + 1);
    // A run of one character is its letter and a REP (tmux repeats the set's ASCII letters), where shorter.
    if (repeats) inside = inside.replace(RUN, (run) => repeated(LINE_SET.get(run[0]!)!, run.length));
    inside = inside.replace(BOX, (box) => LINE_SET.get(box)!);
    return `${span.slice(0, first)}${ON}${inside}${OFF}${span.slice(last + 1)}`;
  });
}
