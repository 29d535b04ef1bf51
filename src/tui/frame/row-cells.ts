/**
 * One screen row as the terminal will hold it: a cell per column, each with its text and its
 * style. The frame writer compares two such rows to send only the cells that changed.
 */
import { styledCharsFromTokens, tokenize, type AnsiCode, type StyledChar } from '@alcalzone/ansi-tokenize';
import { widthOf } from '../text/text-width';

export interface Cell {
  /** The grapheme drawn here; '' for the right half of a wide character. */
  readonly text: string;
  /** 2 for a wide character's left half, 0 for its right half, else 1. */
  readonly width: 0 | 1 | 2;
  readonly styles: readonly AnsiCode[];
  /** The styles as one string: equal keys, equal look. */
  readonly style: string;
  /** False when terminals may not agree on this character's width (see `RowCells.uncertain`). */
  readonly certain: boolean;
}

export interface RowCells {
  readonly cells: readonly Cell[];
  /**
   * True when some grapheme may take a different number of columns in the terminal than here
   * (zero-width marks, emoji sequences, variation selectors): such a row is written whole, from
   * its first column, so the terminal lays it out itself.
   */
  readonly uncertain: boolean;
}

/** A single code point that every terminal draws one column wide, or a plain East Asian wide one. */
function certain(text: string, width: number): boolean {
  const code = text.codePointAt(0)!;
  if (text.length > (code > 0xffff ? 2 : 1)) return false;
  // Regional indicators: two in a row make one flag, whoever wrote them.
  if (code >= 0x1f1e6 && code <= 0x1f1ff) return false;
  if (width === 1) return true;
  return width === 2 && !/\p{Extended_Pictographic}/u.test(text);
}

const EMPTY: RowCells = { cells: [], uncertain: false };

/**
 * The cell (or, for a wide character, the cell and its right half) of a character in a style,
 * shared by every character of that text and style: cells are never changed, and a row of 120
 * needs no 120 new ones. Keyed by the style's codes, then by the character.
 */
const cellsByStyle = new Map<string, Map<string, readonly Cell[]>>();
/** Characters kept per style before that style's cells are dropped (CJK text has many). */
const MAX_PER_STYLE = 4_000;
/** Styles kept (a theme uses a few dozen; true-colour text from a tool could bring many). */
const MAX_STYLES = 1_000;

function makeCells(char: StyledChar, style: string): readonly Cell[] {
  const measured = widthOf(char.value);
  const certainWidth = certain(char.value, measured);
  return measured >= 2
    ? [
        { text: char.value, width: 2, styles: char.styles, style, certain: certainWidth },
        { text: '', width: 0, styles: char.styles, style, certain: true },
      ]
    : [{ text: char.value, width: 1, styles: char.styles, style, certain: certainWidth }];
}

function sameStyles(a: readonly AnsiCode[], b: readonly AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code) return false;
  return true;
}

/** Cells of the characters of a row, in order ('' values, the right halves Ink keeps, skipped). */
export function cellsOf(chars: readonly StyledChar[]): { cells: Cell[]; uncertain: boolean } {
  const cells: Cell[] = [];
  let uncertain = false;
  // Neighbours mostly share a style: its key and cells are looked up once per run of it.
  let runStyles: readonly AnsiCode[] | null = null;
  let style = '';
  let byChar: Map<string, readonly Cell[]> | undefined;
  for (const char of chars) {
    if (char.value === '') continue;
    if (runStyles === null || !sameStyles(runStyles, char.styles)) {
      runStyles = char.styles;
      style = char.styles.length === 0 ? '' : char.styles.map((code) => code.code).join('');
      byChar = cellsByStyle.get(style);
      if (byChar === undefined) {
        if (cellsByStyle.size >= MAX_STYLES) cellsByStyle.clear();
        cellsByStyle.set(style, (byChar = new Map()));
      }
    }
    let made = byChar!.get(char.value);
    if (made === undefined) {
      if (byChar!.size >= MAX_PER_STYLE) byChar!.clear();
      made = makeCells(char, style);
      byChar!.set(char.value, made);
    }
    // By index: the profile of a paced reply showed the array iterator's results allocated here.
    for (let k = 0; k < made.length; k++) {
      const cell = made[k]!;
      if (!cell.certain) uncertain = true;
      cells.push(cell);
    }
  }
  return { cells, uncertain };
}

