/**
 * A drop-in for Ink 6.8's `build/output.js` (swapped in by the bundler: scripts/build.mjs) that
 * makes the same frame for a fraction of the work.
 *
 * Ink makes a new Output for every frame and, in `get()`, tokenizes every line on screen into
 * styled cells, cuts each line to its clip with `slice-ansi`, and serialises all cells back to a
 * string: about 20 ms a frame at 120x40, whatever changed. Here the same algorithm runs, with two
 * differences: what is derived from a line's text (its cells, its width, its cut) is kept across
 * frames, and each screen row is built only when what was written into it differs from a row
 * built before (a key of the row's writes: column and text). A key press that changes two rows
 * builds two rows. A row whose lines sit side by side (tole's panes: no line covers another) is
 * not built cell by cell at all: it is joined from each line's text, kept with its end styles,
 * so a scrolling transcript, which changes every row, costs a join per row. The output is the
 * same string Ink's own Output makes: test/tui checks this against Ink's class on random writes.
 */
import {
  ansiCodesToString,
  diffAnsiCodes,
  reduceAnsiCodesIncremental,
  styledCharsFromTokens,
  tokenize,
  type AnsiCode,
  type StyledChar,
} from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import { BLANK as BLANK_CELL, cellsOf, intensityTrap, rememberRow, rememberRowCells, type Cell } from './row-cells';
import widestLine, { clearWidths, widthOf } from '../text/text-width';

export type Transformer = (line: string, index: number) => string;

interface Clip {
  readonly x1?: number;
  readonly x2?: number;
  readonly y1?: number;
  readonly y2?: number;
}

export type Operation =
  | {
      readonly type: 'write';
      readonly x: number;
      readonly y: number;
      readonly text: string;
      readonly transformers: readonly Transformer[];
    }
  | { readonly type: 'clip'; readonly clip: Clip }
  | { readonly type: 'unclip' };

/**
 * Bounded by generations: when the newer map is full it becomes the older one and the oldest is
 * dropped; a key found only in the older map moves to the newer. What a frame keeps using stays,
 * and a long stream cannot grow it without end (at most twice `limit` keys). Cheaper than a
 * strict least-recently-used order, which reinserts a key on every hit.
 */
class BoundedCache<V> {
  private newer = new Map<string, V>();
  private older = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    const value = this.newer.get(key);
    if (value !== undefined) return value;
    const old = this.older.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }
  set(key: string, value: V): void {
    if (this.newer.size >= this.limit) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }
  clear(): void {
    this.newer.clear();
    this.older.clear();
  }
}

// Shared by every frame (and every Ink instance): each is keyed by content alone.
// Sized for a few screens of 40 rows of several writes each; a line's cells are the big ones.
const styledCharsCache = new BoundedCache<readonly StyledChar[]>(2_000);
/** A built row's text, and its cells (handed to the frame writer again whenever the row is reused). */
const rowCache = new BoundedCache<{ readonly line: string; readonly chars: readonly StyledChar[] }>(1_000);

/**
 * One line as written into a row, ready to be joined with its neighbours: its cells' styles at
 * either end, and its text between them (the first character's opening codes and the last
 * one's closing codes are the row's to write: they depend on the neighbours).
 */
interface Piece {
  readonly chars: readonly StyledChar[];
  /** Columns it covers: each character takes its width, at least 1 (as in Ink). */
  readonly width: number;
  readonly first: AnsiCode[];
  readonly last: AnsiCode[];
  /** The characters and the style changes between them, without the first opening or the last closing. */
  readonly inner: string;
  /** For the frame writer, made when a row holding the piece is first remembered. */
  cells?: { readonly cells: readonly Cell[]; readonly uncertain: boolean; readonly trapped: boolean };
}

const pieceCache = new BoundedCache<Piece>(4_000);

function pieceOf(line: string): Piece {
  let piece = pieceCache.get(line);
  if (piece === undefined) {
    const chars = styledChars(line);
    let width = 0;
    let inner = '';
    for (let i = 0; i < chars.length; i++) {
      const char = chars[i]!;
      width += Math.max(1, widthOf(char.value));
      if (i > 0) inner += change(chars[i - 1]!.styles, char.styles);
      inner += char.value;
    }
    const none = BLANK.styles;
    piece = { chars, width, first: chars[0]?.styles ?? none, last: chars.at(-1)?.styles ?? none, inner };
    pieceCache.set(line, piece);
  }
  return piece;
}

