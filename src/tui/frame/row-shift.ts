/**
 * Text that moved sideways on a row (a status word grown from `Idle` to `Planning`, keys set
 * flush right when one goes): the terminal moves what follows with insert- or delete-character
 * (`CSI n @`, `CSI n P`) at an absolute position, and the cell diff then writes what is new, in
 * place of rewriting every cell after the change.
 *
 * Both codes work on the row the cursor is on, from the cursor to the right edge, and leave the
 * cursor where it is: cells pushed past the edge are gone, cells opened at the edge (or inserted)
 * are erased with the pen's background. Each is sent after an absolute move, so a character a
 * terminal draws wider than tole counts shifts the same cells it shifted before, never further.
 */
import { BLANK, type Cell, looksBlank, sameCell } from './row-cells';

/** A shift of the cells from `at` to the right edge: `by` > 0 inserts that many blanks, < 0 deletes. */
export interface Shift {
  readonly at: number;
  readonly by: number;
}

/** The widest shift looked for (a state word, a key hint or two). */
const MAX_SHIFT = 16;
/** How far past the start of a changed run the shifted text may begin. */
const MAX_SEARCH = 16;
/**
 * Runs of changed cells per row at which a shift is looked for: a bar's words and keys need a few;
 * text that reflowed has many runs and rarely a shift, and each look costs a streamed frame time.
 */
const MAX_TRIES = 4;
/** The cells compared after a shift to judge it. */
const WINDOW = 16;
/**
 * Cells a shift must bring into place, past those already in place without it: a shift costs a
 * cursor move and its code (~10 bytes), and the cells it saves are at least a byte each.
 */
const MIN_GAIN = 6;

const at = (cells: readonly Cell[], i: number): Cell => cells[i] ?? BLANK;

/** Two cells that look the same on screen (as the cell diff judges them). */
const unchanged = (before: Cell, after: Cell): boolean =>
  sameCell(before, after) || (looksBlank(before) && looksBlank(after));

/** The row after `shift`, `columns` wide. */
export function shifted(row: readonly Cell[], shift: Shift, columns: number): Cell[] {
  const out: Cell[] = [];
  for (let i = 0; i < columns; i++) out.push(at(row, i));
  if (shift.by > 0) {
    out.splice(shift.at, 0, ...Array<Cell>(shift.by).fill(BLANK));
    out.length = columns;
  } else {
    out.splice(shift.at, -shift.by);
    out.push(...Array<Cell>(-shift.by).fill(BLANK));
  }
  return out;
}

/**
 * True when the shift cuts no wide character in two: not at its right half, not (deleting) just
 * before one's right half, and (inserting) pushing no left half to the edge without its right.
 */
function keepsWideCharacters(row: readonly Cell[], shift: Shift, columns: number): boolean {
  if (at(row, shift.at).width === 0) return false;
  if (shift.by < 0) return at(row, shift.at - shift.by).width !== 0;
  return at(row, columns - shift.by - 1).width !== 2;
}

/**
 * How many shown cells of `now` in the window from `from` the held row, moved by `by` (its cell
 * `k - by` lands on `k`), gets right beyond those it gets right as it is.
 */
function gain(held: readonly Cell[], now: readonly Cell[], from: number, by: number, end: number): number {
  let gained = 0;
  const to = Math.min(end, from + WINDOW);
  for (let k = from; k < to; k++) {
    // Every cell left could gain one: stop when they cannot reach MIN_GAIN.
    if (gained + (to - k) < MIN_GAIN) return gained;
    const cell = at(now, k);
    if (looksBlank(cell)) continue;
    if (unchanged(at(held, k - by), cell)) gained++;
    if (unchanged(at(held, k), cell)) gained--;
  }
  return gained;
}

/** The best shift for the run of changes starting at `start`, or null when none pays. */
function bestShift(held: readonly Cell[], now: readonly Cell[], start: number, end: number, columns: number) {
  let best: Shift | null = null;
  let bestGained = 0;
  const last = Math.min(end, start + MAX_SEARCH);
  for (let p = start; p < last && best === null; p++) {
    for (let size = 1; size <= MAX_SHIFT; size++) {
      for (let sign = 1; sign >= -1; sign -= 2) {
        const by = sign * size;
        const deleted = Math.max(-by, 0);
        if (p + deleted >= columns) continue;
        // Inserted: the held cell at p lands on p + by; deleted: the one at p - by lands on p. The
        // text that moved starts there: a cell that does not land where it belongs ends the try.
        const first = at(held, p + deleted);
        if (looksBlank(first) || !unchanged(first, at(now, p + Math.max(by, 0)))) continue;
        const gained = gain(held, now, p + Math.max(by, 0), by, end);
        if (gained < MIN_GAIN || (best !== null && gained <= bestGained)) continue;
        const shift = { at: p, by };
        if (!keepsWideCharacters(held, shift, columns)) continue;
        best = shift;
        bestGained = gained;
      }
    }
  }
  return best;
}

/**
 * The shifts, left to right, that bring text of `held` (what the terminal shows on a row) to
 * where `now` has it, and the row each leaves (after it and those before it); null when no shift
 * looks worth it. Each shift is looked for at the start of a run of changed cells, in the row as
 * the shifts before it left it.
 */
export function planShifts(
  held: readonly Cell[],
  now: readonly Cell[],
  columns: number,
): { shifts: Shift[]; rows: Cell[][] } | null {
  // A shift moves cells the row shows, and starts at one that is not blank (see bestShift): a row
  // that shows none (every row of a cleared screen, so all of a start's first frame) has none to
  // move, and the search is skipped instead of failing at each of its positions.
  if (!held.some((cell) => !looksBlank(cell))) return null;
  let end = Math.min(now.length, columns);
  while (end > 0 && looksBlank(now[end - 1]!)) end--;
  let row: readonly Cell[] = held;
  const shifts: Shift[] = [];
  const rows: Cell[][] = [];
  let fresh = true;
  let tries = 0;
  let i = 0;
  while (i < end) {
    if (unchanged(at(row, i), now[i]!)) {
      fresh = true;
      i++;
      continue;
    }
    const look = fresh && tries < MAX_TRIES;
    const shift = look ? bestShift(row, now, i, end, columns) : null;
    if (look) tries++;
    fresh = false;
    if (shift === null) {
      i++;
      continue;
    }
    const next = shifted(row, shift, columns);
    row = next;
    rows.push(next);
    shifts.push(shift);
    i = shift.at + Math.max(shift.by, 0);
  }
  return shifts.length === 0 ? null : { shifts, rows };
}
