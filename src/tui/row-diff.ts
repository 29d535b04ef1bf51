/**
 * What to send the terminal to turn one screen row into another: only the runs of cells that
 * changed, each behind a cursor move, with the fewest style codes between them. A streamed token
 * that extends a line costs its own characters and a cursor move, not the row.
 */
import { ansiCodesToString, type AnsiCode } from '@alcalzone/ansi-tokenize';
import { BLANK, isBlank, sameCell, type Cell, type RowCells } from './row-cells';

/** Unchanged cells between two changed runs rewritten rather than jumped over (a jump costs ~4 bytes). */
const MAX_GAP = 3;

/** What the terminal's pen holds while a frame is written: its style, and where the cursor is. */
export class Pen {
  /** null: not known (the start of a frame), so the first style set resets first. */
  private styles: readonly AnsiCode[] | null = null;
  private key = '';
  private row = -1;
  private column = -1;

  /** Codes that move the cursor to `row`, `column` (0-based). */
  moveTo(row: number, column: number): string {
    if (row === this.row && column === this.column) return '';
    const sameRow = row === this.row && column > this.column && this.column >= 0;
    this.row = row;
    const from = this.column;
    this.column = column;
    if (sameRow) return column - from === 1 ? '\x1b[C' : `\x1b[${column - from}C`;
    return column === 0 ? `\x1b[${row + 1}H` : `\x1b[${row + 1};${column + 1}H`;
  }

  /** Codes that make what is written next carry `styles`. */
  style(styles: readonly AnsiCode[], key: string): string {
    const from = this.styles;
    if (from !== null && key === this.key) return '';
    this.styles = styles;
    this.key = key;
    if (styles.length === 0) return '\x1b[0m';
    // Only codes added on top of the pen's: send those. Anything taken away resets first, since
    // ending one code can end another (bold and dim share their end code).
    if (from?.every((code) => styles.some((kept) => kept.code === code.code))) {
      return ansiCodesToString(styles.filter((code) => !from.some((had) => had.code === code.code)));
    }
    return `\x1b[0m${ansiCodesToString([...styles])}`;
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

  /** Codes that leave the terminal with no style (at the end of a frame). */
  reset(): string {
    const wasPlain = this.styles !== null && this.styles.length === 0;
    this.styles = null;
    this.row = -1;
    this.column = -1;
    return wasPlain ? '' : '\x1b[0m';
  }
}

const at = (cells: readonly Cell[], i: number): Cell => cells[i] ?? BLANK;

function writeRun(pen: Pen, row: number, cells: readonly Cell[], from: number, to: number): string {
  let out = pen.moveTo(row, from);
  for (let i = from; i < to; i++) {
    const cell = at(cells, i);
    if (cell.width === 0) continue;
    out += pen.style(cell.styles, cell.style) + cell.text;
    pen.advance(cell.width);
  }
  return out;
}

/**
 * The codes that turn `before` (what the terminal shows on `row`) into `after`. `line` is
 * `after`'s text, written whole when either row's layout in the terminal is uncertain.
 */
export function diffRow(pen: Pen, row: number, before: RowCells, after: RowCells, line: string): string {
  if (before.uncertain || after.uncertain) {
    const out = `${pen.moveTo(row, 0)}\x1b[0m\x1b[2K${line}\x1b[0m`;
    pen.forget();
    return out;
  }
  const old = before.cells;
  const now = after.cells;
  let end = now.length;
  while (end > 0 && isBlank(now[end - 1]!)) end--;
  let out = '';
  let i = 0;
  while (i < end) {
    if (sameCell(at(old, i), now[i]!)) {
      i++;
      continue;
    }
    // A run of changes, joined across short unchanged gaps; wide characters are never cut.
    const start = now[i]!.width === 0 ? i - 1 : i;
    let last = i;
    for (let j = i + 1; j < end && j - last <= MAX_GAP; j++) if (!sameCell(at(old, j), now[j]!)) last = j;
    let stop = last + 1;
    if (now[last]!.width === 2) stop++;
    out += writeRun(pen, row, now, start, stop);
    i = stop;
  }
  // Past the new row's last visible cell: erase from the first old cell that still shows something.
  for (let j = Math.max(end, i); j < old.length; j++) {
    if (isBlank(old[j]!)) continue;
    out += `${pen.moveTo(row, j)}${pen.style([], '')}\x1b[K`;
    break;
  }
  return out;
}
