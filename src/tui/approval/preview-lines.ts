import type { ChangePreview } from '../../core/approval/change-preview';
import { diffStyle } from '../transcript/diff-lines';
import { counted, formatBytes } from '../text/format';
import { MAX_INPUT_LINES } from './input-lines';
import { seg, wrapLine, type Line } from '../style/styled-line';
import { visibleControls } from '../text/visible-text';

const INDENT = [seg('  ')];

function textLine(text: string, style: Parameters<typeof seg>[1], width: number): Line[] {
  return wrapLine([seg(visibleControls(text), style)], width, INDENT);
}

/** A diff's lines coloured as the transcript colours them; past MAX_INPUT_LINES the rest is counted. */
function diffBody(diff: string, width: number): Line[] {
  const source = diff.split('\n');
  const out: Line[] = [];
  for (const text of source.slice(0, MAX_INPUT_LINES)) out.push(...textLine(text, diffStyle(text), width));
  if (source.length > MAX_INPUT_LINES)
    out.push([seg(`… ${counted(source.length - MAX_INPUT_LINES, 'more diff line')}`, 'muted')]);
  return out;
}

/**
 * What a file tool's call will change, as the approval box's body shows it: a summary line (the
 * hunk count, a new file's size, what a deletion removes, or why nothing can be shown), then the
 * diff or the new file's first lines. Every control character is shown visibly.
 */
export function previewLines(preview: ChangePreview, width: number): Line[] {
  switch (preview.kind) {
    case 'diff':
      if (preview.diff === '') return textLine('no change: the file already holds exactly this', 'muted', width);
      return [...textLine(counted(preview.hunks, 'hunk'), 'accent', width), ...diffBody(preview.diff, width)];
    case 'new-file': {
      const size = `new file · ${counted(preview.lines, 'line')} · ${formatBytes(preview.bytes)}`;
      const out = textLine(size, 'accent', width);
      for (const text of preview.firstLines) out.push(...textLine(`+${text}`, 'diffAdd', width));
      const rest = preview.lines - preview.firstLines.length;
      if (rest > 0) out.push(...textLine(`… ${counted(rest, 'more line')}`, 'muted', width));
      return out;
    }
    case 'removes':
      return textLine(removesText(preview), preview.what === 'nothing' ? 'muted' : 'danger', width);
    case 'unreadable':
      return textLine(`no diff: ${preview.why}`, 'warn', width);
  }
}

function removesText(preview: Extract<ChangePreview, { kind: 'removes' }>): string {
  switch (preview.what) {
    case 'nothing':
      return 'removes nothing: the path does not exist';
    case 'file':
      return `removes a file of ${formatBytes(preview.bytes)}`;
    case 'link':
      return 'removes a symbolic link (not what it points to)';
    case 'other':
      return 'removes a special file (a FIFO, socket or device)';
    case 'directory':
      return `removes a directory: ${preview.partial ? 'at least ' : ''}${counted(preview.files, 'file')}, ${formatBytes(preview.bytes)}`;
  }
}
