import type { ApprovalRequest, Approver, Decision } from '../approval/approver';
import type { AgentDeps } from './agent-deps';
import type { EventSink } from './events';

/**
 * Asks the interactive approver about one call, in a turn or on resume. An approval that comes
 * after the abort counts as interrupted; the policy checks the rest (a Destructive call approved
 * by anything but an interactive user's keypress is a bug, and throws).
 */
export async function askApprover(
  deps: AgentDeps,
  approver: Approver,
  asked: ApprovalRequest,
  signal: AbortSignal,
  emit: EventSink,
): Promise<Decision> {
  const runs = deps.policy.describeRun(asked);
  const request = runs === undefined ? asked : { ...asked, runs };
  emit({ type: 'approval-needed', request });
  const decision = await approver.decide(request, signal);
  if (signal.aborted && decision.approved) return { approved: false, by: 'interrupted', reason: 'interrupted' };
  return deps.policy.check(request, decision);
}
