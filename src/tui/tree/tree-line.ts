import type { AnyEntry } from '../../core/tree/entry-types';
import { previewGlyph } from './entry-glyph';
import { spread } from '../transcript/entry-lines';
import { seg, type Line, type Segment } from '../style/styled-line';
import { treeGuide, type TreeRow } from './tree-rows';

interface TreeLineInput {
  readonly row: TreeRow;
  readonly entry: AnyEntry;
  readonly label: string | undefined;
  readonly onPath: boolean;
  readonly isHead: boolean;
  readonly width: number;
  /** Found by the tree's search: its text is marked. */
  readonly match?: boolean;
}

interface Laid {
  readonly entry: AnyEntry;
  readonly label: string | undefined;
  readonly onPath: boolean;
  readonly isHead: boolean;
  readonly width: number;
  readonly match: boolean;
  readonly line: Line;
}

/** Rows are replaced, never changed: a row's line is laid out again only when its label, path, head mark or width change. */
const laidOut = new WeakMap<TreeRow, Laid>();

/** One row of the tree pane: guide, glyph, preview (or label), sibling place, head marker. The same input gives the same Line object. */
export function treeLine(input: TreeLineInput): Line {
  const { row, entry, label, onPath, isHead, width } = input;
  const match = input.match === true;
  const known = laidOut.get(row);
  if (
    known &&
    known.entry === entry &&
    known.label === label &&
    known.onPath === onPath &&
    known.isHead === isHead &&
    known.width === width &&
    known.match === match
  )
    return known.line;
  const line = layOut(input);
  laidOut.set(row, { entry, label, onPath, isHead, width, match, line });
  return line;
}

function layOut({ row, entry, label, onPath, isHead, width, match }: TreeLineInput): Line {
  const { glyph, style, text } = previewGlyph(entry);
  const guide = treeGuide(row, Math.floor(width / 3));
  const left: Segment[] = [seg(guide, 'muted'), seg(glyph, onPath ? style : 'muted'), seg(' ')];
  if (label) left.push(seg(`⚑ ${label}`, match ? 'match' : 'accentBold'));
  else left.push(seg(text, match ? 'match' : onPath ? 'path' : 'muted'));
  const right: Segment[] = [];
  if (row.siblingCount > 1) right.push(seg(`[${row.siblingIndex}/${row.siblingCount}]`, onPath ? 'accent' : 'faint'));
  if (isHead) right.push(seg(' ◀', 'head'));
  return right.length > 0 ? spread(left, right, width) : spread(left, [], width);
}
