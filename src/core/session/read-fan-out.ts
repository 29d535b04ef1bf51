import type { ApprovalRequest, Decision } from '../approval/approver';
import { failsClosed } from '../hooks/hook-runner';
import type { MachineState } from '../machine/machine';
import type { ToolCallRequest } from '../provider/provider';
import type { AnyTool } from '../tools/tool';
import type { EntryPayloads } from '../tree/entry-types';
import type { AgentDeps } from './agent-deps';
import { prepareCall, requestFor } from './call-request';
import type { RoundCall } from './limits';
import type { TurnScope } from './turn-scope';
import { commitNotices, emitNotices, noticesOf, runHooks, type HookFields, type NoticePayload } from './turn-hooks';
import { decidedCallRunsUnconfined, refusedBeforeAsking, vetUnconfined } from './vet-unconfined';

/** How many ReadOnly calls of one reply run at once when the host does not say (`AgentDeps.readConcurrency`). */
export const DEFAULT_READ_CONCURRENCY = 8;

type Result = EntryPayloads['tool_result'];

/** A call that may run beside others of its reply: ReadOnly, and allowed by the policy without asking anyone. */
interface FanOutCall {
  readonly call: ToolCallRequest;
  readonly tool: AnyTool;
  readonly input: unknown;
  readonly request: ApprovalRequest;
  readonly decision: Decision;
}

/** The call as a fan-out candidate, or null when it takes the one-at-a-time path (bad input, not ReadOnly, needs asking, denied). */
function fanOutCandidate(deps: AgentDeps, call: ToolCallRequest): FanOutCall | null {
  const parsed = deps.tools.parseCall(call.name, call.arguments);
  if (!parsed.ok) return null;
  const described = requestFor(parsed.tool, parsed.input, call.id);
  if (!described.ok || described.request.risk !== 'ReadOnly') return null;
  const pre = deps.policy.preDecide(described.request);
  if ('ask' in pre || !pre.approved) return null;
  return { call, tool: parsed.tool, input: parsed.input, request: described.request, decision: pre };
}

/**
 * The longest run of consecutive fan-out candidates from `calls[from]` on; empty when that call
 * takes the one-at-a-time path. A run of one is returned too: the caller runs it alone.
 */
export function readRun(deps: AgentDeps, calls: readonly ToolCallRequest[], from: number): FanOutCall[] {
  const run: FanOutCall[] = [];
  for (let i = from; i < calls.length; i++) {
    const candidate = fanOutCandidate(deps, calls[i]!);
    if (!candidate) break;
    run.push(candidate);
  }
  return run;
}

/** A call of the batch: settled without an intent (blocked, interrupted, failed to prepare), or run. */
type Slot =
  | { readonly kind: 'settle'; readonly item: FanOutCall; readonly result: Result; readonly notices: NoticePayload[] }
  | {
      readonly kind: 'run';
      readonly item: FanOutCall;
      readonly prepared: unknown;
      readonly notices: NoticePayload[];
      readonly fields: HookFields;
    };

/**
 * Runs a batch of ReadOnly calls side by side, with the effect sandwich kept in the calls' order:
 * each call's preToolUse hook in order, then every intent in one line, then the effects (at most
 * `readConcurrency` at once), then each settlement in order, each followed by its postToolUse
 * hook. A call that finishes early waits, buffered, for the ones before it to be settled, so the
 * session file and its replay read the same whatever order the effects end in. An abort reaches
 * every effect in flight; each is settled as an aborted call is, and one not started yet is
 * settled as not run.
 */
export async function runFanOut(
  ctx: TurnScope,
  initial: MachineState,
  batch: readonly FanOutCall[],
  signal: AbortSignal,
): Promise<{ state: MachineState; calls: RoundCall[] }> {
  const { deps, sandwich, emit } = ctx;
  // Where there is no sandbox these calls run unconfined: each is vetted as a call decided without
  // asking is on the one-at-a-time path (the vettings side by side: each walks the workspace).
  const refusals = await Promise.all(batch.map((item) => refusedUnconfined(ctx, item, signal)));
  const slots: Slot[] = [];
  for (const [index, item] of batch.entries()) slots.push(await beforeIntent(ctx, item, refusals[index]!, signal));

  let state = initial;
  const runs = slots.filter((slot): slot is Extract<Slot, { kind: 'run' }> => slot.kind === 'run');
  if (runs.length > 0) {
    state = sandwich.commitIntents(
      state,
      runs.map(({ item, prepared, notices }) => ({
        request: item.request,
        tool: item.tool,
        decision: item.decision,
        prepared,
        notices,
      })),
    );
    emitNotices(
      runs.flatMap((slot) => slot.notices),
      emit,
    );
    deps.fault?.('after-intent');
  }

  const results = startEffects(ctx, runs, signal);
  try {
    return await settleInOrder(ctx, state, slots, results, signal);
  } catch (error) {
    // A settlement that could not be committed ends the turn: the calls still running (a
    // sub-agent's whole session) finish first, so that none runs on after its turn, and none
    // fails later with no one to hear it.
    await Promise.allSettled(results.values());
    throw error;
  }
}

