import type { ApprovalRequest, Decision } from '../approval/approver';
import { machineState, type MachineState } from '../machine/machine';
import { NS } from '../registers/namespaces';
import type { AnyTool, GuardVerdict, ToolContext } from '../tools/tool';
import type { Entry } from '../tree/entry-types';
import type { AgentDeps } from './agent-deps';
import { askApprover } from './ask-approver';
import { askFollowingEdits, riskOfRun } from './edited-call';
import { resumeRestore } from './restore-files';
import { AppendBatch } from './cursor';
import type { EventSink } from './events';
import { INTERRUPTED_AT_CHECKPOINT, NO_CHECKPOINT, type PendingIntent, type Sandwich } from './tool-step';
import { emitNotices } from './turn-hooks';

export const NEVER_REPLAY_TEXT =
  'interrupted: outcome unknown. tole stopped while this call may have been running, and a call of this kind is never run twice. Check whether its effect happened before you try it again.';

/**
 * Resolves every intent committed without a settlement, by its tool's replay safety:
 * `idempotent` runs again, `guarded` asks the tool whether the effect happened, `never`
 * settles as "interrupted, outcome unknown". A call without a committed approval is asked
 * again (or denied when no interactive approver is wired); it never runs unapproved.
 * Returns how many intents were settled.
 */
export async function resumePending(
  deps: AgentDeps,
  sandwich: Sandwich,
  signal: AbortSignal,
  emit: EventSink,
): Promise<number> {
  const { store } = deps;
  // A read-only view can settle nothing: the writer that opens the session resumes it.
  if (store.readOnly) return 0;
  const all = store.registers.entries(NS.pending).map(([, cell]) => cell.value as PendingIntent);
  // A restore runs between turns, outside the machine: it settles first, by running it again.
  for (const restore of all.filter((intent) => intent.kind === 'restore')) await resumeRestore(deps, restore, emit);
  // In the calls' order (the order of their intents), so that a batch of calls that ran side by
  // side settles on resume as it would have in the turn.
  const seqOf = (intent: PendingIntent): number => store.entry(intent.entryId)?.seq ?? Number.MAX_SAFE_INTEGER;
  const pending = all.filter((intent) => intent.kind !== 'restore').sort((a, b) => seqOf(a) - seqOf(b));
  let state = machineState(store);
  if (pending.length === 0) {
    if (state.pc === 'Idle' || state.pc === 'Final') return all.length;
    closeInterruptedTurn(sandwich, state, store, emit);
    return all.length;
  }
  for (const intent of pending) {
    // A batch's intents are settled one by one: after the first, the machine is back at ToolCall for each.
    if (state.pc === 'Settling') state = sandwich.move(state, 'ToolCall');
    state = await resumeOne(deps, sandwich, state, intent, signal, emit);
  }
  closeInterruptedTurn(sandwich, state, store, emit);
  return all.length;
}

function closeInterruptedTurn(
  sandwich: Sandwich,
  state: MachineState,
  store: AgentDeps['store'],
  emit: EventSink,
): void {
  const batch = new AppendBatch(store);
  const text = 'the previous turn was interrupted (tole stopped during it); its unfinished calls are settled above';
  batch.entry('notice', { level: 'warn', source: 'resume', text });
  sandwich.move(state, 'Final', batch.build());
  emit({ type: 'notice', level: 'warn', text });
}

