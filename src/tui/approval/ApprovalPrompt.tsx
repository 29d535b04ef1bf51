import { Box } from 'ink';
import type { ApprovalField } from './approval-field';
import type { ApprovalOffers } from './approval-offers';
import type { PendingApproval } from './approval-queue';
import { approvalRows, approvalView, fitApproval, type ApprovalView, type FittedApproval } from './approval-lines';
import { PaneFrame, innerSize } from '../panes/PaneFrame';
import { StyledLine } from '../style/StyledLine';

/** The approval box at a size: its view, its height and what it shows scrolled to `top`. */
interface ApprovalBox {
  readonly height: number;
  readonly fitted: FittedApproval;
  /** The furthest the body scrolls: its last line at the bottom of the box. */
  readonly maxTop: number;
}

/** The box's parts for a request at a screen width (worked out once per request and width). */
export function approvalViewAt(
  pending: PendingApproval,
  width: number,
  field: ApprovalField | null,
  offers: ApprovalOffers,
): ApprovalView {
  return approvalView(pending, innerSize(width, 0).width, field, offers);
}

/** The box for a view within `maxHeight` rows, scrolled to `top`. */
export function approvalBox(view: ApprovalView, maxHeight: number, top: number): ApprovalBox {
  const height = Math.min(maxHeight, approvalRows(view) + 2);
  const fitted = fitApproval(view, innerSize(0, height).height, top);
  return { height, fitted, maxTop: Math.max(0, fitted.bodyLength - fitted.page) };
}

/**
 * The box's scroll for the keys, with the lines never on screen: `seen` lines were before, and
 * the ones shown now are too. A key approves only once none is left (a Destructive line past the
 * fold, a finding at the end of the body), as `t` trusts a folder only once every line was shown.
 */
export function approvalScrollOf(box: ApprovalBox, seen: number) {
  const { top, page, bodyLength } = box.fitted;
  const through = Math.max(seen, top + page);
  const unseen = through < bodyLength ? { from: through + 1, to: bodyLength } : null;
  return { top, page, maxTop: box.maxTop, unseen };
}

interface ApprovalPromptProps {
  readonly pending: PendingApproval;
  readonly width: number;
  readonly box: ApprovalBox;
}

/**
 * Takes the keyboard until answered: y approve, n deny (typing why), a allow the tool (Write only),
 * p allow the command's prefix, e edit the command, Esc stop;
 * ↑/↓/PgUp/PgDn scroll what will run, whose every line can be read before answering.
 */
export function ApprovalPrompt({ pending, width, box }: ApprovalPromptProps) {
  const destructive = pending.request.risk === 'Destructive';
  const { fitted } = box;
  return (
    <PaneFrame
      title={destructive ? 'approve? · Destructive' : 'approve?'}
      {...(fitted.position ? { note: `${fitted.position} ↑↓` } : {})}
      width={width}
      height={box.height}
      focused
      tone={destructive ? 'danger' : pending.request.risk === 'Write' ? 'Write' : 'accent'}
    >
      <Box flexDirection="column">
        {fitted.lines.map((line, i) => (
          <StyledLine key={i} line={line} />
        ))}
      </Box>
    </PaneFrame>
  );
}
