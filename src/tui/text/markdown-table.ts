import { sanitize } from './cell-width';
import { seg, lineWidth, truncateLine, type Line, type Segment } from '../style/styled-line';
import type { StyleName } from '../style/styles';

/**
 * Pipe tables (`| a | b |`, a delimiter row `|---|:-:|`, then rows) laid out as aligned columns
 * that fit the pane: the widest columns give up cells first and long cells end with `…`.
 */

type Align = 'left' | 'center' | 'right';

const DELIMITER_CELL = /^:?-+:?$/;

/** The cells of a row: split at pipes that are not escaped, outer pipes dropped, `\|` read as `|`. */
export function tableCells(raw: string): string[] {
  let text = raw.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Whether a line may be a table row: it has a pipe. */
export function isPipeLine(raw: string): boolean {
  return raw.includes('|');
}

/** The column alignments a delimiter row gives, or null when the line is not one for `columns` columns. */
export function delimiterAligns(raw: string, columns: number): Align[] | null {
  if (!isPipeLine(raw)) return null;
  const cells = tableCells(raw);
  if (cells.length !== columns || !cells.every((c) => DELIMITER_CELL.test(c))) return null;
  return cells.map((c) => (c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : 'left'));
}

function pad(line: Line, width: number, align: Align): Line {
  const cut = truncateLine(line, width);
  const room = width - lineWidth(cut);
  const left = align === 'right' ? room : align === 'center' ? Math.floor(room / 2) : 0;
  return [seg(' '.repeat(left)), ...cut, seg(' '.repeat(room - left))].filter((s) => s.text !== '');
}

const SEPARATOR = ' │ ';

/**
 * The screen lines of a table: `header` and `rows` are raw source lines, `aligns` from the
 * delimiter row. Null when not even three cells a column fit in `width` (the caller shows the
 * source as text then).
 */
export function tableLines(
  header: string,
  aligns: readonly Align[],
  rows: readonly string[],
  width: number,
  inline: (text: string, base: StyleName) => Segment[],
): Line[] | null {
  const n = aligns.length;
  const cellsOf = (raw: string, base: StyleName): Line[] => {
    const cells = tableCells(raw);
    return aligns.map((_, i) => inline(sanitize(cells[i] ?? ''), base));
  };
  const head = cellsOf(header, 'heading');
  const body = rows.map((raw) => cellsOf(raw, 'text'));
  const widths = aligns.map((_, i) => Math.max(1, ...[head, ...body].map((row) => lineWidth(row[i]!))));
  const room = width - SEPARATOR.length * (n - 1);
  if (room < 3 * n) return null;
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > room) {
    const widest = widths.indexOf(Math.max(...widths));
    widths[widest]!--;
    total--;
  }
  const row = (cells: readonly Line[]): Line => {
    const out: Segment[] = [];
    cells.forEach((cell, i) => {
      if (i > 0) out.push(seg(SEPARATOR, 'muted'));
      out.push(...pad(cell, widths[i]!, aligns[i]!));
    });
    return out;
  };
  const rule: Line = [seg(widths.map((w) => '─'.repeat(w)).join('─┼─'), 'muted')];
  return [row(head), rule, ...body.map(row)];
}