function pieceCells(piece: Piece): NonNullable<Piece['cells']> {
  if (piece.cells === undefined) {
    const { cells, uncertain } = cellsOf(piece.chars);
    let trapped = false;
    const chars = piece.chars;
    for (let i = 1; i < chars.length && !trapped; i++) trapped = intensityTrap(chars[i - 1]!.styles, chars[i]!.styles);
    piece.cells = { cells, uncertain, trapped };
  }
  return piece.cells;
}

/**
 * The codes between two neighbouring cells, as ansi-tokenize's `styledCharsToString` writes them.
 * Remembered per pair of style arrays (a piece keeps its end styles' arrays): a scrolled frame
 * joins the same neighbours on every row, and working the change out allocates several sets.
 */
const changes = new WeakMap<AnsiCode[], WeakMap<AnsiCode[], string>>();

function change(from: AnsiCode[], to: AnsiCode[]): string {
  if (from === to || sameCodes(from, to)) return '';
  let byTo = changes.get(from);
  if (byTo === undefined) changes.set(from, (byTo = new WeakMap()));
  let codes = byTo.get(to);
  if (codes === undefined) byTo.set(to, (codes = ansiCodesToString(diffAnsiCodes(from, to))));
  return codes;
}

function styledChars(line: string): readonly StyledChar[] {
  let chars = styledCharsCache.get(line);
  if (chars === undefined) {
    chars = styledCharsOfLine(line);
    styledCharsCache.set(line, chars);
  }
  return chars;
}

/**
 * `styledCharsFromTokens(tokenize(line))` of ansi-tokenize: the same characters with the same
 * styles. A line of simple characters (SIMPLE_TEXT) is read here without making a token per
 * character first, and the characters of a run between two codes share one array of styles
 * (nothing changes a character's styles) instead of each getting its own copy.
 */
export function styledCharsOfLine(line: string): StyledChar[] {
  if (!SIMPLE_TEXT.test(line)) return styledCharsFromTokens(tokenize(line));
  const chars: StyledChar[] = [];
  let codes: AnsiCode[] = [];
  let styles: AnsiCode[] | null = null;
  let at = 0;
  for (let esc = line.indexOf('\x1b'); ; esc = line.indexOf('\x1b', at)) {
    const end = esc === -1 ? line.length : esc;
    if (at < end) styles ??= [...codes];
    for (; at < end; at++) chars.push({ type: 'char', value: line[at]!, fullWidth: false, styles: styles! });
    if (esc === -1) return chars;
    const close = line.indexOf('m', esc);
    // As styledCharsFromTokens goes through the code's tokens.
    for (const token of sgrTokensOf(line.slice(esc, close + 1))) {
      if (token.type === 'ansi') {
        codes = reduceAnsiCodesIncremental(codes, [token]);
        styles = null;
      } else if (token.type === 'char') {
        styles ??= [...codes];
        chars.push({ ...token, styles });
      }
    }
    at = close + 1;
  }
}

type Token = ReturnType<typeof tokenize>[number];

/**
 * Characters that ansi-tokenize makes one narrow token each, whatever is around them: printable
 * ASCII, Latin letters, general punctuation (… • —), arrows, box drawing, blocks and shapes
 * (◀ ● ▍), braille (the spinner), and marks tole's own lines use (⏎ ❯ ✓ ✗ Σ ...: the status bar's
 * line, new on each streamed frame, has ⏎). None joins a neighbour into one grapheme or is wide.
 * test/tui/ink-output-matches-ink.test.ts checks every one of them against ansi-tokenize.
 */
