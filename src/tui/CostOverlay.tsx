import { Box } from 'ink';
import { useMemo } from 'react';
import { costLines, type CostInput } from './cost-lines';
import { PaneFrame, innerSize } from './PaneFrame';
import { StyledLine } from './StyledLine';

export interface CostOverlayProps {
  readonly input: CostInput;
  readonly width: number;
  readonly height: number;
  readonly offset: number;
}

/** `/cost`: what the session's calls cost, split every way the usage pane has no room for; Esc or q closes. */
export function CostOverlay({ input, width, height, offset }: CostOverlayProps) {
  const inner = innerSize(width, height);
  const lines = useMemo(() => costLines(input, inner.width - 1), [input, inner.width]);
  const top = Math.max(0, Math.min(offset, lines.length - inner.height));
  return (
    <PaneFrame
      title="cost · Esc or q closes"
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
