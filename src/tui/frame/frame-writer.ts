/**
 * Draws Ink's frames on the alternate screen by sending only the cells that changed.
 *
 * Ink (6.8) either erases and rewrites its whole output on every frame, or, with its incremental
 * mode, drifts a line down per frame when the output does not fill the screen. This sits between
 * Ink and the terminal: Ink writes a whole frame, and the terminal receives, in one synchronized
 * update, the runs of cells that differ from the last frame (compared cell by cell, with each
 * cell's style), each behind a cursor move. A streamed token costs its own characters.
 */
import { rowCells, type RowCells } from './row-cells';
import { planScroll, scrollCodes, shiftedRow } from './frame-scroll';
import { inLineSet, NOT_CSI } from './line-set';
import { diffRow, Pen } from './row-diff';

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
/** Erases the whole screen (the frame after it moves the cursor to each row it draws). */
const CLEAR = '\x1b[2J';
/** Clears every tab stop (TBC 3); each stop is then set with a move to its column and HTS (`ESC H`). */
const CLEAR_STOPS = '\x1b[3g';
/**
 * Ink's "erase the previous frame": erase-line / cursor-up pairs ending in cursor-left. Sticky
 * patterns matched from 0 with `test`, their end read from `lastIndex`: a frame is ~10 KB, and a
 * replace or an exec would copy it or allocate a match on every frame.
 */