export const SIMPLE_TEXT =
  /^(?:[\x20-\x7e\u00a0-\u02af\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u25fc\u2800-\u28ff\u03a3\u2212\u2298\u23ce\u2713\u2717\u2718\u276e\u276f\u27f2\u29d7]|\x1b\[[0-9;]*m)*$/;

/** The tokens of each SGR sequence met, as ansi-tokenize makes them (a compound one splits). */
const sgrTokens = new Map<string, readonly Token[]>();

/**
 * `tokenize(line)` of ansi-tokenize, the same tokens: a line of simple characters and SGR codes
 * is split here by a pattern, without the grapheme segmenter ansi-tokenize runs over each
 * character (most of the cost of a new line: a streamed frame brings a few).
 */
export function tokenizeLine(line: string): Token[] {
  if (!SIMPLE_TEXT.test(line)) return tokenize(line);
  const tokens: Token[] = [];
  let at = 0;
  for (let esc = line.indexOf('\x1b'); ; esc = line.indexOf('\x1b', at)) {
    const end = esc === -1 ? line.length : esc;
    for (; at < end; at++) tokens.push({ type: 'char', value: line[at]!, fullWidth: false });
    if (esc === -1) return tokens;
    const close = line.indexOf('m', esc);
    for (const token of sgrTokensOf(line.slice(esc, close + 1))) tokens.push(token);
    at = close + 1;
  }
}

/** `tokenize(code)` of one SGR sequence, remembered. */
function sgrTokensOf(code: string): readonly Token[] {
  let made = sgrTokens.get(code);
  if (made === undefined) {
    made = tokenize(code);
    if (sgrTokens.size >= 1_000) sgrTokens.clear();
    sgrTokens.set(code, made);
  }
  return made;
}

/**
 * Characters of SIMPLE_TEXT one column wide each (all but the soft hyphen, which takes none)
 * between SGR codes: such a line cut to its own width is itself, cell for cell, as printable ASCII
 * is. Borders, bullets, arrows and the spinner's braille are such text: the status bar's line, new
 * on each streamed frame, is not handed to slice-ansi.
 */
const NARROW =
  /^(?:[\x20-\x7e\u00a0-\u00ac\u00ae-\u02af\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u25fc\u2800-\u28ff\u03a3\u2212\u2298\u23ce\u2713\u2717\u2718\u276e\u276f\u27f2\u29d7]|\x1b\[[0-9;]*m)*$/;

/** Lines tested before (the same lines are clipped on every frame). */
const narrowLines = new Map<string, boolean>();

/** True when `line` cut from its first column to its width is the line itself (see NARROW). */
export function keptWhole(line: string): boolean {
  let narrow = narrowLines.get(line);
  if (narrow === undefined) {
    narrow = NARROW.test(line) && !leadSetsTwice(line);
    if (narrowLines.size >= 20_000) narrowLines.clear();
    narrowLines.set(line, narrow);
  }
  return narrow;
}

/**
 * Whether two of the SGR codes before the line's first character set the same attribute
 * (`ESC[1m ESC[48;2;1;2;3m ESC[1m`, or two colours): slice-ansi hands the codes it meets before the
 * first character on reduced and in another order, so such a line cut is not the line. Codes
 * between characters it hands on as they are.
 */
function leadSetsTwice(line: string): boolean {
  const lead = LEADING_CODES.exec(line)![0];
  if (lead.indexOf('\x1b', 1) === -1) return false;
  const ends = new Set<string>();
  for (const code of lead.split(/(?=\x1b)/))
    for (const token of sgrTokensOf(code)) {
      if (token.type !== 'ansi') continue;
      if (ends.has(token.endCode)) return true;
      ends.add(token.endCode);
    }
  return false;
}

const LEADING_CODES = /^(?:\x1b\[[0-9;]*m)*/;

/**
 * A line cut to a clip, remembered per line (keyed by the line alone: the same line is cut the
 * same way frame after frame, so its last cut is what the next frame asks for).
 */
const cuts = new BoundedCache<{ readonly from: number; readonly to: number; readonly cut: string }>(4_000);

function slice(line: string, from: number, to: number): string {
  const held = cuts.get(line);
  if (held !== undefined && held.from === from && held.to === to) return held.cut;
  const cut = sliceAnsi(line, from, to);
  cuts.set(line, { from, to, cut });
  return cut;
}

/** The lines of the row being joined and their columns (see `joinedRow`). */
const rowXs: number[] = [];
const rowPieces: Piece[] = [];

/** Runs of spaces between panes, made once for each length. */
const spaceRuns: string[] = [];

function spaces(count: number): string {
  let run = spaceRuns[count];
  if (run === undefined) {
    run = ' '.repeat(count);
    if (count <= 1_000) spaceRuns[count] = run;
  }
  return run;
}

/** Forgets every cached line and row (tests compare a cold frame with a warm one). */
export function clearOutputCaches(): void {
  styledCharsCache.clear();
  clearWidths();
  cuts.clear();
  rowCache.clear();
  pieceCache.clear();
  narrowLines.clear();
}

/** An empty cell: one shared object, never changed (a row of 120 needs no 120 new ones). */
const BLANK: StyledChar = Object.freeze({
  type: 'char',
  value: ' ',
  fullWidth: false,
  styles: Object.freeze([]) as unknown as AnsiCode[],
}) as StyledChar;

function sameCodes(a: readonly AnsiCode[], b: readonly AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code || a[i]!.endCode !== b[i]!.endCode) return false;
  return true;
}

/**
 * `styledCharsToString` of ansi-tokenize, the same string, without working out a style change
 * between neighbours whose styles are the same codes (most of a row): that change is none.
 */
function charsToString(chars: readonly StyledChar[]): string {
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (i === 0) out += ansiCodesToString(char.styles);
    else if (!sameCodes(chars[i - 1]!.styles, char.styles))
      out += ansiCodesToString(diffAnsiCodes(chars[i - 1]!.styles, char.styles));
    out += char.value;
    if (i === chars.length - 1 && char.styles.length > 0) out += ansiCodesToString(diffAnsiCodes(char.styles, []));
  }
  return out;
}

/**
 * Where a write's lines land, as [row, column, line] triples: the same for the same write (op)
 * under the same clip, kept for the writes a frame replays (src/tui/frame/ink-kept-walk.ts), so
 * a kept pane's lines are neither cut nor transformed again.
 */
const placements = new WeakMap<
  Operation,
  { readonly clip: Clip | undefined; readonly at: readonly (number | string)[] }
>();

export default class Output {
  readonly width: number;
  readonly height: number;
  private operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: readonly Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: 'write', x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: 'clip', clip });
  }

  unclip(): void {
    this.operations.push({ type: 'unclip' });
  }

  /** A text node's write, kept in its place even when empty (it may not be next frame); its index. */
  slot(x: number, y: number, text: string, transformers: readonly Transformer[]): number {
    this.operations.push({ type: 'write', x, y, text, transformers });
    return this.operations.length - 1;
  }

  /** The operations written so far (to be replayed by a later frame's Output). */
  recorded(): readonly Operation[] {
    return this.operations;
  }

  /** This frame's operations are `operations` (a kept frame's, some writes made again). */
  replay(operations: readonly Operation[]): void {
    this.operations = operations as Operation[];
  }

  get(): { output: string; height: number } {
    // What each row receives, in order: the column a line starts at, and the line.
    const rows: (number | string)[][] = [];
    for (let y = 0; y < this.height; y++) rows.push([]);
    const clips: Clip[] = [];
    for (const operation of this.operations) {
      if (operation.type === 'clip') {
        clips.push(operation.clip);
        continue;
      }
      if (operation.type === 'unclip') {
        clips.pop();
        continue;
      }
      // An empty slot (a text node with no text this frame): Ink writes nothing for it.
      if (operation.text === '') continue;
      const clip = clips.at(-1);
      let placed = placements.get(operation);
      if (placed === undefined || placed.clip !== clip) {
        placed = { clip, at: this.place(operation, clip) };
        placements.set(operation, placed);
      }
      const at = placed.at;
      for (let i = 0; i < at.length; i += 3) rows[at[i] as number]!.push(at[i + 1]!, at[i + 2]!);
    }
    const lines: string[] = [];
    for (let y = 0; y < this.height; y++) lines.push(this.row(rows[y]!));
    return { output: lines.join('\n'), height: this.height };
  }

  /** Where one write's lines land under `clip`, as Ink places them: [row, column, line] triples. */
  private place(operation: Extract<Operation, { type: 'write' }>, clip: Clip | undefined): (number | string)[] {
    const at: (number | string)[] = [];
    const { text, transformers } = operation;
    let { x, y } = operation;
    let lines = text.split('\n');
    if (clip) {
      const clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
      const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
      if (clipHorizontally) {
        const width = widestLine(text);
        if (x + width < clip.x1! || x > clip.x2!) return at;
      }
      if (clipVertically) {
        const height = lines.length;
        if (y + height < clip.y1! || y > clip.y2!) return at;
      }
      if (clipHorizontally) {
        const x1 = clip.x1!;
        const x2 = clip.x2!;
        lines = lines.map((line) => {
          const from = x < x1 ? x1 - x : 0;
          const width = widthOf(line);
          const to = x + width > x2 ? x2 - x : width;
          return from === 0 && to === width && keptWhole(line) ? line : slice(line, from, to);
        });
        if (x < x1) x = x1;
      }
      if (clipVertically) {
        const from = y < clip.y1! ? clip.y1! - y : 0;
        const height = lines.length;
        const to = y + height > clip.y2! ? clip.y2! - y : height;
        lines = lines.slice(from, to);
        if (y < clip.y1!) y = clip.y1!;
      }
    }
    let offsetY = 0;
    for (let index = 0; index < lines.length; index++) {
      const row = y + offsetY;
      // As in Ink: a line outside the screen is dropped, and the lines after it aim at the same row.
      if (!Number.isInteger(row) || row < 0 || row >= this.height) continue;
      let line = lines[index]!;
      for (const transformer of transformers) line = transformer(line, index);
      at.push(row, x, line);
      offsetY++;
    }
    return at;
  }

  /** One row: built from its writes, or the same row built before from the same writes. */
  private row(writes: readonly (number | string)[]): string {
    if (writes.length === 0) return '';
    const joined = this.joinedRow(writes);
    if (joined !== null) return joined;
    const key = `${this.width}\n${writes.join('\n')}`;
    let built = rowCache.get(key);
    if (built === undefined) {
      built = this.buildRow(writes);
      rowCache.set(key, built);
    }
    rememberRow(built.line, built.chars);
    return built.line;
  }

  /**
   * The row joined from its lines' pieces, when no line covers another and all fit in the row
   * (side-by-side panes, always): the same string as building the row cell by cell, without
   * touching a cell. Null otherwise: the row is built cell by cell, as Ink does.
   */
  private joinedRow(writes: readonly (number | string)[]): string | null {
    const count = writes.length / 2;
    // Reused row after row (read only until this returns: the cells below are made at once).
    // Their first `placed` entries are this row's: set by index, never emptied (an array's length set
    // to 0 drops its store, and every row made a new one).
    const xs = rowXs;
    const pieces = rowPieces;
    let placed = 0;
    for (let i = 0; i < count; i++) {
      const x = writes[2 * i] as number;
      const piece = pieceOf(writes[2 * i + 1] as string);
      if (piece.width === 0) continue;
      if (x < 0 || x + piece.width > this.width) return null;
      // In order of column (a few lines a row: insertion sort, after those at the same column).
      let at = placed++;
      for (; at > 0 && xs[at - 1]! > x; at--) {
        xs[at] = xs[at - 1]!;
        pieces[at] = pieces[at - 1]!;
      }
      xs[at] = x;
      pieces[at] = piece;
    }
    const none = BLANK.styles;
    let out = '';
    let previous: AnsiCode[] | null = null;
    let column = 0;
    for (let i = 0; i < placed; i++) {
      const x = xs[i]!;
      if (x < column) return null;
      const piece = pieces[i]!;
      if (x > column) {
        out += (previous === null ? '' : change(previous, none)) + spaces(x - column);
        previous = none;
      }
      out += (previous === null ? ansiCodesToString(piece.first) : change(previous, piece.first)) + piece.inner;
      previous = piece.last;
      column = x + piece.width;
    }
    // Ink pads the row with spaces to its width and trims them off again: only the style's end is written.
    if (previous !== null) out += change(previous, none);
    const line = out.trimEnd();
    rememberRowCells(line, () => {
      const cells: Cell[] = [];
      let uncertain = false;
      let at = 0;
      let before: readonly AnsiCode[] = none;
      for (let i = 0; i < placed; i++) {
        // Bold and dim share their end code: a row that drops one beside the other is parsed instead.
        if (at === xs[i] && intensityTrap(before, pieces[i]!.first)) return null;
        for (; at < xs[i]!; at++) cells.push(BLANK_CELL);
        const made = pieceCells(pieces[i]!);
        if (made.trapped) return null;
        // By index: the profile of a paced reply showed the array iterator's results allocated here.
        const madeCells = made.cells;
        for (let k = 0; k < madeCells.length; k++) cells.push(madeCells[k]!);
        uncertain ||= made.uncertain;
        at += pieces[i]!.width;
        before = pieces[i]!.last;
      }
      // No blank cells past the last piece: rememberRowCells drops a row's trailing blanks anyway.
      return { cells, uncertain };
    });
    return line;
  }

  private buildRow(writes: readonly (number | string)[]): { line: string; chars: readonly StyledChar[] } {
    const cells: StyledChar[] = [];
    for (let x = 0; x < this.width; x++) cells.push(BLANK);
    for (let i = 0; i < writes.length; i += 2) {
      let offsetX = writes[i] as number;
      for (const character of styledChars(writes[i + 1] as string)) {
        cells[offsetX] = character;
        const characterWidth = Math.max(1, widthOf(character.value));
        for (let k = 1; k < characterWidth; k++)
          cells[offsetX + k] = { type: 'char', value: '', fullWidth: false, styles: character.styles };
        offsetX += characterWidth;
      }
    }
    const chars = cells.filter((cell) => cell !== undefined);
    return { line: charsToString(chars).trimEnd(), chars };
  }
}
