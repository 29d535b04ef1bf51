/**
 * What to send the terminal to turn one screen row into another: only the runs of cells that
 * changed, each behind a cursor move, with the fewest style codes between them. A streamed token
 * that extends a line costs its own characters and a cursor move, not the row.
 */
import type { AnsiCode } from '@alcalzone/ansi-tokenize';
import { BLANK, looksBlank, sameCell, spacesLookBlank, type Cell, type RowCells } from './row-cells';
import { planShifts, type Shift } from './row-shift';
import { joinCodes } from './sgr-codes';
import { LINE_SET } from './line-set';

/** Unchanged cells between two changed runs rewritten rather than jumped over (a jump costs ~4 bytes). */
const MAX_GAP = 3;
/**
 * What a cell left for the end of the frame costs more than one written in its place: a jump over
 * it (`ESC[C`, 3 bytes) and a cursor move to it later (`ESC[r;cH`, ~8).
 */
const DEFER_COST = 11;
/** Cells at most in a run left for the end of the frame (a key's name; a longer run is text in a colour of its own). */
const MAX_DEFERRED = 8;
/** Blank cells in a run erased (ECH, then a jump past them) rather than written as spaces, from this many on. */
const MIN_ERASE = 10;
/**
 * REP (`CSI n b`, ECMA-48's "repeat the preceding graphic character") costs this plus its count's
 * digits; it is sent where the characters it stands for would cost more.
 */
const REPEAT_COST = 3;
const FOREGROUND_END = '\x1b[39m';
/**
 * The style reset as sent: SGR with no parameter, which ECMA-48 reads as its default, 0 (VT100's
 * and xterm's own `sgr0`), a byte shorter than `ESC[0m` (the most frequent code of a frame's end).
 */
const RESET = '\x1b[m';
/** The end code ansi-tokenize gives a code whose own end it does not know. */
const UNKNOWN_END = '\x1b[0m';
/** The end codes of colours (foreground, background, underline): a colour of the same kind replaces another. */
const COLOUR_ENDS = new Set([FOREGROUND_END, '\x1b[49m', '\x1b[59m']);

/** The codes that take the pen from the style `from` (null: not known) to `styles`, in one sequence. */
export function switchCodes(from: readonly AnsiCode[] | null, styles: readonly AnsiCode[]): string {
  if (styles.length === 0) return RESET;
  const reset = joinCodes([RESET, ...styles.map((code) => code.code)]);
  if (from === null) return reset;
  const added = styles.filter((code) => !from.some((had) => had.code === code.code));
  const ends = new Set(
    from.filter((code) => !styles.some((kept) => kept.code === code.code)).map((code) => code.endCode),
  );
  // A code taken away whose end is not known (ansi-tokenize says reset) can only be reset.
  if (ends.has(UNKNOWN_END)) return reset;
  // A colour taken away is replaced by the colour of its kind that comes in, without its end.
  for (const code of added) if (COLOUR_ENDS.has(code.endCode)) ends.delete(code.endCode);
  // An end code ends every code that has it (bold and dim share theirs): those kept are set again.
  const again = styles.filter((code) => ends.has(code.endCode) && !added.includes(code));
  const changed = joinCodes([...ends, ...again.map((code) => code.code), ...added.map((code) => code.code)]);
  return changed.length <= reset.length ? changed : reset;
}

/**
 * `switchCodes` remembered by the two styles' keys (a key, the codes joined, says which codes and
 * so which end codes a style has): a frame switches between the same few styles cell after cell,
 * and working a switch out allocates several arrays and sets.
 */
const switches = new Map<string, Map<string, string>>();
/** Styles kept (each way); a theme has a few dozen, true-colour text from a tool could bring many. */
const MAX_SWITCHES = 1_000;
/** The key of a pen whose style is not known (no key of codes is this). */
const UNKNOWN = '\u0000';

/** A pen's state, saved (see `Pen.save`). */
interface PenState {
  readonly styles: readonly AnsiCode[] | null;
  readonly key: string;
  readonly row: number;
  readonly column: number;
  readonly left: readonly { row: number; column: number; cell: Cell }[];
}

