import { useMemo } from 'react';
import type { TaskState } from '../../core/session/task-state';
import { planOverlayRows } from './plan-lines';
import { innerSize } from '../panes/PaneFrame';
import { ScrolledLinesOverlay } from './ScrolledLinesOverlay';

interface PlanOverlayProps {
  readonly task: TaskState;
  readonly width: number;
  readonly height: number;
  readonly offset: number;
}

/** `/plan` (Ctrl-O): the checked-out branch's plan full size, live as the model updates it; Esc or q closes. */
export function PlanOverlay({ task, width, height, offset }: PlanOverlayProps) {
  const inner = innerSize(width, height);
  const lines = useMemo(() => planOverlayRows(task, inner.width), [task, inner.width]);
  return (
    <ScrolledLinesOverlay title="plan · Esc or q closes" lines={lines} width={width} height={height} offset={offset} />
  );
}
