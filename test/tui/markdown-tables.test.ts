import { describe, expect, it } from 'vitest';
import { cellWidth } from '../../src/tui/text/cell-width';
import { clearMarkdownMemo, markdownLines } from '../../src/tui/text/markdown-lines';
import type { Line } from '../../src/tui/style/styled-line';

const plain = (line: Line): string => line.map((s) => s.text).join('');
const shown = (text: string, width = 60): string[] => markdownLines(text, width).map(plain);

describe('pipe tables in the transcript', () => {
  it('aligns columns by the delimiter row and styles the header as a heading', () => {
    const lines = markdownLines('| name | n | mid |\n|:--|--:|:-:|\n| a | 1 | x |\n| longer | 100 | y |', 60);
    expect(lines.map(plain)).toEqual([
      'name   │   n │ mid',
      '───────┼─────┼────',
      'a      │   1 │  x ',
      'longer │ 100 │  y ',
    ]);
    expect(lines[0]!.some((s) => s.text === 'name' && s.style === 'heading')).toBe(true);
  });

  it('measures wide and emoji cells in screen cells', () => {
    const out = shown('| k | v |\n|---|---|\n| 宽宽 | 👍 |\n| a | b |');
    const widths = out.map(cellWidth);
    expect(new Set(widths).size).toBe(1);
    expect(out[2]).toBe('宽宽 │ 👍');
    expect(out[3]).toBe('a    │ b ');
  });

  it('fits a narrow pane by shrinking the widest column and cutting with an ellipsis', () => {
    const out = shown('| id | description |\n|---|---|\n| 1 | a very long description of the row |', 20);
    for (const line of out) expect(cellWidth(line)).toBeLessThanOrEqual(20);
    expect(out[2]).toBe('1  │ a very long de…');
  });

  it('reads escaped pipes as text inside a cell', () => {
    expect(shown('| cmd | note |\n|---|---|\n| a \\| b | ok |')[2]).toBe('a | b │ ok  ');
  });

  it('leaves pipes without a delimiter row as text', () => {
    expect(shown('a | b\nplain text')).toEqual(['a | b', 'plain text']);
  });

  it('renders a table streaming in the middle of a paragraph, then the paragraph after it', () => {
    const text = `${'Some words before. '.repeat(40)}\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\nAfter the table.`;
    clearMarkdownMemo();
    for (let end = 1; end <= text.length; end++) {
      const streamed = JSON.stringify(markdownLines(text.slice(0, end), 40));
      clearMarkdownMemo();
      expect(streamed).toBe(JSON.stringify(markdownLines(text.slice(0, end), 40)));
      markdownLines(text.slice(0, end), 40);
    }
    const whileStreaming = shown(text.slice(0, text.indexOf('| 3 |') + 3), 40);
    expect(whileStreaming.slice(-4)).toEqual(['a │ b', '──┼──', '1 │ 2', '3 │  ']);
    expect(shown(text, 40).slice(-5)).toEqual(['a │ b', '──┼──', '1 │ 2', '3 │ 4', 'After the table.']);
  });
});
