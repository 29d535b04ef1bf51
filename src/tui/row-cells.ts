/**
 * One screen row as the terminal will hold it: a cell per column, each with its text and its
 * style. The frame writer compares two such rows to send only the cells that changed.
 */
import { styledCharsFromTokens, tokenize, type AnsiCode } from '@alcalzone/ansi-tokenize';
import stringWidth from 'string-width';

export interface Cell {
  /** The grapheme drawn here; '' for the right half of a wide character. */
  readonly text: string;
  /** 2 for a wide character's left half, 0 for its right half, else 1. */
  readonly width: 0 | 1 | 2;
  readonly styles: readonly AnsiCode[];
  /** The styles as one string: equal keys, equal look. */
  readonly style: string;
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

const widths = new Map<string, number>();

function widthOf(text: string): number {
  let width = widths.get(text);
  if (width === undefined) {
    width = stringWidth(text);
    if (widths.size >= 20_000) widths.clear();
    widths.set(text, width);
  }
  return width;
}

/** A single code point that every terminal draws one column wide, or a plain East Asian wide one. */
function certain(text: string, width: number): boolean {
  const code = text.codePointAt(0)!;
  if (text.length > (code > 0xffff ? 2 : 1)) return false;
  if (width === 1) return true;
  return width === 2 && !/\p{Extended_Pictographic}/u.test(text);
}

const EMPTY: RowCells = { cells: [], uncertain: false };

/**
 * The cells of one line of a frame (text with SGR codes), from column 0, on a screen `columns`
 * wide (a wide character cut by the right edge is drawn differently by each terminal).
 */
export function rowCells(line: string, columns: number): RowCells {
  if (line === '') return EMPTY;
  const cells: Cell[] = [];
  let uncertain = false;
  for (const char of styledCharsFromTokens(tokenize(line))) {
    const measured = widthOf(char.value);
    if (!uncertain && !certain(char.value, measured)) uncertain = true;
    const style = char.styles.length === 0 ? '' : char.styles.map((code) => code.code).join('');
    if (measured >= 2) {
      cells.push({ text: char.value, width: 2, styles: char.styles, style });
      cells.push({ text: '', width: 0, styles: char.styles, style });
    } else {
      cells.push({ text: char.value, width: 1, styles: char.styles, style });
    }
  }
  return { cells, uncertain: uncertain || cells.length > columns };
}

/** A cell past the end of a row: a space with no style. */
export const BLANK: Cell = { text: ' ', width: 1, styles: [], style: '' };

export function sameCell(a: Cell, b: Cell): boolean {
  return a.text === b.text && a.style === b.style && a.width === b.width;
}

/** True when the cell looks like the terminal's own erased cell (a space, no style at all). */
export function isBlank(cell: Cell): boolean {
  return cell.text === ' ' && cell.style === '';
}
