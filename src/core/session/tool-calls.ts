import type { ApprovalRequest, Decision } from '../approval/approver';
import { failsClosed } from '../hooks/hook-runner';
import type { MachineState } from '../machine/machine';
import type { ToolCallRequest } from '../provider/provider';
import type { AnyTool } from '../tools/tool';
import type { EntryPayloads } from '../tree/entry-types';
import { askApprover } from './ask-approver';
import { prepareCall, previewOf, requestFor, resolvedSubjectOf } from './call-request';
import { askFollowingEdits, riskOfRun } from './edited-call';
import { decidedCallRunsUnconfined, refusedBeforeAsking, vetUnconfined } from './vet-unconfined';
import type { RoundCall } from './limits';
import { DEFAULT_READ_CONCURRENCY, readRun, runFanOut } from './read-fan-out';
import { INTERRUPTED_AT_CHECKPOINT, NO_CHECKPOINT } from './tool-step';
import { commitNotices, emitNotices, noticesOf, runHooks, type HookFields, type NoticePayload } from './turn-hooks';
import type { TurnScope } from './turn-scope';

type Outcome = EntryPayloads['tool_result']['outcome'];

/** Why a call is settled without running: its outcome, what the model reads, and the hooks' notices that go with it. */
interface Unrun {
  /** The tool's name as the result records it: the call's when it did not parse. */
  readonly tool: string;
  readonly outcome: Outcome;
  readonly content: string;
  readonly notices?: readonly NoticePayload[];
  /** The call as described once its risk was known (and the policy's denial): a user's `!command` records its intent with it. */
  readonly described?: {
    readonly request: ApprovalRequest;
    readonly tool: AnyTool;
    readonly decision: Decision | null;
  };
}

const INTERRUPTED = { outcome: 'interrupted', content: 'not run: the turn was interrupted by the user' } as const;

/** A repeat of a call the user denied earlier in the turn: denied without asking again (no approval spam). */
const ALREADY_DENIED: Decision = {
  approved: false,
  by: 'user',
  reason:
    'the user already denied this exact call in this turn and is not asked again. Do not repeat it: explain what you need, or try another way',
};

/** A call the policy and the preToolUse hooks let through to its intent. */
interface Admitted {
  readonly tool: AnyTool;
  readonly input: unknown;
  readonly request: ApprovalRequest;
  /** The approval when the policy already gave it; null when the user is asked after the intent. */
  readonly known: Decision | null;
  readonly prepared: unknown;
  readonly fields: HookFields;
  readonly notices: readonly NoticePayload[];
}

/**
 * The tool-call pipeline of one turn: each call of a reply goes through the effect sandwich
 * (intent, approval, effect, settlement), ReadOnly runs side by side. It remembers the calls the
 * user denied in the turn (tool and input), so that a repeat is not asked again.
 */
export class ToolCalls {
  private readonly deniedByUser = new Set<string>();

