/**
 * The vetting of a call that would run unconfined, before anyone is asked (see
 * unconfined-vetting.ts): a call a key approves runs unconfined, and so does every call where
 * there is no sandbox. What the tool's preflight finds is shown in the approval box, or denies
 * the call before its intent where no one is asked; a key then approves the call only to run it
 * in the sandbox, and, with no sandbox, approves nothing, but for a warning: findings that only say
 * the command goes where tole's git does not reach (isReachDrop), shown whole in the box, which the
 * key accepts to run the call unconfined. Never where no one is asked.
 */
import type { ApprovalRequest, Decision } from '../approval/approver';
import { keyMayAccept, type UnconfinedVetting, vettingOutcome, vettingWords } from '../approval/unconfined-vetting';
import type { AnyTool } from '../tools/tool';
import type { AgentDeps } from './agent-deps';

/** What the tool's preflight finds for `input`, as the outcome a key (or none) would have here; null: nothing found. */
export async function vetUnconfined(
  deps: AgentDeps,
  tool: AnyTool | undefined,
  input: unknown,
  signal: AbortSignal,
  /** A person is asked about the call at the box (askApprover): only then may a warning stand. */
  asked = false,
): Promise<UnconfinedVetting | null> {
  if (!tool?.preflight) return null;
  let unvouched: readonly string[];
  try {
    ({ unvouched } = await tool.preflight(input, { workspaceRoot: deps.workspaceRoot, signal }));
  } catch {
    // The tool checks again when it runs, and says there what went wrong.
    return null;
  }
  if (unvouched.length === 0) return null;
  if (deps.policy.sandboxed) return { unvouched, outcome: 'confined' };
  return { unvouched, outcome: asked && keyMayAccept(unvouched) ? 'warned' : 'refused' };
}

/**
 * Whether a call the policy decided without asking may run unconfined: only where there is no
 * sandbox (with one, a call approved without a key runs confined, and one denied runs nothing).
 */
export function decidedCallRunsUnconfined(deps: AgentDeps, decision: Decision): boolean {
  if (deps.policy.sandboxed) return false;
  return decision.approved || decision.by === 'headless';
}

/** A call that cannot run here, denied before anyone is asked: its reason says what was found and what to do. */
export function refusedBeforeAsking(vetting: UnconfinedVetting): Decision {
  return { approved: false, by: 'policy', reason: vettingWords(vetting) };
}

/** The request as the box shows it: with what was found, and where approving it runs in place of the usual words. */
export function withVetting(request: ApprovalRequest, vetting: UnconfinedVetting | null): ApprovalRequest {
  if (vetting === null) return request;
  return { ...request, vetting, runs: vettingOutcome(vetting) };
}

/**
 * The user's answer to a vetted request, as it stands: an approval runs confined; with no
 * sandbox nothing runs, whatever the key (an interruption stays one), but for a warning the key
 * accepted: approved once with y (not edited, not a prefix kept), it runs unconfined carrying the
 * findings accepted, which the tool's run checks its own against (ToolContext.accepted).
 */
export function answerToVetted(request: ApprovalRequest, decision: Decision): Decision {
  const { vetting } = request;
  if (!vetting) return decision;
  if (vetting.outcome === 'warned') {
    if (!decision.approved) return decision;
    if (decision.by === 'user' && !decision.edited && !decision.allowsPrefix)
      return { ...decision, accepted: vetting.unvouched };
    return { approved: false, by: 'policy', reason: vettingWords({ ...vetting, outcome: 'refused' }) };
  }
  if (vetting.outcome === 'refused')
    return decision.by === 'interrupted' ? decision : { approved: false, by: 'policy', reason: vettingWords(vetting) };
  return decision.approved ? { ...decision, confined: true } : decision;
}