async function resumeOne(
  deps: AgentDeps,
  sandwich: Sandwich,
  state: MachineState,
  intent: PendingIntent,
  signal: AbortSignal,
  emit: EventSink,
): Promise<MachineState> {
  const entry = deps.store.entry(intent.entryId) as Entry<'tool_intent'> | undefined;
  if (!entry || entry.type !== 'tool_intent') throw new Error(`assert: pending ${intent.callId} names no intent entry`);
  const payload = entry.payload;
  const tool = deps.tools.get(payload.tool);
  const base = { callId: intent.callId, tool: payload.tool, tier: tool?.tier ?? 'hot' } as const;
  if (!tool) {
    return sandwich.settle(
      state,
      {
        ...base,
        outcome: 'interrupted',
        content: `interrupted: tool ${payload.tool} is not available now; not run again`,
        resumedBy: 'never-replay',
      },
      true,
    );
  }
  let current = state;
  // What runs is what the user approved: the call as they edited it, when they did.
  let input = intent.editedInput === undefined ? payload.input : intent.editedInput;
  let approval: Decision | null = null;
  const run = (runInput: unknown, runApproval: Decision | null) =>
    runAndSettle(
      deps,
      sandwich,
      current,
      tool,
      { input: runInput, prepared: payload.prepared },
      intent.callId,
      signal,
      runApproval,
    );
  // An approval given on another machine, by another user or under another tole home (a copied
  // or pulled session) is no approval here; a call never run again needs none.
  const elsewhere = intent.approved ? approvedElsewhere(intent, sandwich.place) : null;
  if (!intent.approved || (elsewhere !== null && tool.replay !== 'never')) {
    const request: ApprovalRequest = {
      callId: intent.callId,
      tool: tool.name,
      subject: payload.subject,
      input,
      risk: payload.risk,
      reason: payload.reason,
    };
    if (elsewhere !== null) {
      emit({
        type: 'notice',
        level: 'warn',
        text: `${tool.name} (${payload.subject}) was ${elsewhere}: asked again here`,
      });
    }
    const checked = await askFollowingEdits(tool, input, request, (shown) =>
      askAgain(deps, shown, signal, emit, elsewhere),
    );
    const { decision } = checked;
    sandwich.waitedOnUser();
    const checkpoint = decision.approved
      ? await sandwich.checkpoint(riskOfRun(request, decision), signal)
      : NO_CHECKPOINT;
    const settled = checkpoint.interrupted ? INTERRUPTED_AT_CHECKPOINT : decision;
    current = sandwich.commitApproval(current, request, tool, settled, checkpoint);
    emitNotices(checkpoint.notices, emit);
    if (!settled.approved) return current;
    if (!intent.approved) {
      // No approval was committed before the crash, so the effect cannot have started: run it.
      return run(checked.input, decision);
    }
    // Approved elsewhere, the effect may have started there (or in this very workspace): the
    // tool's replay safety still decides whether it runs, now on this approval.
    input = checked.input;
    approval = decision;
  }
  switch (tool.replay) {
    case 'idempotent':
      return run(input, approval);
    case 'guarded': {
      const ctx = { workspaceRoot: deps.workspaceRoot, signal, callId: intent.callId };
      const happened = await askGuard(tool, input, payload.prepared, ctx);
      if (typeof happened === 'string') {
        // The guard cannot tell: running again could do the effect twice, so settle as unknown.
        return sandwich.settle(
          current,
          { ...base, outcome: 'interrupted', content: `${NEVER_REPLAY_TEXT} (${happened})`, resumedBy: 'never-replay' },
          true,
        );
      }
      if (happened) {
        return sandwich.settle(
          current,
          {
            ...base,
            outcome: 'ok',
            content: `done: ${payload.subject} (the effect had happened before tole stopped; not run again)`,
            resumedBy: 'guard',
          },
          true,
        );
      }
      return run(input, approval);
    }
    case 'never':
      return sandwich.settle(
        current,
        { ...base, outcome: 'interrupted', content: NEVER_REPLAY_TEXT, resumedBy: 'never-replay' },
        true,
      );
  }
}

/** Whether the guarded effect happened, or why the guard cannot tell (it says so, there is none, or it failed). */
async function askGuard(tool: AnyTool, input: unknown, prepared: unknown, ctx: ToolContext): Promise<boolean | string> {
  if (!tool.guard) return `${tool.name} has no guard to check it`;
  try {
    const verdict: GuardVerdict = await tool.guard(input, prepared, ctx);
    return typeof verdict === 'boolean' ? verdict : verdict.unknown;
  } catch (error) {
    return `checking it failed: ${(error as Error)?.message ?? String(error)}`;
  }
}

async function runAndSettle(
  deps: AgentDeps,
  sandwich: Sandwich,
  state: MachineState,
  tool: AnyTool,
  intent: { readonly input: unknown; readonly prepared?: unknown },
  callId: string,
  signal: AbortSignal,
  approval: Decision | null = null,
): Promise<MachineState> {
  const result = await sandwich.execute(tool, intent.input, callId, signal, approval, intent.prepared);
  deps.fault?.('before-settlement');
  return sandwich.settle(state, { ...result, resumedBy: 'rerun' }, true);
}

/**
 * How the pending call was approved, when not here (`place`): a session copied to another machine
 * or home, or pulled from the team server, carries its first user's approval. A session file of
 * an older tole records no place: read as elsewhere, so the call is asked again (the safe side).
 */
function approvedElsewhere(intent: PendingIntent, place: string): string | null {
  if (intent.approvedAt === place) return null;
  if (intent.approvedAt === undefined) return 'approved by a tole that did not record where';
  return `approved as ${intent.approvedAt}, not here (${place})`;
}

async function askAgain(
  deps: AgentDeps,
  request: ApprovalRequest,
  signal: AbortSignal,
  emit: EventSink,
  elsewhere: string | null,
): Promise<Decision> {
  if (!deps.approver && elsewhere !== null) {
    return {
      approved: false,
      by: 'headless',
      reason: `${request.tool} was ${elsewhere}; an approval given on another machine, by another user or under another tole home does not run here. Open the session in the interactive tole to approve it here, or ask for it again`,
    };
  }
  if (!deps.approver) {
    return {
      approved: false,
      by: 'headless',
      reason: `${request.tool} needed approval and none was committed before tole stopped; run it again in the interactive tole to approve it`,
    };
  }
  return askApprover(deps, deps.approver, request, signal, emit);
}