  async runRound(
    scope: TurnScope,
    initial: MachineState,
    calls: readonly ToolCallRequest[],
    signal: AbortSignal,
  ): Promise<{ state: MachineState; calls: RoundCall[] }> {
    const { deps, sandwich } = scope;
    let state = initial;
    const done: RoundCall[] = [];
    const fanOut = (deps.readConcurrency ?? DEFAULT_READ_CONCURRENCY) > 1;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      if (i > 0) state = sandwich.move(state, 'ToolCall');
      // Consecutive ReadOnly calls the policy allows run side by side; the rest one at a time, in order.
      const run = fanOut && !signal.aborted ? readRun(deps, calls, i) : [];
      if (run.length > 1) {
        const ran = await runFanOut(scope, state, run, signal);
        state = ran.state;
        done.push(...ran.calls);
        i += run.length - 1;
        continue;
      }
      const outcome = signal.aborted
        ? { state: settleUnrun(scope, state, call, { tool: call.name, ...INTERRUPTED }), ok: false }
        : await this.runCall(scope, state, call, signal);
      state = outcome.state;
      done.push({ name: call.name, arguments: call.arguments, ok: outcome.ok });
    }
    return { state, calls: done };
  }

  /**
   * One call through the effect sandwich: intent, (approval), effect, settlement. `byUser`: a
   * `!command` the user typed, marked so in its intent.
   */
  async runCall(
    scope: TurnScope,
    state: MachineState,
    call: ToolCallRequest,
    signal: AbortSignal,
    byUser = false,
  ): Promise<{ state: MachineState; ok: boolean }> {
    const admitted = await this.admit(scope, call, signal);
    if ('unrun' in admitted) return { state: settleUnrun(scope, state, call, admitted.unrun, byUser), ok: false };
    const { deps, model, sandwich, emit } = scope;
    const { tool, input, request, known, prepared, fields, notices } = admitted;
    // The checkpoint comes after the approval and before the effect: with the intent when the
    // approval is already known, else with the user's approval.
    const early = known ? await sandwich.checkpoint(request.risk, signal) : NO_CHECKPOINT;
    if (early.interrupted) {
      const unrun = { tool: tool.name, ...INTERRUPTED, notices, described: { request, tool, decision: known } };
      return { state: settleUnrun(scope, state, call, unrun, byUser), ok: false };
    }
    let current = sandwich.commitIntent(state, request, tool, known, prepared, notices, early, byUser);
    emitNotices([...notices, ...early.notices], emit);
    deps.fault?.('after-intent');
    let approval = known;
    let runInput: unknown = input;
    if (!approval) {
      const preview = await previewOf(tool, input, deps.workspaceRoot);
      const asked = preview ? { ...request, preview } : request;
      const checked = await askFollowingEdits(tool, input, asked, (shown) => ask(scope, shown, signal));
      sandwich.waitedOnUser();
      const decision = await hookOnEdit(scope, checked.decision, fields, signal);
      if (!decision.approved && decision.by === 'user') this.deniedByUser.add(signatureOf(tool.name, input));
      const late = decision.approved ? await sandwich.checkpoint(riskOfRun(request, decision), signal) : NO_CHECKPOINT;
      const settled = late.interrupted ? INTERRUPTED_AT_CHECKPOINT : decision;
      current = sandwich.commitApproval(current, request, tool, settled, late);
      emitNotices(late.notices, emit);
      if (!settled.approved) return { state: current, ok: false };
      approval = decision;
      runInput = checked.input;
    }
    const result = await sandwich.execute(tool, runInput, call.id, signal, approval, prepared);
    deps.fault?.('before-settlement');
    const settled = sandwich.settle(current, result, true);
    const postHook = await runHooks(
      deps,
      model,
      'postToolUse',
      { ...fields, outcome: result.outcome, output: result.content },
      { failClosed: false, signal },
    );
    commitNotices(deps, noticesOf(postHook), emit);
    return { state: settled, ok: result.outcome === 'ok' };
  }

  /**
   * Everything decided before a call's intent: its input, subject and risk, the policy (or an
   * earlier denial in this turn), the tool's preparation and the preToolUse hooks. What stops
   * the call comes back as `unrun`, settled in one place by the caller.
   */
  private async admit(
    scope: TurnScope,
    call: ToolCallRequest,
    signal: AbortSignal,
  ): Promise<Admitted | { unrun: Unrun }> {
    const { deps, model, emit } = scope;
    const parsed = deps.tools.parseCall(call.name, call.arguments);
    if (!parsed.ok) return { unrun: { tool: call.name, outcome: 'error', content: parsed.message } };
    const { tool, input } = parsed;
    const subject = await resolvedSubjectOf(tool, input, deps.workspaceRoot);
    const asked = subject.ok ? requestFor(tool, input, call.id, subject.subject) : subject;
    if (!asked.ok) return { unrun: { tool: tool.name, outcome: 'error', content: asked.message } };
    const { request } = asked;
    emit({ type: 'tool-call', callId: call.id, tool: tool.name, subject: request.subject, risk: request.risk });
    const pre = deps.policy.preDecide(request);
    const repeatDenied = this.deniedByUser.has(signatureOf(tool.name, input));
    const decided: Decision | null = 'ask' in pre ? (repeatDenied ? ALREADY_DENIED : null) : pre;
    const known = decided && (await refusedUnconfined(scope, tool, input, decided, signal));
    const described = { request, tool, decision: known };
    if (known && !known.approved)
      return { unrun: { tool: tool.name, outcome: 'denied', content: `denied: ${known.reason}`, described } };
    const prepared = await prepareCall(tool, input, { workspaceRoot: deps.workspaceRoot, signal, callId: call.id });
    if (!prepared.ok) return { unrun: { tool: tool.name, outcome: 'error', content: prepared.message, described } };
    // preToolUse runs once the policy has decided and before the intent: a block settles the call
    // without an intent, and a call the user must approve is blocked before anyone is asked.
    const fields = { tool: tool.name, call_id: call.id, input, risk: request.risk, subject: request.subject };
    const preHook = await runHooks(deps, model, 'preToolUse', fields, {
      failClosed: failsClosed(request.risk),
      signal,
    });
    const notices = noticesOf(preHook);
    if (signal.aborted) return { unrun: { tool: tool.name, ...INTERRUPTED, notices, described } };
    if (preHook?.verdict === 'block') {
      const content = `blocked by a preToolUse hook: ${preHook.blockReason ?? ''}. Not run; do not retry the same call.`;
      return { unrun: { tool: tool.name, outcome: 'blocked', content, notices, described } };
    }
    return { tool, input, request, known, prepared: prepared.value, fields, notices };
  }
}

