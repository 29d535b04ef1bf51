import type { ApprovalRequest } from '../../core/approval/approver';

/** What the policy offers the approval box's keys beyond y and n. */
export interface SessionAllowance {
  /** `a`: Write calls of the tool are approved for the rest of the session. */
  allowForSession(tool: string): void;
  /** Whether `a` would be honoured for later calls like this one (absent: whenever the call is Write). */
  allowOffered?(request: ApprovalRequest): boolean;
  /** `p`: the prefix it would keep for this request, or why it keeps none. */
  prefixOffer?(
    request: ApprovalRequest,
  ): { readonly ok: true; readonly prefix: readonly string[] } | { readonly ok: false; readonly why: string };
  /** Keeps a prefix the user confirmed; false when the policy refuses it. */
  allowPrefix?(request: ApprovalRequest, prefix: readonly string[]): boolean;
  /** What approves calls without asking, said in the status bar. */
  inForce?(): {
    readonly yes: boolean;
    readonly rules: readonly string[];
    readonly sessionTools: readonly string[];
    readonly prefixes?: readonly string[];
  };
}
