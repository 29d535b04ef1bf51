import { Box } from 'ink';
import type { PendingApproval } from './approval-queue';
import { approvalLines } from './approval-lines';
import { PaneFrame, innerSize } from './PaneFrame';
import { StyledLine } from './StyledLine';

export interface ApprovalPromptProps {
  readonly pending: PendingApproval;
  readonly width: number;
  /** The most lines the prompt may take; long inputs are cut to fit, never past the screen. */
  readonly maxHeight: number;
}

/** Height the prompt needs for a request at a width, bounded by `maxHeight`. */
export function approvalHeight(pending: PendingApproval, width: number, maxHeight: number): number {
  return Math.min(maxHeight, approvalLines(pending, innerSize(width, 0).width).length + 2);
}

/** Takes the keyboard until answered: y approve, n deny, a allow the tool (Write only), Esc stop. */
export function ApprovalPrompt({ pending, width, maxHeight }: ApprovalPromptProps) {
  const height = approvalHeight(pending, width, maxHeight);
  const inner = innerSize(width, height);
  const lines = approvalLines(pending, inner.width);
  // When the input is too long for the screen, the keys (the last lines) stay visible.
  const keep =
    lines.length > inner.height ? [...lines.slice(0, Math.max(0, inner.height - 3)), ...lines.slice(-3)] : lines;
  const destructive = pending.request.risk === 'Destructive';
  return (
    <PaneFrame
      title={destructive ? 'approve? · Destructive' : 'approve?'}
      width={width}
      height={height}
      focused
      tone={destructive ? 'danger' : pending.request.risk === 'Write' ? 'Write' : 'accent'}
    >
      <Box flexDirection="column">
        {keep.slice(0, inner.height).map((line, i) => (
          <StyledLine key={i} line={line} />
        ))}
      </Box>
    </PaneFrame>
  );
}
