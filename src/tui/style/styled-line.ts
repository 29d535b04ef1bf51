import { cellWidth, graphemes, sanitize } from '../text/cell-width';
import type { StyleName } from './styles';

/** A run of text in one style. */
export interface Segment {
  readonly text: string;
  readonly style?: StyleName;
}

/** One screen line: segments whose widths add up to at most the pane's width. */
export type Line = readonly Segment[];

const EMPTY_LINE: Line = [];

export function seg(text: string, style?: StyleName): Segment {
  return style ? { text, style } : { text };
}

export function lineWidth(line: Line): number {
  let width = 0;
  for (const s of line) width += cellWidth(s.text);
  return width;
}

/** Cuts a line to `width` cells, marking the cut with `…`. */
export function truncateLine(line: Line, width: number): Line {
  if (lineWidth(line) <= width) return line;
  const out: Segment[] = [];
  let used = 0;
  for (const s of line) {
    let text = '';
    for (const g of graphemes(s.text)) {
      if (used + g.width > width - 1) {
        if (text) out.push({ ...s, text });
        out.push(s.style ? { text: '…', style: s.style } : { text: '…' });
        return out;
      }
      text += g.text;
      used += g.width;
    }
    out.push({ ...s, text });
  }
  return out;
}

interface Token {
  readonly text: string;
  readonly style?: StyleName;
  readonly width: number;
  readonly space: boolean;
}

function tokenize(line: Line): Token[] {
  const tokens: Token[] = [];
  for (const s of line) {
    for (const part of sanitize(s.text).split(/(\s+)/)) {
      if (part === '') continue;
      const space = /^\s+$/.test(part);
      tokens.push({ text: part, width: cellWidth(part), space, ...(s.style ? { style: s.style } : {}) });
    }
  }
  return tokens;
}

function pushText(target: Segment[], text: string, style: StyleName | undefined): void {
  const last = target[target.length - 1];
  if (last && last.style === style) target[target.length - 1] = { ...last, text: last.text + text };
  else target.push(style ? { text, style } : { text });
}

/** A line split at its line breaks: each part is a line of its own. */
function splitAtBreaks(line: Line): Line[] {
  const lines: Segment[][] = [[]];
  for (const s of line) {
    s.text.split('\n').forEach((text, i) => {
      if (i > 0) lines.push([]);
      if (text !== '') lines[lines.length - 1]!.push({ ...s, text });
    });
  }
  return lines;
}

/**
 * Wraps a line to `width` cells at spaces; a word longer than the width is cut by grapheme.
 * A line break in the text starts a new line (with the indent, as a wrapped one does).
 * Continuation lines start with `indent` (a hanging indent for list items and quotes).
 */
export function wrapLine(line: Line, width: number, indent: Line = EMPTY_LINE): Line[] {
  if (line.some((s) => s.text.includes('\n'))) {
    return splitAtBreaks(line).flatMap((part, i) =>
      wrapLine(i === 0 || lineWidth(indent) === 0 ? part : [...indent, ...part], width, indent),
    );
  }
  const usable = Math.max(1, width);
  if (lineWidth(line) <= usable && !line.some((s) => /[\t\u0000-\u001f\u007f-\u009f]/.test(s.text))) return [line];
  const indentWidth = Math.min(lineWidth(indent), Math.floor(usable / 2));
  const lines: Segment[][] = [];
  let current: Segment[] = [];
  let used = 0;
  const newLine = (): void => {
    lines.push(current);
    current = indentWidth > 0 ? [...indent] : [];
    used = indentWidth;
  };
  for (const token of tokenize(line)) {
    if (token.space) {
      if (used === indentWidth && lines.length > 0) continue;
      if (used + token.width > usable) {
        newLine();
        continue;
      }
      pushText(current, token.text, token.style);
      used += token.width;
      continue;
    }
    if (used + token.width > usable && used > indentWidth) newLine();
    if (token.width <= usable - used) {
      pushText(current, token.text, token.style);
      used += token.width;
      continue;
    }
    for (const g of graphemes(token.text)) {
      if (used + g.width > usable) newLine();
      pushText(current, g.text, token.style);
      used += g.width;
    }
  }
  lines.push(current);
  return lines.map(trimEnd);
}

function trimEnd(line: Segment[]): Line {
  const last = line[line.length - 1];
  if (!last || !/\s$/.test(last.text)) return line;
  const text = last.text.replace(/\s+$/, '');
  return text ? [...line.slice(0, -1), { ...last, text }] : line.slice(0, -1);
}
