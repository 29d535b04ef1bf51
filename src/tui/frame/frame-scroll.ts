/**
 * When the new frame is the last one moved up (or down) by k rows inside a band of rows (the
 * transcript scrolled while a reply streams), the terminal can move those rows itself: a scroll
 * region over the band (DECSTBM, `CSI top;bottom r`), a scroll by k (`CSI k S`, or `CSI k T`
 * down), the region reset (`CSI r`), then the usual cell diff against what the terminal now
 * holds. Scroll regions span the full width (left/right margins are not used: not every
 * terminal or multiplexer has them), so panes beside the transcript move too and are repaired by
 * the diff; the frame writer compares the bytes of both ways and sends the cheaper.
 */
import { BLANK, isBlank, sameCell, type Cell, type RowCells } from './row-cells';

interface Scroll {
  /** First and last row of the band (0-based, inclusive). */
  readonly top: number;
  readonly bottom: number;
  /** Rows the band's content moves: > 0 up (new row r shows old row r + by), < 0 down. */
  readonly by: number;
}

/** Rows whose changed cells are looked for higher or lower in the last frame. */
const MAX_SAMPLES = 8;
/** A shift must be seen on this many sampled rows to be tried. */
const MIN_VOTES = 2;
/** Shifts tried at most, the most seen first. */
const MAX_CANDIDATES = 4;

const EMPTY_ROW: RowCells = { cells: [], uncertain: false };
const at = (cells: readonly Cell[], i: number): Cell => cells[i] ?? BLANK;

/** What the estimate counts for a cursor move, a style change, and unchanged cells joined into a run. */
const MOVE_BYTES = 7;
const STYLE_BYTES = 12;
const MAX_GAP = 3;

/** About the bytes of a cell's text (box drawing and the like take three). */
const textBytes = (cell: Cell): number => (cell.text.length === 1 && cell.text.charCodeAt(0) < 0x80 ? 1 : 3);

/**
 * About the bytes the cell diff sends to turn `before` into `after` (src/tui/frame/row-diff.ts): a
 * cursor move per run of changed cells, a style code where the style changes, the text. Counted
 * without building the codes: planning looks at every row under two or three shifts.
 */
function diffBytes(before: RowCells, after: RowCells): number {
  const now = after.cells;
  let bytes = 0;
  if (before.uncertain || after.uncertain) {
    for (const cell of now) bytes += textBytes(cell);
    return MOVE_BYTES + STYLE_BYTES + bytes;
  }
  const old = before.cells;
  let end = now.length;
  while (end > 0 && isBlank(now[end - 1]!)) end--;
  let style: string | null = null;
  let last = -MAX_GAP - 2;
  for (let i = 0; i < end; i++) {
    const cell = now[i]!;
    const had = old[i];
    if (had === cell || (had !== undefined ? sameCell(had, cell) : isBlank(cell))) continue;
    bytes += i - last > MAX_GAP + 1 ? MOVE_BYTES : i - last - 1;
    if (cell.style !== style) {
      bytes += STYLE_BYTES;
      style = cell.style;
    }
    bytes += textBytes(cell);
    last = i;
  }
  for (let j = end; j < old.length; j++) if (!isBlank(old[j]!)) return bytes + MOVE_BYTES + 3;
  return bytes;
}

/**
 * The codes that scroll the band: a style reset first (rows scrolled in take the current
 * background), and the region reset after (it homes the cursor: the diff then moves it itself).
 */
export function scrollCodes(scroll: Scroll): string {
  const by = Math.abs(scroll.by);
  const move = `\x1b[${by === 1 ? '' : by}${scroll.by > 0 ? 'S' : 'T'}`;
  return `\x1b[m\x1b[${scroll.top + 1};${scroll.bottom + 1}r${move}\x1b[r`;
}

/** What row `r` holds once `scroll` moved the rows `old` (an empty row for those scrolled in). */
export function shiftedRow<T>(old: readonly T[], scroll: Scroll, r: number, empty: T): T {
  if (r < scroll.top || r > scroll.bottom) return old[r]!;
  const from = r + scroll.by;
  return from < scroll.top || from > scroll.bottom ? empty : old[from]!;
}

/** Unchanged cells inside a row's changed columns that still join two changed runs into one stretch. */
const MAX_STRETCH_GAP = 2;
/** Changed stretches shorter than this cast no vote (a glyph or a digit is found anywhere). */
const MIN_STRETCH = 3;

/**
 * The stretches of columns where a row changed, `[first, last]` each: panes side by side move by
 * different amounts (the tree by the one entry added, the transcript by the reply's lines), so each
 * stretch is looked for on its own.
 */