/** What the terminal's pen holds while a frame is written: its style, and where the cursor is. */
export class Pen {
  /** null: not known (before the first frame, after a clear), so the first style set resets first. */
  private styles: readonly AnsiCode[] | null = null;
  private key = '';
  private row = -1;
  private column = -1;
  /** Cells left for the end of the frame (see `defers`), written by `deferred`. */
  private left: { row: number; column: number; cell: Cell }[] = [];
  /**
   * The terminal repeats a character with REP (it said so: src/tui/frame/repeat-probe.ts), so a
   * run of one character in one style (a pane's rule) is the character and a REP.
   */
  repeats = false;
  /**
   * The terminal repeats ASCII characters with REP (tmux, which said so: `ASCII_REPEAT_PROBE` in
   * src/tui/frame/repeat-probe.ts), so a run of one printable ASCII character (a bar's background
   * spaces) is the character and a REP.
   */
  asciiRepeats = false;
  /**
   * The screen's width while a frame is drawn in the DEC special graphics set (inside tmux:
   * src/tui/frame/line-set.ts), else 0. Then a box-drawing cell changed alone (a vertical rule on a
   * row with nothing else new) is left for the end of the frame, and the cells left are drawn
   * column by column, three or more of one column on rows one under another going down it with a
   * backspace and a line feed (`BS VT`, 2 bytes) instead of a cursor move (`ESC[r;cH`, ~8). Only in
   * the set: there each is one ASCII byte that tmux counts one column wide, so the relative moves
   * land where an absolute one would; a `│` in UTF-8 that a terminal draws two columns wide (an East
   * Asian ambiguous-width setting) would put every backspace a column off.
   */
  linesDown = 0;

  /** What the pen holds now, for `restore` (a row drawn two ways, the shorter kept). */
  save(): PenState {
    return { styles: this.styles, key: this.key, row: this.row, column: this.column, left: [...this.left] };
  }

  restore(state: PenState): void {
    ({ styles: this.styles, key: this.key, row: this.row, column: this.column } = state);
    this.left = [...state.left];
  }

  /**
   * The terminal's tab stops (columns, ascending) where the frame writer set them (the panes' first
   * columns: src/tui/frame/frame-writer.ts, `tabStops`), else none: then no tab is sent.
   */
  stops: readonly number[] = [];

  /**
   * Codes that move the cursor to `row`, `column` (0-based). A row or a few below the cursor's (or
   * on its row, to the left), a carriage return and line feeds (`CR VT`) then a move right, where
   * shorter than the absolute move: `CR VT ESC[32C` (7 bytes) instead of `ESC[12;33H` (8), `CR VT`
   * instead of `ESC[39H`. The move right is tabs (HT, a byte each) where `column` is a tab stop the
   * writer set and the stops on the way are few: `CR VT HT HT` to a pane's first column. The carriage
   * return puts the cursor in column 1 whatever the width the terminal gave what was written before
   * (the line feed keeps the column), and VT is not turned into two bytes by the pty as LF is. It
   * never scrolls: the row is on the screen, so the cursor is above its bottom, and tole leaves no
   * scroll region set.
   */
  moveTo(row: number, column: number): string {
    if (row === this.row && column === this.column) return '';
    const sameRow = row === this.row && column > this.column && this.column >= 0;
    const down = this.row >= 0 && row >= this.row && row - this.row <= MAX_LINE_FEEDS ? row - this.row : -1;
    const from = this.column;
    this.row = row;
    this.column = column;
    let best = column === 0 ? `\x1b[${row + 1}H` : `\x1b[${row + 1};${column + 1}H`;
    if (sameRow) {
      const across = this.across(from, column);
      if (across.length <= best.length) best = across;
    }
    if (down >= 0) {
      const relative = `\r${'\v'.repeat(down)}${this.across(0, column)}`;
      if (relative.length < best.length) best = relative;
    }
    return best;
  }

  /** The shortest move right on the cursor's row from `from` to `column`: tabs, or a cursor-forward. */
  private across(from: number, column: number): string {
    const forward = right(column - from);
    if (this.stops.length === 0 || !this.stops.includes(column)) return forward;
    let tabs = 0;
    for (const stop of this.stops) if (stop > from && stop <= column) tabs++;
    return tabs < forward.length ? '\t'.repeat(tabs) : forward;
  }