const ERASE_PREFIX = /(?:\x1b\[2K(?:\x1b\[1A)?)+\x1b\[G/y;
const CLEAR_PREFIX = /(?:\x1b\[2J|\x1b\[3J|\x1b\[H|\x1b\[0f|\x1bc)+/y;

/** The length of what the sticky `pattern` matches at the start of `text`, 0 if nothing. */
function prefixLength(pattern: RegExp, text: string): number {
  pattern.lastIndex = 0;
  return pattern.test(text) ? pattern.lastIndex : 0;
}
const ONLY_CONTROL = /^(?:\x1b\[[0-9;?]*[A-Za-z])*$/;

/** SGR parameters that set a colour: 30-39, 40-49, 90-97, 100-107, and the 38/48 extended forms. */
function dropColours(sgr: string): string {
  const params = sgr.split(';');
  const kept: string[] = [];
  for (let i = 0; i < params.length; i++) {
    const n = Number(params[i]);
    if (n === 38 || n === 48) {
      i += params[i + 1] === '5' ? 2 : 4;
      continue;
    }
    if ((n >= 30 && n <= 49) || (n >= 90 && n <= 107)) continue;
    kept.push(params[i]!);
  }
  return kept.length === 0 ? '' : `\x1b[${kept.join(';')}m`;
}

/** A line with every colour code taken out (bold, dim, inverse and the rest stay): `NO_COLOR`. */
export function withoutColour(line: string): string {
  return line.replace(/\x1b\[([0-9;]*)m/g, (_, params: string) => (params === '' ? '\x1b[m' : dropColours(params)));
}

/** `stops` ascending, once each, inside the screen and past its first column (a carriage return reaches that). */
function usableStops(stops: readonly number[], columns: number): readonly number[] {
  return [...new Set(stops)]
    .filter((stop) => Number.isInteger(stop) && stop > 0 && stop < columns)
    .sort((a, b) => a - b);
}

const NO_CELLS: RowCells = { cells: [], uncertain: false };
/**
 * A frame that changes one row in fewer bytes than this goes out without the synchronized-update
 * pair (16 bytes, as much as a typed character's frame itself): the terminal reads so short a
 * write whole, and a row drawn half a read early shows nothing a user could catch.
 */
const UNSYNCED_BYTES = 64;
/** Fewer changed rows than this: no scroll is looked for (a streamed token changes one or two). */
const MIN_SCROLL_ROWS = 3;

export class FrameWriter {
  private previous: string[] = [];
  /** The cells of each row of `previous`, as far as they were needed. */
  private previousCells: (RowCells | undefined)[] = [];
  private readonly pen = new Pen();
  /** Runs of box-drawing characters go out in the DEC special graphics set (see `drawLineSet`). */
  private lineSet = false;
  /** Bytes sent for frames so far (for the bench's bytes-per-frame figure). */
  bytesWritten = 0;
  /** Whether rows that moved are scrolled by the terminal (off: the bench's same-run baseline). */
  scroll = true;
  framesWritten = 0;
  /** In-place diffs dropped part-built because they had grown longer than the frame's scroll. */
  diffsDropped = 0;
  /** Off: every in-place diff is built whole (the same bytes go out; a test compares the two). */
  dropsLongDiffs = true;
  private lost = false;
  /** The terminal was resized: the next frame is drawn whole, on a screen it clears in the same write. */
  private clearFirst = false;
  /** Where the panes start for a screen so wide (see `tabStops`); none: no tab stop is set. */
  private stopsFor: ((columns: number) => readonly number[]) | null = null;
  /** The tab stops this writer set in the terminal, null when not known (none set yet, or lost with a clear). */
  private stopsSet: readonly number[] | null = null;
  /** The stream to hand Ink: the real one, except that `write` goes through here. */
  readonly stream: NodeJS.WriteStream;

  /** With `noColor`, no colour code reaches the terminal, whoever asked for it (Ink resets included). */
  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly noColor = false,
  ) {
    const write = (data: string | Uint8Array, ...rest: unknown[]): boolean => {
      this.write(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));
      const callback = rest.find((r): r is () => void => typeof r === 'function');
      callback?.();
      return true;
    };
    this.stream = new Proxy(out, {
      get(target, property) {
        if (property === 'write') return write;
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** Draws the last frame whole again (after the screen was cleared: back from the user's editor). */
  repaint(): void {
    if (this.lost) return;
    // The screen was cleared, perhaps by a program that left the terminal in a style (and tab stops) of its own.
    this.pen.forget();
    this.stopsSet = null;
    const lines = this.previous;
    this.previous = [];
    this.previousCells = [];
    this.draw(lines);
  }

  /**
   * Runs of one character go out with REP from the first frame after `answer` says the terminal
   * repeats them (src/tui/frame/repeat-probe.ts; with `drawLineSet` on, whether it repeats ASCII
   * ones, so call that first). No frame waits for the answer: the first goes out at once, plain,
   * as does every frame before a yes (over a slow link the answer is a round trip away).
   */
  repeatsOnceAnswered(answer: Promise<boolean>): void {
    void answer.then((repeats) => {
      // Drawing in the graphics set (inside tmux), the question was whether ASCII is repeated.
      if (this.lineSet) this.pen.asciiRepeats = repeats;
      else this.pen.repeats = repeats;
    });
  }

  /**
   * Runs of box-drawing characters go out in the DEC special graphics set where no REP is used
   * (src/tui/frame/line-set.ts; `drawsLineSet` in src/tui/frame/repeat-probe.ts: inside tmux).
   */
  drawLineSet(on: boolean): void {
    this.lineSet = on;
  }

  /**
   * The columns where rows of the screen's panes start, for a screen `columns` wide: the writer sets
   * the terminal's tab stops there (clearing any others, which a user's `tabs` may have set) with
   * the first frame it draws, and again after a resize or a repaint (a terminal may reset them when
   * its width changes, a program run in between may set its own), so that a move to a pane's row
   * start is a carriage return, a line feed and a tab or two (`CR VT HT HT`, 4 bytes, against
   * `CR VT ESC[32C`'s 7): a reply's rows in the transcript cost 3 bytes less each. TBC and HTS are
   * VT100's, kept by every terminal that follows it (tmux, xterm, the Linux console).
   */
  tabStops(stopsFor: (columns: number) => readonly number[]): void {
    this.stopsFor = stopsFor;
    this.stopsSet = null;
  }

  /**
   * The terminal was resized: the next frame (the screen laid out for the new size) is drawn whole
   * on a cleared screen, the clear and the frame in one synchronized write, so the terminal shows
   * the old frame as it kept it until the new one is there, and no frame laid out for the old size.
   */
  resized(): void {
    if (this.lost) return;
    this.clearFirst = true;
  }

  /** The terminal is gone: frames are dropped from now on. */
  lose(): void {
    this.lost = true;
  }

  private write(data: string): void {
    if (this.lost) return;
    if (data === SYNC_START || data === SYNC_END) return;
    let rest = data;
    const cleared = prefixLength(CLEAR_PREFIX, rest);
    if (cleared > 0) {
      this.resized();
      rest = rest.slice(cleared);
    }
    const erased = prefixLength(ERASE_PREFIX, rest);
    if (erased > 0) rest = rest.slice(erased);
    if (rest === '' && cleared > 0) this.flushClear();
    if (rest === '') return;
    if (ONLY_CONTROL.test(rest)) {
      this.flushClear();
      this.out.write(rest);
      // Codes the pen does not follow (a style among them would leave it wrong).
      this.pen.forget();
      return;
    }
    const lines = rest.endsWith('\n') ? rest.slice(0, -1).split('\n') : rest.split('\n');
    this.draw(this.noColor ? lines.map(withoutColour) : lines);
  }

  /** A clear asked for with no frame to go with it (Ink cleared and wrote no lines) is written alone. */
  private flushClear(): void {
    if (!this.clearFirst) return;
    this.clearFirst = false;
    this.out.write(CLEAR);
    this.pen.forget();
    this.previous = [];
    this.previousCells = [];
    this.stopsSet = null;
  }

  private draw(frame: string[]): void {
    // Rows past the screen's bottom are never drawn: a terminal places every cursor move below its
    // last row on that row, so the rows a frame laid out before a resize has past the new bottom
    // (a repaint of the last frame) would each be written over the bottom row.
    const rows = this.out.rows || Number.POSITIVE_INFINITY;
    const lines = frame.length > rows ? frame.slice(0, rows) : frame;
    if (this.clearFirst) {
      // The screen is cleared first: every row of the frame is drawn, in no style assumed, and the
      // tab stops set again (a terminal may have reset them when its width changed).
      this.pen.forget();
      this.previous = [];
      this.previousCells = [];
      this.stopsSet = null;
    }
    const cells: (RowCells | undefined)[] = [];
    const count = Math.min(Math.max(lines.length, this.previous.length), rows);
    const columns = this.out.columns || 80;
    /** The rows whose text changed. */
    const changed: number[] = [];
    for (let i = 0; i < count; i++) {
      const line = lines[i] ?? '';
      const before = this.previous[i] ?? '';
      if (line === before) {
        cells.push(this.previousCells[i]);
        continue;
      }
      cells.push(rowCells(line, columns));
      changed.push(i);
    }
    const oneRow = changed.length === 1;
    const wanted =
      this.stopsSet === null && this.stopsFor !== null ? usableStops(this.stopsFor(columns), columns) : null;
    // The stops go out ahead of the frame's first move, which is absolute (the pen knows no cursor
    // between frames); the moves of this frame may use them.
    const setStops = wanted === null ? '' : CLEAR_STOPS + wanted.map((stop) => `\x1b[${stop + 1}G\x1bH`).join('');
    this.pen.stops = wanted ?? this.stopsSet ?? [];
    // In the graphics set, columns of rules are drawn down with `BS VT`; not in a frame holding an
    // escape other than CSI, which `inLineSet` leaves in UTF-8, where `│` may be drawn two columns wide.
    this.pen.linesDown = this.lineSet && !lines.some((line) => NOT_CSI.test(line)) ? columns : 0;
    let out: string;
    // On a cleared screen every row is drawn: nothing is there to scroll.
    if (this.clearFirst) {
      this.clearFirst = false;
      out = CLEAR + this.diffRows(lines, cells, changed, columns, true)!;
    } else {
      const scrolled =
        changed.length >= MIN_SCROLL_ROWS && this.scroll ? this.scrolled(lines, cells, changed, columns) : null;
      if (scrolled === null) out = this.diffRows(lines, cells, changed, columns, true)!;
      else {
        // A streamed frame whose rows moved up: the rows diffed in place are drawn first without
        // looking for sideways shifts (a search per row, most of a streamed frame's diff), and
        // with them only when that comes out shorter than the scroll.
        // A diff that grows past the scroll's bytes is dropped there, not built whole and thrown away
        // (it was most of what a paced reply allocated): the scroll is kept, as the whole diff's length decides.
        const pen = this.pen.save();
        const most = Buffer.byteLength(scrolled);
        const limit = this.dropsLongDiffs ? most : Number.POSITIVE_INFINITY;
        const plain = this.diffRows(lines, cells, changed, columns, false, limit);
        if (plain === null || most < Buffer.byteLength(plain)) out = scrolled;
        else {
          this.pen.restore(pen);
          const shifted = this.diffRows(lines, cells, changed, columns, true, limit);
          out = shifted === null || most < Buffer.byteLength(shifted) ? scrolled : shifted;
        }
      }
    }
    this.previous = lines;
    this.previousCells = cells;
    if (out === '') return;
    // Where REP is used it draws a rule in fewer bytes still.
    if (this.lineSet && !this.pen.repeats) out = inLineSet(out, this.pen.asciiRepeats);
    // After the graphics set's spans are chosen: HTS (`ESC H`) is an escape other than CSI, which
    // would keep the whole frame out of the set.
    // The clear of a resize first, as every frame drawn whole on a cleared screen begins.
    if (wanted !== null) {
      out = out.startsWith(CLEAR) ? CLEAR + setStops + out.slice(CLEAR.length) : setStops + out;
      this.stopsSet = wanted;
    }
    if (!oneRow || Buffer.byteLength(out) >= UNSYNCED_BYTES) out = SYNC_START + out + SYNC_END;
    this.bytesWritten += Buffer.byteLength(out);
    this.framesWritten++;
    this.out.write(out);
  }

  /**
   * The codes that turn the rows `changed` from the last frame into `lines` in place, ending with the
   * style reset; null once they are longer than `most` bytes (a UTF-16 unit is a byte of UTF-8 or
   * more, so a text longer than `most` units is longer in bytes too), the pen left as a whole diff
   * leaves it (nothing deferred, style reset, cursor forgotten).
   */
  private diffRows(
    lines: readonly string[],
    cells: readonly (RowCells | undefined)[],
    changed: readonly number[],
    columns: number,
    shifts: boolean,
    most = Number.POSITIVE_INFINITY,
  ): string | null {
    let out = '';
    for (const i of changed) {
      out += diffRow(this.pen, i, this.oldCells(i, columns), cells[i]!, lines[i] ?? '', columns, shifts);
      if (out.length > most) {
        this.pen.deferred();
        this.pen.reset();
        this.diffsDropped++;
        return null;
      }
    }
    // A frame may change nothing but cells left for its end (a rule alone, in the graphics set).
    out += this.pen.deferred();
    return out === '' ? '' : out + this.pen.reset();
  }

  /** The cells the terminal holds on row `i` from the last frame. */
  private oldCells(i: number, columns: number): RowCells {
    const before = this.previous[i] ?? '';
    return this.previousCells[i] ?? (before === '' ? NO_CELLS : rowCells(before, columns));
  }

  /**
   * The frame drawn with a scroll of the rows that moved, if one looks cheaper than the plain diff
   * (see src/tui/frame/frame-scroll.ts), ending with the style reset.
   */
  private scrolled(
    lines: readonly string[],
    cells: (RowCells | undefined)[],
    changed: readonly number[],
    columns: number,
  ): string | null {
    // The band must lie on the screen: a scroll region past its last row is ignored.
    const n = Math.min(cells.length, this.out.rows || 0);
    if (n < 2) return null;
    const old: RowCells[] = [];
    const now: RowCells[] = [];
    const oldLines: string[] = [];
    for (let i = 0; i < n; i++) {
      old.push(this.oldCells(i, columns));
      cells[i] ??= lines[i] ? rowCells(lines[i]!, columns) : NO_CELLS;
      now.push(cells[i]!);
      oldLines.push(this.previous[i] ?? '');
    }
    const scroll = planScroll(
      old,
      now,
      changed.filter((i) => i < n),
    );
    if (scroll === null) return null;
    const pen = new Pen();
    pen.repeats = this.pen.repeats;
    pen.asciiRepeats = this.pen.asciiRepeats;
    pen.linesDown = this.pen.linesDown;
    pen.stops = this.pen.stops;
    // The scroll codes reset the style and home the cursor.
    pen.cleared();
    let out = scrollCodes(scroll);
    for (let i = 0; i < cells.length; i++) {
      const line = lines[i] ?? '';
      const before = i < n ? shiftedRow(oldLines, scroll, i, '') : (this.previous[i] ?? '');
      if (line === before) continue;
      const held = i < n ? shiftedRow(old, scroll, i, NO_CELLS) : this.oldCells(i, columns);
      // A row inside the band holds what the scroll moved there: the rows beside the transcript,
      // moved up or down, are not the same text moved sideways, so no shift is looked for there
      // (the search was most of a scrolled frame's diff and found none). Rows outside it (the
      // status bar) are diffed as any frame's.
      const inBand = i >= scroll.top && i <= scroll.bottom;
      out += diffRow(pen, i, held, cells[i] ?? rowCells(line, columns), line, columns, !inBand);
    }
    return out + pen.deferred() + pen.reset();
  }
}
