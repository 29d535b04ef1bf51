import { seg, wrapLine, type Line } from '../style/styled-line';
import type { StyleName } from '../style/styles';

const MAX_DIFF_LINES = 80;

export function diffStyle(line: string): StyleName {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diffMeta';
  if (line.startsWith('@@')) return 'diffHunk';
  if (line.startsWith('+')) return 'diffAdd';
  if (line.startsWith('-')) return 'diffRemove';
  if (line.startsWith('\\')) return 'muted';
  return 'text';
}

/** A unified diff as coloured lines, indented under its tool call; long diffs say how much is left out. */
export function diffLines(diff: string, width: number, indent = '    '): Line[] {
  const source = diff.split('\n');
  const shown = source.length > MAX_DIFF_LINES ? source.slice(0, MAX_DIFF_LINES) : source;
  const out: Line[] = [];
  for (const text of shown) {
    out.push(...wrapLine([seg(indent), seg(text, diffStyle(text))], width, [seg(`${indent} `)]));
  }
  if (source.length > shown.length)
    out.push([seg(`${indent}… ${source.length - shown.length} more diff lines`, 'muted')]);
  return out;
}

/** How many lines a diff adds and removes. */
export function diffStat(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}
