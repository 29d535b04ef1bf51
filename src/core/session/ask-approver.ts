import type { ApprovalRequest, Approver, Decision } from '../approval/approver';
import type { AgentDeps } from './agent-deps';
import type { EventSink } from './events';
import { answerToVetted, vetUnconfined, withVetting } from './vet-unconfined';

/**
 * Asks the interactive approver about one call, in a turn or on resume. A key runs the call
 * unconfined, so it is vetted first (vet-unconfined.ts): the box shows what keeps it from running
 * unconfined, and the answer stands as what can run. An approval that comes after the abort counts
 * as interrupted; the policy checks the rest (a Destructive call approved by anything but an
 * interactive user's keypress is a bug, and throws).
 */
export async function askApprover(
  deps: AgentDeps,
  approver: Approver,
  asked: ApprovalRequest,
  signal: AbortSignal,
  emit: EventSink,
): Promise<Decision> {
  const runs = deps.policy.describeRun(asked);
  const described = runs === undefined ? asked : { ...asked, runs };
  const vetting = await vetUnconfined(deps, deps.tools.get(asked.tool), asked.input, signal, true);
  const request = withVetting(described, vetting);
  emit({ type: 'approval-needed', request });
  const decision = answerToVetted(request, await approver.decide(request, signal));
  if (signal.aborted && decision.approved) return { approved: false, by: 'interrupted', reason: 'interrupted' };
  return deps.policy.check(request, decision);
}
