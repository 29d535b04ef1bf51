/**
 * `e` at the approval box: the user approves the command as they edited it. What runs is the
 * edited call, so it is read again from the edited text (its input checked by the tool's schema,
 * its risk classified again) and, when it is riskier than what the user was shown, Destructive,
 * or newly runs code tole cannot see into or outside the sandbox, it is asked about again, as
 * itself. The approval records the edited call beside the intent's original.
 */
import type { ApprovalRequest, Decision, EditedCall } from '../approval/approver';
import { RISK_ORDER, type Risk } from '../approval/risk';
import type { AnyTool } from '../tools/tool';
import { requestFor } from './call-request';

/** Bound on the edits of one call: each asks the user again, so this only stops a runaway loop. */
const MAX_EDITS_PER_CALL = 20;

interface CheckedDecision {
  readonly decision: Decision;
  /** The input that runs when the decision approves: the model's, or the user's edit of it. */
  readonly input: unknown;
}

type Reread = { ok: true; request: ApprovalRequest; input: unknown } | { ok: false; message: string };

/** The call as the user edited it: its input through the tool's schema, its request classified afresh. */
function rereadEdited(tool: AnyTool, input: unknown, callId: string, subject: string): Reread {
  if (!tool.withSubject) return { ok: false, message: `a ${tool.name} call cannot be edited` };
  const parsed = tool.inputSchema.safeParse(tool.withSubject(input, subject));
  if (!parsed.success) return { ok: false, message: `the edited call is not valid: ${parsed.error.message}` };
  const described = requestFor(tool, parsed.data, callId);
  if (!described.ok) return described;
  return { ok: true, request: described.request, input: parsed.data };
}

/** Whether the edited call must be asked about again rather than run on the key that approved the edit. */
function asksAgain(shown: ApprovalRequest, edited: ApprovalRequest): boolean {
  return (
    edited.risk === 'Destructive' ||
    RISK_ORDER[edited.risk] > RISK_ORDER[shown.risk] ||
    (edited.outsideSandbox === true && shown.outsideSandbox !== true) ||
    (edited.opaque === true && shown.opaque !== true)
  );
}

/**
 * Asks about `request` and follows the user's edits until a decision stands: an edited call that
 * `asksAgain` is shown again, as itself; one that does not runs on the key that approved it.
 */
export async function askFollowingEdits(
  tool: AnyTool,
  input: unknown,
  request: ApprovalRequest,
  ask: (request: ApprovalRequest) => Promise<Decision>,
): Promise<CheckedDecision> {
  let shown = request;
  let shownInput = input;
  let edited: EditedCall | undefined;
  for (let asked = 0; asked <= MAX_EDITS_PER_CALL; asked++) {
    const decision = await ask(shown);
    if (!decision.approved) return { decision, input };
    if (!decision.edited) return { decision: edited ? { ...decision, edited } : decision, input: shownInput };
    const reread = rereadEdited(tool, shownInput, request.callId, decision.edited.subject);
    if (!reread.ok)
      return {
        decision: { approved: false, by: 'user', reason: `the edited command was not run: ${reread.message}` },
        input,
      };
    const { request: next } = reread;
    edited = { subject: next.subject, input: reread.input, risk: next.risk, reason: next.reason };
    if (!asksAgain(shown, next)) return { decision: { ...decision, edited }, input: reread.input };
    shown = next;
    shownInput = reread.input;
  }
  return {
    decision: { approved: false, by: 'user', reason: `edited more than ${MAX_EDITS_PER_CALL} times: not run` },
    input,
  };
}

/** The risk of what runs once approved: the edited call's when the user edited it. */
export function riskOfRun(request: ApprovalRequest, decision: Decision): Risk {
  return decision.approved && decision.edited?.risk ? decision.edited.risk : request.risk;
}