  /** Codes that make what is written next carry `styles` (`key`: their codes joined, as a cell's `style`). */
  style(styles: readonly AnsiCode[], key: string): string {
    const from = this.styles;
    if (from !== null && key === this.key) return '';
    const fromKey = from === null ? UNKNOWN : this.key;
    this.styles = styles;
    this.key = key;
    let byTo = switches.get(fromKey);
    if (byTo === undefined) {
      if (switches.size >= MAX_SWITCHES) switches.clear();
      switches.set(fromKey, (byTo = new Map()));
    }
    let codes = byTo.get(key);
    if (codes === undefined) {
      if (byTo.size >= MAX_SWITCHES) byTo.clear();
      byTo.set(key, (codes = switchCodes(from, styles)));
    }
    return codes;
  }

  /**
   * How many cells from `i` (before `to`) are cheaper written at the end of the frame, with the
   * others of their style, than here between two switches; 0 when none is. They are a run of
   * one-column cells in one other style between cells in the pen's style: a rule between two panes'
   * text, or a key among its hints in the status bar (`Tab` in the accent among grey words), which
   * here cost two colour switches each, and written together at the end need one for all.
   */
  defers(cells: readonly Cell[], i: number, to: number): number {
    const cell = at(cells, i);
    if (this.styles === null || cell.width !== 1 || cell.style === this.key) return 0;
    let end = i + 1;
    while (end < to && end - i < MAX_DEFERRED && at(cells, end).width === 1 && at(cells, end).style === cell.style)
      end++;
    const next = nextShown(cells, end, to);
    if (next === undefined || next.style !== this.key) return 0;
    // A jump over more than one cell is ESC[nC: a byte more than ESC[C.
    const cost = DEFER_COST + (end - i > 1 ? 1 : 0);
    return switchCodes(this.styles, cell.styles).length + switchCodes(cell.styles, this.styles).length > cost
      ? end - i
      : 0;
  }

  /** Leaves `cell` at `row`, `column` for `deferred`. */
  leave(row: number, column: number, cell: Cell): void {
    this.left.push({ row, column, cell });
  }

  /**
   * True when `cell`, the only cell of a changed run, is left for the end of the frame to be drawn
   * down its column with the others there (see `linesDown`).
   */
  leavesAlone(cell: Cell): boolean {
    return this.linesDown > 0 && cell.width === 1 && LINE_SET.has(cell.text);
  }

  /**
   * The cells left for the end of the frame, written in groups of one style, row by row (column
   * by column with `linesDown`, each run down a column of three or more cells with `BS VT`).
   */
  deferred(): string {
    if (this.left.length === 0) return '';
    const down = this.linesDown > 0;
    const cells = this.left.sort((a, b) =>
      a.cell.style !== b.cell.style
        ? a.cell.style < b.cell.style
          ? -1
          : 1
        : down
          ? a.column - b.column || a.row - b.row
          : a.row - b.row || a.column - b.column,
    );
    this.left = [];
    const follows = down ? followsDown(cells, this.linesDown) : null;
    let out = '';
    for (let k = 0; k < cells.length; k++) {
      const { row, column, cell } = cells[k]!;
      if (follows?.[k] === true) {
        // The cell above was just written (the cursor is right of it): back one, down one.
        out += '\b\v';
        this.row = row;
        this.column = column;
      } else out += this.moveTo(row, column);
      out += this.style(cell.styles, cell.style) + cell.text;
      this.advance(1);
    }
    return out;
  }

  /** True when a space written now looks like an erased cell (the pen holds no style a space shows). */
  writesBlankSpaces(): boolean {
    return this.styles !== null && spacesLookBlank(this.styles);
  }

  /**
   * Codes that let blank cells be erased (ECH erases with the pen's background): none when the
   * pen holds at most a foreground colour, else a reset.
   */
  eraseStyle(): string {
    if (this.styles?.every((code) => code.endCode === FOREGROUND_END)) return '';
    return this.style([], '');
  }

  /** After the terminal's style was reset (and the cursor moved somewhere not tracked). */
  cleared(): void {
    this.styles = [];
    this.key = '';
    this.row = -1;
    this.column = -1;
  }

  /** After text of `width` columns was written. */
  advance(width: number): void {
    this.column += width;
  }

  /** After something whose effect on the cursor and style is not tracked (a whole row). */
  forget(): void {
    this.styles = null;
    this.row = -1;
    this.column = -1;
  }