function changedStretches(a: readonly Cell[], b: readonly Cell[]): [number, number][] {
  const length = Math.max(a.length, b.length);
  const stretches: [number, number][] = [];
  let first = -1;
  let last = -1;
  for (let c = 0; c < length; c++) {
    if (sameCell(at(a, c), at(b, c))) continue;
    if (first >= 0 && c - last > MAX_STRETCH_GAP + 1) {
      stretches.push([first, last]);
      first = -1;
    }
    if (first < 0) first = c;
    last = c;
  }
  if (first >= 0) stretches.push([first, last]);
  return stretches.filter(([from, to]) => to - from + 1 >= MIN_STRETCH);
}

/** Shifts k (> 0: content moved up) under which some changed rows' new cells stood in the last frame. */
function candidates(old: readonly RowCells[], now: readonly RowCells[], changed: readonly number[]): number[] {
  const n = now.length;
  const votes = new Map<number, number>();
  const step = Math.max(1, Math.floor(changed.length / MAX_SAMPLES));
  for (let s = 0; s < changed.length; s += step) {
    const r = changed[s]!;
    if (old[r]!.uncertain || now[r]!.uncertain) continue;
    const b = now[r]!.cells;
    // Only the columns that changed are looked for (the panes beside them did not move).
    const seen = new Set<number>();
    for (const [first, last] of changedStretches(old[r]!.cells, b)) {
      for (let d = 1; d < n; d++) {
        for (const k of [d, -d]) {
          const j = r + k;
          if (j < 0 || j >= n || seen.has(k)) continue;
          const o = old[j]!.cells;
          let same = true;
          for (let c = first; c <= last && same; c++) same = sameCell(at(o, c), at(b, c));
          if (!same) continue;
          seen.add(k);
          votes.set(k, (votes.get(k) ?? 0) + 1);
        }
      }
    }
  }
  return [...votes]
    .filter(([, count]) => count >= MIN_VOTES)
    .sort((x, y) => y[1] - x[1] || Math.abs(x[0]) - Math.abs(y[0]))
    .slice(0, MAX_CANDIDATES)
    .map(([k]) => k);
}

/**
 * The band that saves most for an upward shift by `k`, with rows read top down: `gain[r]` is what
 * row r saves when it holds old row r + k, `edge[r]` what it saves when it is scrolled in blank.
 * A band [top, m + k] moves rows top..m and scrolls in m + 1..m + k.
 */
function bestBand(
  gain: readonly number[],
  edge: readonly number[],
  k: number,
): { top: number; m: number; saved: number } {
  const n = edge.length;
  const tail: number[] = [0];
  for (let r = 0; r < n; r++) tail.push(tail[r]! + edge[r]!);
  let best = { top: 0, m: -1, saved: 0 };
  let run = 0;
  let start = 0;
  for (let m = 0; m + k < n; m++) {
    if (run <= 0) {
      run = 0;
      start = m;
    }
    run += gain[m]!;
    const saved = run + tail[m + k + 1]! - tail[m + 1]!;
    if (saved > best.saved) best = { top: start, m, saved };
  }
  return best;
}

/**
 * A scroll that makes turning `old` into `now` (rows as the terminal holds them) cheaper than the
 * plain diff, or null. `changed`: the rows whose text changed. Estimates only: the caller builds
 * both and sends the shorter.
 */
export function planScroll(
  old: readonly RowCells[],
  now: readonly RowCells[],
  changed: readonly number[],
): Scroll | null {
  const n = now.length;
  // Rows of the same text share their cells (see rememberRowCells): the same cells cost nothing.
  const cost = (r: number, before: RowCells): number =>
    before.cells === now[r]!.cells && !before.uncertain ? 0 : diffBytes(before, now[r]!);
  let plain: number[] | undefined;
  let edge: number[] | undefined;
  // A scroll must save more than its own codes cost; of the shifts tried, the one that saves most.
  let bestSaved = scrollCodes({ top: 10, bottom: 40, by: 1 }).length;
  let best: Scroll | null = null;
  for (const k of candidates(old, now, changed)) {
    plain ??= now.map((_, r) => cost(r, old[r]!));
    edge ??= now.map((_, r) => plain![r]! - cost(r, EMPTY_ROW));
    const d = Math.abs(k);
    // A downward shift is an upward one with the rows read bottom up.
    const row = (i: number): number => (k > 0 ? i : n - 1 - i);
    const gain: number[] = [];
    for (let i = 0; i + d < n; i++) gain.push(plain[row(i)]! - cost(row(i), old[row(i + d)]!));
    const band = bestBand(gain, k > 0 ? edge : [...edge].reverse(), d);
    if (band.m < 0 || band.saved <= bestSaved) continue;
    const ends = [row(band.top), row(band.m + d)];
    best = { top: Math.min(...ends), bottom: Math.max(...ends), by: k };
    bestSaved = band.saved;
  }
  return best;
}
