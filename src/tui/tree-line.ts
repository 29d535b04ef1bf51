import type { AnyEntry } from '../core/tree/entry-types';
import { entryGlyph } from './entry-glyph';
import { spread } from './entry-lines';
import { seg, type Line, type Segment } from './styled-line';
import { treeGuide, type TreeRow } from './tree-rows';

export interface TreeLineInput {
  readonly row: TreeRow;
  readonly entry: AnyEntry;
  readonly label: string | undefined;
  readonly onPath: boolean;
  readonly isHead: boolean;
  readonly width: number;
}

/** One row of the tree pane: guide, glyph, preview (or label), sibling place, head marker. */
export function treeLine({ row, entry, label, onPath, isHead, width }: TreeLineInput): Line {
  const { glyph, style, text } = entryGlyph(entry);
  const guide = treeGuide(row, Math.floor(width / 3));
  const left: Segment[] = [seg(guide, 'muted'), seg(glyph, onPath ? style : 'muted'), seg(' ')];
  if (label) left.push(seg(`⚑ ${label}`, 'accentBold'));
  else left.push(seg(text, onPath ? 'path' : 'muted'));
  const right: Segment[] = [];
  if (row.siblingCount > 1) right.push(seg(`[${row.siblingIndex}/${row.siblingCount}]`, onPath ? 'accent' : 'faint'));
  if (isHead) right.push(seg(' ◀', 'head'));
  return right.length > 0 ? spread(left, right, width) : spread(left, [], width);
}
