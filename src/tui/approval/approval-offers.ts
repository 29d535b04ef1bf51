import type { PendingApproval } from './approval-queue';
import type { SessionAllowance } from './session-allowance';

/** The approval box's keys beyond y, n and Esc that would act on the call on screen: only these are listed. */
export interface ApprovalOffers {
  /** `a`: the policy would honour an allowance of the tool for later calls like this one. */
  readonly allow: boolean;
  /** `p`: the policy would keep a prefix of this command (a Write shell call, in the sandbox). */
  readonly prefix: boolean;
  /** `e`: the call is a shell command, which can be edited. */
  readonly edit: boolean;
  /** `y` approves: false for a call that cannot run here (its vetting refused it), whose box y and n only close. */
  readonly approve?: boolean;
}

/** What the policy offers for the call on screen; without a policy, nothing beyond y and n. */
export function approvalOffers(pending: PendingApproval, policy: SessionAllowance | null): ApprovalOffers {
  const { request } = pending;
  // A call that cannot run here offers nothing to approve.
  if (request.vetting?.outcome === 'refused') return { allow: false, prefix: false, edit: false, approve: false };
  // A warning the key accepts is for this call as shown: no allowance, no prefix, no edit (an
  // edited command would run on a key that never saw its own findings).
  if (request.vetting?.outcome === 'warned') return { allow: false, prefix: false, edit: false };
  return {
    allow: pending.offersAllow && policy !== null && (policy.allowOffered?.(request) ?? true),
    prefix: pending.shell && policy?.prefixOffer?.(request).ok === true,
    edit: pending.shell,
  };
}