async function settleInOrder(
  ctx: TurnScope,
  initial: MachineState,
  slots: readonly Slot[],
  results: Map<Slot, Promise<Result>>,
  signal: AbortSignal,
): Promise<{ state: MachineState; calls: RoundCall[] }> {
  const { deps, sandwich, emit } = ctx;
  let state = initial;
  const done: RoundCall[] = [];
  for (const slot of slots) {
    const { call } = slot.item;
    if (slot.kind === 'settle') {
      if (state.pc === 'Settling') state = sandwich.move(state, 'ToolCall');
      state = sandwich.settle(state, slot.result, false, slot.notices);
      emitNotices(slot.notices, emit);
      done.push({ name: call.name, arguments: call.arguments, ok: false });
      continue;
    }
    const result = await results.get(slot)!;
    deps.fault?.('before-settlement');
    // Each settlement is a move of its own, as when calls run one at a time: back to ToolCall first.
    if (state.pc === 'Settling') state = sandwich.move(state, 'ToolCall');
    state = sandwich.settle(state, result, true);
    const postHook = await runHooks(
      deps,
      ctx.model,
      'postToolUse',
      { ...slot.fields, outcome: result.outcome, output: result.content },
      { failClosed: false, signal },
    );
    commitNotices(deps, noticesOf(postHook), emit);
    done.push({ name: call.name, arguments: call.arguments, ok: result.outcome === 'ok' });
  }
  return { state, calls: done };
}

/**
 * The denial of a call that would run unconfined and cannot (its tool's preflight found what keeps
 * it from that), in the words the one-at-a-time path gives; null when it may run.
 */
async function refusedUnconfined(ctx: TurnScope, item: FanOutCall, signal: AbortSignal): Promise<Decision | null> {
  if (!decidedCallRunsUnconfined(ctx.deps, item.decision)) return null;
  const vetting = await vetUnconfined(ctx.deps, item.tool, item.input, signal);
  return vetting === null ? null : refusedBeforeAsking(vetting);
}

/**
 * What comes before a call's intent, as on the one-at-a-time path: the event, the vetting's
 * denial, `prepare`, the preToolUse hooks.
 */
async function beforeIntent(
  ctx: TurnScope,
  item: FanOutCall,
  refused: Decision | null,
  signal: AbortSignal,
): Promise<Slot> {
  const { deps, emit } = ctx;
  const { tool, input, request, call } = item;
  emit({ type: 'tool-call', callId: call.id, tool: tool.name, subject: request.subject, risk: request.risk });
  const base = { callId: call.id, tool: tool.name, tier: 'hot' } as const;
  if (refused && !refused.approved)
    return {
      kind: 'settle',
      item,
      result: { ...base, outcome: 'denied', content: `denied: ${refused.reason}` },
      notices: [],
    };
  if (signal.aborted) return { kind: 'settle', item, result: { ...base, ...NOT_RUN }, notices: [] };
  const prepared = await prepareCall(tool, input, { workspaceRoot: deps.workspaceRoot, signal, callId: call.id });
  if (!prepared.ok)
    return { kind: 'settle', item, result: { ...base, outcome: 'error', content: prepared.message }, notices: [] };
  const fields: HookFields = { tool: tool.name, call_id: call.id, input, risk: request.risk, subject: request.subject };
  const preHook = await runHooks(deps, ctx.model, 'preToolUse', fields, {
    failClosed: failsClosed(request.risk),
    signal,
  });
  const notices = noticesOf(preHook);
  if (signal.aborted) return { kind: 'settle', item, result: { ...base, ...NOT_RUN }, notices };
  if (preHook?.verdict === 'block') {
    const content = `blocked by a preToolUse hook: ${preHook.blockReason ?? ''}. Not run; do not retry the same call.`;
    return { kind: 'settle', item, result: { ...base, outcome: 'blocked', content }, notices };
  }
  return { kind: 'run', item, prepared: prepared.value, notices, fields };
}

const NOT_RUN = { outcome: 'interrupted', content: 'not run: the turn was interrupted by the user' } as const;

/** A counting semaphore: `take` waits for a free place, `give` hands it to the next waiter. */
interface Places {
  take(): Promise<void>;
  give(): void;
}

function places(limit: number): Places {
  let free = Math.max(1, limit);
  const waiting: (() => void)[] = [];
  return {
    take: () => {
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    give: () => {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}

/**
 * Starts the effects, at most `readConcurrency` at a time (and at most a tool's `maxParallel` of
 * its own calls), in the calls' order; each promise resolves to its call's result (the sandwich
 * turns a throw or an abort into a result). Written here rather than taken from a pool library:
 * it is a dozen lines, and the one thing it must do beyond a pool (settle a call the abort kept
 * from starting as not run) is tole's own.
 */
function startEffects(
  ctx: TurnScope,
  runs: readonly Extract<Slot, { kind: 'run' }>[],
  signal: AbortSignal,
): Map<Slot, Promise<Result>> {
  const { deps, sandwich } = ctx;
  const reply = places(deps.readConcurrency ?? DEFAULT_READ_CONCURRENCY);
  const perTool = new Map<string, Places>();
  const results = new Map<Slot, Promise<Result>>();
  for (const slot of runs) {
    const { tool, input, call, decision } = slot.item;
    const own = tool.maxParallel === undefined ? null : (perTool.get(tool.name) ?? places(tool.maxParallel));
    if (own) perTool.set(tool.name, own);
    const run = async (): Promise<Result> => {
      // The tool's own place first: a call waiting for it holds none of the reply's.
      await own?.take();
      await reply.take();
      try {
        if (signal.aborted) return { callId: call.id, tool: tool.name, tier: tool.tier, ...NOT_RUN };
        return await sandwich.execute(tool, input, call.id, signal, decision, slot.prepared);
      } finally {
        reply.give();
        own?.give();
      }
    };
    results.set(slot, run());
  }
  return results;
}
