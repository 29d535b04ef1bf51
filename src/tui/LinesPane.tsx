import { Box } from 'ink';
import { memo } from 'react';
import { PaneFrame } from './PaneFrame';
import { StyledLine } from './StyledLine';
import type { Line } from './styled-line';

export interface LinesPaneProps {
  readonly title: string;
  readonly note?: string;
  /** The lines on screen, already windowed and cut to the pane's inner width. */
  readonly lines: readonly Line[];
  /** A key per line that moves with it as the pane scrolls (else lines are keyed by place). */
  readonly keys?: readonly string[];
  readonly width: number;
  readonly height: number;
  readonly focused: boolean;
}

/**
 * A pane that shows prepared lines: the transcript, usage and registers panes. Memoized: a pane
 * whose lines object, title and size are the same is not drawn again (a streamed token redraws
 * the transcript, not the registers).
 */
export const LinesPane = memo(function LinesPane({ title, note, lines, keys, width, height, focused }: LinesPaneProps) {
  return (
    <PaneFrame title={title} {...(note ? { note } : {})} width={width} height={height} focused={focused}>
      <Box flexDirection="column">
        {lines.map((line, i) => (
          <StyledLine key={keys?.[i] ?? i} line={line} />
        ))}
      </Box>
    </PaneFrame>
  );
});
