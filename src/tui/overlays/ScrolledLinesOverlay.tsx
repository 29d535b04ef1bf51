import { Box } from 'ink';
import { PaneFrame, innerSize } from '../panes/PaneFrame';
import { StyledLine } from '../style/StyledLine';
import type { Line } from '../style/styled-line';

interface ScrolledLinesOverlayProps {
  readonly title: string;
  /** Laid out already to the overlay's inner width (see `innerSize`). */
  readonly lines: readonly Line[];
  readonly width: number;
  readonly height: number;
  /** The first line shown; kept within the lines. */
  readonly offset: number;
}

/** An overlay of lines that scroll: the frame says which lines show when they do not all fit. */
export function ScrolledLinesOverlay({ title, lines, width, height, offset }: ScrolledLinesOverlayProps) {
  const inner = innerSize(width, height);
  const top = Math.max(0, Math.min(offset, lines.length - inner.height));
  return (
    <PaneFrame
      title={title}
      note={
        lines.length > inner.height
          ? `${top + 1}-${Math.min(lines.length, top + inner.height)} of ${lines.length}`
          : undefined
      }
      width={width}
      height={height}
      focused
    >
      <Box flexDirection="column">
        {lines.slice(top, top + inner.height).map((line, i) => (
          <StyledLine key={i} line={line} />
        ))}
      </Box>
    </PaneFrame>
  );
}
