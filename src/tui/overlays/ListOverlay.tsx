import { Box } from 'ink';
import { PaneFrame, innerSize } from '../panes/PaneFrame';
import { StyledLine } from '../style/StyledLine';
import { seg, truncateLine, type Line } from '../style/styled-line';

interface ListOverlayProps {
  readonly title: string;
  /** One row per item, in order. */
  readonly rows: readonly Line[];
  /** The selected row (drawn marked, and kept in view); null for a list that only shows. */
  readonly selected: number | null;
  /** Lines under the rows: what the keys do. */
  readonly footer?: readonly Line[];
  readonly width: number;
  readonly height: number;
}

/** A list in the panes' place (`/queue`, `/tools`, `/sessions`): the window follows the selection. */
export function ListOverlay({ title, rows, selected, footer = [], width, height }: ListOverlayProps) {
  const inner = innerSize(width, height);
  const room = Math.max(1, inner.height - footer.length - (footer.length > 0 ? 1 : 0));
  const at = selected ?? 0;
  const top = Math.max(0, Math.min(at - Math.floor(room / 2), rows.length - room));
  const shown = rows.slice(top, top + room);
  const note = rows.length > room ? `${top + 1}-${Math.min(rows.length, top + room)} of ${rows.length}` : undefined;
  return (
    <PaneFrame title={title} note={note} width={width} height={height} focused>
      <Box flexDirection="column">
        {shown.map((row, i) => {
          const marked = selected !== null && top + i === selected;
          const line: Line = selected === null ? row : [seg(marked ? '▸ ' : '  ', 'accentBold'), ...row];
          return <StyledLine key={top + i} line={truncateLine(line, inner.width)} />;
        })}
        {footer.length > 0 ? <StyledLine line={[]} /> : null}
        {footer.map((line, i) => (
          <StyledLine key={`f${i}`} line={truncateLine(line, inner.width)} />
        ))}
      </Box>
    </PaneFrame>
  );
}