  /**
   * Codes that leave the terminal with no style (at the end of a frame). The pen then knows the
   * terminal's style is plain, so the next frame sets its first style without a reset first; the
   * cursor it forgets (whoever writes between frames may move it).
   */
  reset(): string {
    const wasPlain = this.styles !== null && this.styles.length === 0;
    this.styles = [];
    this.key = '';
    this.row = -1;
    this.column = -1;
    return wasPlain ? '' : RESET;
  }
}

/** Rows down that a cursor move may take with line feeds (`CR VT VT VT HT` is shorter than `ESC[r;cH` at most). */
const MAX_LINE_FEEDS = 3;

/** A move `by` columns right (none for 0). */
function right(by: number): string {
  return by === 0 ? '' : by === 1 ? '\x1b[C' : `\x1b[${by}C`;
}

/** Cells one under another in a column, from this many on, are drawn down it with `BS VT`. */
const MIN_DOWN = 3;

/**
 * For cells sorted by style, column and row: true at each cell drawn right after the one above it
 * with `BS VT`, in runs of at least `MIN_DOWN` box-drawing cells of one style one under another.
 * Not in the last column (`columns - 1`), where the cursor stays on the cell it wrote, so a
 * backspace from there would land a column short.
 */
function followsDown(cells: readonly { row: number; column: number; cell: Cell }[], columns: number): boolean[] {
  const follows = cells.map(() => false);
  const fits = (k: number): boolean =>
    cells[k]!.column < columns - 1 && cells[k]!.cell.width === 1 && LINE_SET.has(cells[k]!.cell.text);
  let start = 0;
  for (let k = 1; k <= cells.length; k++) {
    const a = cells[k - 1]!;
    const b = cells[k];
    const joined =
      b !== undefined &&
      fits(k - 1) &&
      fits(k) &&
      b.column === a.column &&
      b.row === a.row + 1 &&
      b.cell.style === a.cell.style;
    if (joined) continue;
    if (k - start >= MIN_DOWN) for (let j = start + 1; j < k; j++) follows[j] = true;
    start = k;
  }
  return follows;
}

const at = (cells: readonly Cell[], i: number): Cell => cells[i] ?? BLANK;

/** Two cells that look the same on screen: the same cell, or two spaces in styles a space does not show. */
const unchanged = (before: Cell, after: Cell): boolean =>
  sameCell(before, after) || (looksBlank(before) && looksBlank(after));

function writeRun(pen: Pen, row: number, cells: readonly Cell[], from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) {
    const cell = at(cells, i);
    if (cell.width === 0) continue;
    if (looksBlank(cell)) {
      let end = i + 1;
      while (end < to && looksBlank(at(cells, end))) end++;
      // A long stretch of blank cells (the rest of a shorter line) is erased where it lies; a short
      // one is written as spaces in whatever the pen holds, when a space does not show that.
      if (end - i >= MIN_ERASE) {
        out += `${pen.moveTo(row, i)}${pen.eraseStyle()}\x1b[${end - i}X`;
        i = end - 1;
        continue;
      }
      if (pen.writesBlankSpaces()) {
        out += pen.moveTo(row, i) + ' '.repeat(end - i);
        pen.advance(end - i);
        i = end - 1;
        continue;
      }
    }
    if (to - from === 1 && pen.leavesAlone(cell)) {
      pen.leave(row, i, cell);
      continue;
    }
    const deferred = pen.defers(cells, i, to);
    if (deferred > 0) {
      for (let k = i; k < i + deferred; k++) pen.leave(row, k, at(cells, k));
      i += deferred - 1;
      continue;
    }
    out += pen.moveTo(row, i) + pen.style(cell.styles, cell.style) + cell.text;
    pen.advance(cell.width);
    const repeated = pen.repeats || pen.asciiRepeats ? repeatsAfter(cells, i, to, pen.repeats) : 0;
    if (repeated > 0) {
      out += `\x1b[${repeated}b`;
      pen.advance(repeated);
      i += repeated;
    }
  }
  return out;
}

/**
 * How many cells after `i` (before `to`) repeat its cell, when a REP for them is cheaper than
 * writing them; else 0. Only a single code point one column wide is repeated (an ASCII one unless
 * `anyCharacter`): REP repeats the
 * last character the terminal received, which of a grapheme of several code points (a letter and
 * its accent) is only the last one.
 */