/**
 * Rows whose cells are known already: Ink's output (src/tui/frame/ink-output.ts) builds each row from
 * cells and hands them here with the row's text, so the frame writer need not parse it again.
 */
const known = new Map<string, { cells: Cell[]; uncertain: boolean } | null>();
/** Two screens and more: a row of this frame or the last is always here. */
const MAX_KNOWN = 300;

/** Intensity (bold 1, dim 2) share their end code: a row whose text drops one and keeps the other renders as neither. */
export function intensityTrap(from: readonly AnsiCode[], to: readonly AnsiCode[]): boolean {
  const dropped = from.some(
    (code) => (code.code === '\x1b[1m' || code.code === '\x1b[2m') && !to.some((kept) => kept.code === code.code),
  );
  return (
    dropped &&
    to.some(
      (code) => (code.code === '\x1b[1m' || code.code === '\x1b[2m') && from.some((had) => had.code === code.code),
    )
  );
}

/**
 * Remembers the cells of `line`, the text that `chars` (a row of Ink's output, right halves of
 * wide characters as '') serialise to. A row whose text would not show its cells' styles as
 * they are is not remembered: it is parsed from its text like any other.
 */
export function rememberRow(line: string, chars: readonly StyledChar[]): void {
  rememberRowCells(line, () => {
    for (let i = 1; i < chars.length; i++) if (intensityTrap(chars[i - 1]!.styles, chars[i]!.styles)) return null;
    return cellsOf(chars);
  });
}

/**
 * Remembers the cells of `line` as `make` builds them (called only for a line not known yet);
 * null from `make`: the line is parsed from its text when the frame writer needs it.
 */
export function rememberRowCells(line: string, make: () => { cells: Cell[]; uncertain: boolean } | null): void {
  if (line === '') return;
  const had = known.get(line);
  if (had !== undefined) {
    // Most recently used last: rows on screen stay, whatever scrolled past goes first.
    known.delete(line);
    known.set(line, had);
    return;
  }
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  const made = make();
  // Unstyled spaces past the last character are the row's padding, not its text (as parsed from it).
  if (made) while (made.cells.length > 0 && isBlank(made.cells.at(-1)!)) made.cells.pop();
  known.set(line, made);
}

/**
 * The cells of one line of a frame (text with SGR codes), from column 0, on a screen `columns`
 * wide (a wide character cut by the right edge is drawn differently by each terminal).
 */
export function rowCells(line: string, columns: number): RowCells {
  if (line === '') return EMPTY;
  const { cells, uncertain } = known.get(line) ?? cellsOf(styledCharsFromTokens(tokenize(line)));
  return { cells, uncertain: uncertain || cells.length > columns };
}

/** A cell past the end of a row: a space with no style. */
export const BLANK: Cell = { text: ' ', width: 1, styles: [], style: '', certain: true };

export function sameCell(a: Cell, b: Cell): boolean {
  // Cells are shared (see `cellsByStyle`): the same cell is the common case.
  return a === b || (a.text === b.text && a.style === b.style && a.width === b.width);
}

/** True when the cell looks like the terminal's own erased cell (a space, no style at all). */
export function isBlank(cell: Cell): boolean {
  return cell.text === ' ' && cell.style === '';
}

/**
 * End codes of the styles a space does not show: its foreground colour, bold, dim, italic, blink,
 * hidden. (A background, inverse, underline, overline or strike-through shows on a space.)
 */
const UNSEEN_ON_A_SPACE = new Set(['\x1b[39m', '\x1b[22m', '\x1b[23m', '\x1b[25m', '\x1b[28m']);

/** True when every style of `styles` leaves a space looking like an erased cell. */
export function spacesLookBlank(styles: readonly AnsiCode[]): boolean {
  return styles.every((code) => UNSEEN_ON_A_SPACE.has(code.endCode));
}

/** True when the cell looks like an erased cell on screen: a space in a style a space does not show. */
export function looksBlank(cell: Cell): boolean {
  return cell.text === ' ' && (cell.style === '' || spacesLookBlank(cell.styles));
}