/**
 * Settles a call that did not run (no intent was written for it), with its notices. A user's
 * `!command` gets its intent written with the result, marked as the user's, once its risk is
 * known; one that failed before that (its input or risk could not be read) is settled as the
 * model's calls are.
 */
function settleUnrun(
  scope: TurnScope,
  state: MachineState,
  call: ToolCallRequest,
  unrun: Unrun,
  byUser = false,
): MachineState {
  const notices = unrun.notices ?? [];
  const result = {
    callId: call.id,
    tool: unrun.tool,
    outcome: unrun.outcome,
    content: unrun.content,
    tier: 'hot' as const,
  };
  const { described } = unrun;
  const next =
    byUser && described
      ? scope.sandwich.settleUnrunByUser(state, described.request, described.tool, described.decision, result, notices)
      : scope.sandwich.settle(state, result, false, notices);
  emitNotices(notices, scope.emit);
  return next;
}

/** What makes two calls the same call for a user's denial: the tool and its input. */
function signatureOf(toolName: string, input: unknown): string {
  return `${toolName}\n${JSON.stringify(input)}`;
}

/**
 * A call the policy decided without asking, where there is no sandbox, runs unconfined: what the
 * tool's preflight finds denies it here, before its intent, saying what was found and what to do
 * (a headless denial that named a key or a rule says this instead: neither would run it).
 */
async function refusedUnconfined(
  scope: TurnScope,
  tool: AnyTool,
  input: unknown,
  decided: Decision,
  signal: AbortSignal,
): Promise<Decision> {
  if (decided === ALREADY_DENIED || !decidedCallRunsUnconfined(scope.deps, decided)) return decided;
  const vetting = await vetUnconfined(scope.deps, tool, input, signal);
  return vetting === null ? decided : refusedBeforeAsking(vetting);
}

/** An edited call goes through the preToolUse hooks again, as what now runs: a block denies it. */
async function hookOnEdit(
  scope: TurnScope,
  decision: Decision,
  fields: HookFields,
  signal: AbortSignal,
): Promise<Decision> {
  if (!decision.approved || !decision.edited) return decision;
  const { edited } = decision;
  const hook = await runHooks(
    scope.deps,
    scope.model,
    'preToolUse',
    { ...fields, input: edited.input, subject: edited.subject, risk: edited.risk },
    { failClosed: failsClosed(edited.risk ?? 'Destructive'), signal },
  );
  if (hook?.verdict !== 'block') return decision;
  return {
    approved: false,
    by: 'hook',
    reason: `the edited command was blocked by a preToolUse hook: ${hook.blockReason ?? ''}`,
  };
}

async function ask(scope: TurnScope, request: ApprovalRequest, signal: AbortSignal) {
  const { approver } = scope.deps;
  if (!approver) throw new Error('assert: the policy asked, but no interactive approver is wired');
  return askApprover(scope.deps, approver, request, signal, scope.emit);
}