function repeatsAfter(cells: readonly Cell[], i: number, to: number, anyCharacter: boolean): number {
  const cell = at(cells, i);
  if (cell.width !== 1 || !cell.certain) return 0;
  if (!anyCharacter && !isAscii(cell.text)) return 0;
  let end = i + 1;
  while (end < to && sameCell(at(cells, end), cell)) end++;
  const count = end - i - 1;
  return count * Buffer.byteLength(cell.text) > REPEAT_COST + String(count).length ? count : 0;
}

/** One printable ASCII character: what a terminal that repeats ASCII only (tmux) repeats. */
function isAscii(text: string): boolean {
  if (text.length !== 1) return false;
  const code = text.charCodeAt(0);
  return code >= 0x20 && code <= 0x7e;
}

/** The first cell from `from` (before `to`) that does not look blank, if any. */
function nextShown(cells: readonly Cell[], from: number, to: number): Cell | undefined {
  for (let j = from; j < to; j++) {
    const cell = at(cells, j);
    if (cell.width !== 0 && !looksBlank(cell)) return cell;
  }
  return undefined;
}

/**
 * The codes that turn `before` (what the terminal shows on `row`, a screen `columns` wide) into
 * `after`. `line` is `after`'s text, written whole when either row's layout in the terminal is
 * uncertain. Where text moved sideways, the row is also drawn with the terminal shifting it
 * (src/tui/frame/row-shift.ts), and the shortest way is sent; not looked for without `shifts`.
 */
export function diffRow(
  pen: Pen,
  row: number,
  before: RowCells,
  after: RowCells,
  line: string,
  columns: number,
  shifts = true,
): string {
  if (before.uncertain || after.uncertain) {
    const out = `${pen.moveTo(row, 0)}${RESET}\x1b[2K${line}${RESET}`;
    pen.forget();
    return out;
  }
  const plan = shifts ? planShifts(before.cells, after.cells, columns) : null;
  if (plan === null) return diffCells(pen, row, before.cells, after.cells);
  // The plain diff, then the row drawn after the first one, two, ... of the shifts: the shortest goes.
  const start = pen.save();
  let best = diffCells(pen, row, before.cells, after.cells);
  let bestPen = pen.save();
  for (let count = 1; count <= plan.shifts.length; count++) {
    pen.restore(start);
    const shifts = plan.shifts.slice(0, count);
    const moved = shiftCodes(pen, row, shifts) + diffCells(pen, row, plan.rows[count - 1]!, after.cells);
    if (Buffer.byteLength(moved) >= Buffer.byteLength(best)) continue;
    best = moved;
    bestPen = pen.save();
  }
  pen.restore(bestPen);
  return best;
}

/** Insert- and delete-character codes for `shifts`, each at its absolute position, blanks unstyled. */
function shiftCodes(pen: Pen, row: number, shifts: readonly Shift[]): string {
  let out = '';
  for (const { at: column, by } of shifts) {
    out += `${pen.moveTo(row, column)}${pen.eraseStyle()}\x1b[${Math.abs(by)}${by > 0 ? '@' : 'P'}`;
  }
  return out;
}

/** The codes that turn the cells `old` (what the terminal shows on `row`) into `now`. */
function diffCells(pen: Pen, row: number, old: readonly Cell[], now: readonly Cell[]): string {
  let end = now.length;
  while (end > 0 && looksBlank(now[end - 1]!)) end--;
  let out = '';
  let i = 0;
  while (i < end) {
    if (unchanged(at(old, i), now[i]!)) {
      i++;
      continue;
    }
    // A run of changes, joined across short unchanged gaps; wide characters are never cut.
    const start = now[i]!.width === 0 ? i - 1 : i;
    let last = i;
    for (let j = i + 1; j < end && j - last <= MAX_GAP; j++) if (!unchanged(at(old, j), now[j]!)) last = j;
    let stop = last + 1;
    if (now[last]!.width === 2) stop++;
    out += writeRun(pen, row, now, start, stop);
    i = stop;
  }
  // Past the new row's last visible cell: erase from the first old cell that still shows something.
  for (let j = Math.max(end, i); j < old.length; j++) {
    if (looksBlank(old[j]!)) continue;
    out += `${pen.moveTo(row, j)}${pen.eraseStyle()}\x1b[K`;
    break;
  }
  return out;
}
