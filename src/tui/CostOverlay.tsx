import { useMemo } from 'react';
import { costLines, type CostInput } from './cost-lines';
import { innerSize } from './PaneFrame';
import { ScrolledLinesOverlay } from './ScrolledLinesOverlay';

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
  return (
    <ScrolledLinesOverlay title="cost · Esc or q closes" lines={lines} width={width} height={height} offset={offset} />
  );
}
