import { Box, Text } from 'ink';
import { memo, useRef } from 'react';
import type { SessionStore } from '../../core/storage/session-store';
import { counted } from '../text/format';
import { paneInnerSize, RuledPane } from '../panes/RuledPane';
import { paintedLines } from '../style/painted-lines';
import { StyledLine } from '../style/StyledLine';
import { seg, type Line } from '../style/styled-line';
import type { StyleName } from '../style/styles';
import widestLine from '../text/text-width';
import { childLines } from './child-lines';
import type { ChildPath } from './child-path';
import { treeLine } from './tree-line';
import { treeGuide, type TreeRows } from './tree-rows';
import { unfoldedWindow } from './unfolded-window';
import type { IdSet } from '../screen/use-session-view';
import { useTheme } from '../style/use-theme';

interface TreePaneProps {
  readonly store: SessionStore;
  readonly rows: TreeRows;
  readonly selected: number;
  readonly headId: string | null;
  readonly pathIds: IdSet;
  readonly labels: ReadonlyMap<string, string>;
  readonly branches: number;
  readonly width: number;
  readonly height: number;
  readonly focused: boolean;
  /** The rows the search found (marked); null when nothing is searched. */
  readonly matches?: ReadonlySet<string> | null;
  /** The `task` calls unfolded (by their intent's id): their sub-agent's rows are shown beneath them. */
  readonly unfolded?: ReadonlyMap<string, ChildPath>;
}

const MARGIN = 2;
const NONE_UNFOLDED: ReadonlyMap<string, ChildPath> = new Map();

/** The first row shown: moves only as far as it must to keep the selection in view. */
function viewportTop(previousTop: number, selected: number, height: number, total: number): number {
  if (height <= 0) return 0;
  const margin = Math.min(MARGIN, Math.floor((height - 1) / 2));
  let top = previousTop;
  if (selected - margin < top) top = selected - margin;
  if (selected + margin >= top + height) top = selected + margin - height + 1;
  return Math.max(0, Math.min(top, total - height));
}

/** The conversation tree: only the rows on screen are laid out, however large the tree; drawn again only when its props change. */
export const TreePane = memo(function TreePane({
  store,
  rows,
  selected,
  headId,
  pathIds,
  labels,
  branches,
  width,
  height,
  focused,
  matches = null,
  unfolded = NONE_UNFOLDED,
}: TreePaneProps) {
  const theme = useTheme();
  const inner = paneInnerSize(width, height);
  const topRef = useRef(0);
  const rowsTop = viewportTop(topRef.current, selected, inner.height, rows.rows.length);
  const { top, items } = unfoldedWindow(
    rows.rows.length,
    rowsTop,
    selected,
    inner.height,
    (index) => rows.rows[index]!.id,
    (index) => {
      const row = rows.rows[index]!;
      const child = unfolded.get(row.id);
      return child ? childLines(child, treeGuide(row, Math.floor(inner.width / 3)).length + 2, inner.width) : null;
    },
  );
  topRef.current = top;
  const title = `tree${branches > 1 ? ` · ${branches} branches` : ''}`;
  const note =
    rows.rows.length > inner.height
      ? `${selected + 1}/${rows.rows.length}`
      : counted(rows.rows.length, 'entry', 'entries');
  const found = matches ? `${matches.size} found · ` : '';
  const lines: Line[] = items.map(({ index, line }) => {
    if (line) return line;
    const row = rows.rows[index]!;
    return treeLine({
      row,
      entry: store.entry(row.id)!,
      label: labels.get(row.id),
      onPath: pathIds.has(row.id),
      isHead: row.id === headId,
      width: inner.width,
      match: matches?.has(row.id) === true,
    });
  });
  if (rows.rows.length === 0) lines.push([seg('no entries yet', 'faint')]);
  const baseOf = (i: number): StyleName | undefined =>
    focused && items[i]?.index === selected && !items[i]?.line ? 'selected' : undefined;
  // One text node for the rows on screen (as LinesPane): Ink walks one node a frame, not one a row.
  const text = paintedLines(theme, lines, baseOf);
  const whole = widestLine(text) <= inner.width;
  return (
    <RuledPane title={title} note={`${found}${note}`} width={width} height={height} focused={focused} edge="screen">
      <Box flexDirection="column">
        {whole ? (
          <Text wrap="truncate-end">{text}</Text>
        ) : (
          lines.map((line, i) => {
            const base = baseOf(i);
            return <StyledLine key={items[i]?.key ?? 'empty'} line={line} {...(base ? { base } : {})} />;
          })
        )}
      </Box>
    </RuledPane>
  );
});
