import type { ApprovalField } from './approval-field';
import { approvalKeys } from './approval-lines';
import type { ApprovalOffers } from './approval-offers';
import type { PendingApproval } from './approval-queue';

/**
 * The prompt's grey text while the approval box is open: the keys the box's foot lists, and no
 * other (a box that can only close names no key that approves; an open field says what ⏎ does).
 */
export function approvalPlaceholder(
  pending: PendingApproval,
  field: ApprovalField | null,
  offers: ApprovalOffers,
): string {
  switch (field?.kind) {
    case 'deny':
      return 'type why in the box above: ⏎ denies, Esc goes back';
    case 'prefix':
      return 'p or ⏎ approves and keeps the prefix shown above, Esc goes back';
    case 'edit':
      return 'edit the command above: ⏎ approves it as edited, Esc goes back';
  }
  if (pending.request.vetting?.outcome === 'refused')
    return 'it cannot run here: y or n closes the box (nothing runs), Esc stops the turn';
  const keys = approvalKeys(pending, offers).map(([key]) => key);
  return `answer the approval above: ${keys.slice(0, -1).join(', ')} or ${keys.at(-1)}`;
}
