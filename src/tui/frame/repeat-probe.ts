/**
 * Whether the terminal repeats a character with REP (`CSI n b`, ECMA-48's "repeat the preceding
 * graphic character"), asked of the terminal itself when the screen opens. A pane's rule is then
 * `─` and a REP (8 bytes) instead of a hundred 3-byte characters.
 *
 * Neither $TERM nor its terminfo can tell: most terminals call themselves xterm-256color, whose
 * terminfo lists `rep`, and not all of them do it; tmux does it for ASCII only (its parser forgets
 * the last character at any other). So tole draws `─` and asks for a repeat of two, then asks
 * where the cursor is (DSR 6): a terminal that repeated it reports column 4 (7 if it draws `─` two
 * columns wide); one that did not, column 2 or 3. Then the row is erased. No frame waits for the
 * answer (over ssh it is a round trip away): frames go out plain until a yes, and with REP from the
 * next one. A terminal that never answers leaves REP off: every way the answer can go wrong draws
 * plain rules.
 */

/** At the top-left of the just-cleared screen: `─`, two repeats, the cursor's report, the row erased. */
export const REPEAT_PROBE = '\x1b[H─\x1b[2b\x1b[6n\x1b[H\x1b[2K';

/** A cursor position report, `ESC [ row ; column R`. */
const POSITION_REPORT = /^\x1b\[\d+;(\d+)R$/;
/** The column the cursor reaches when `─` and its two repeats were drawn (one column each). */
const REPEATED_COLUMN = 4;

export class RepeatProbe {
  private settle!: (repeats: boolean) => void;
  private open = true;
  /** Whether the terminal repeats characters, once it has said. */
  readonly answer = new Promise<boolean>((resolve) => {
    this.settle = resolve;
  });

  /**
   * True when `key` (one key as read from the terminal) is the answer to the probe, which is then
   * taken out of the keys. Only the first position report is the answer: tole asks for no other.
   */
  take(key: string): boolean {
    if (!this.open) return false;
    const report = POSITION_REPORT.exec(key);
    if (report === null) return false;
    this.open = false;
    this.settle(Number(report[1]) >= REPEATED_COLUMN);
    return true;
  }
}

/**
 * Inside tmux (where tole draws box-drawing runs in the DEC graphics set: `drawsLineSet`), the
 * question is whether an ASCII character is repeated: tmux's REP repeats the last character only
 * when it was ASCII, and a rule there is the set's `q`. So tole draws `q` in the set, asks for two
 * repeats and the cursor's position; column 4 is a yes. A yes lets a rule go out as `q` and a REP
 * (and a bar's background spaces as a space and a REP); a no, or no answer, writes each one.
 */
export const ASCII_REPEAT_PROBE = '\x1b[H\x1b(0q\x1b[2b\x1b(B\x1b[6n\x1b[H\x1b[2K';

/**
 * Whether to ask, unless the user's config says `repeatRuns: false`. Inside tmux the question is
 * `ASCII_REPEAT_PROBE`'s.
 */
export function asksRepeats(_env: NodeJS.ProcessEnv, configured: boolean | undefined): boolean {
  return configured !== false;
}

/**
 * Whether runs of box-drawing characters go out in the DEC special graphics set (see
 * src/tui/frame/line-set.ts): inside tmux, whose parser reads that set's bytes as box-drawing cells
 * whatever terminal it shows them on, and which repeats no `─` (it repeats the set's `q`: see
 * `ASCII_REPEAT_PROBE`). Elsewhere a terminal's graphics set is not asked for: some (the Linux console in UTF-8
 * mode) draw its bytes as letters, and a cursor report cannot tell. Off with `repeatRuns: false`.
 */
export function drawsLineSet(env: NodeJS.ProcessEnv, configured: boolean | undefined): boolean {
  return configured !== false && Boolean(env.TMUX);
}
