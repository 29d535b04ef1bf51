import { isStorageError } from '../storage/errors';
import type { ApprovalRequest, Decision } from '../approval/approver';
import { transition, type MachineState, type MachineStateName } from '../machine/machine';
import { NS } from '../registers/namespaces';
import type { DraftRecord } from '../storage/records';
import { capOutput } from '../tools/cap-output';
import type { AnyTool, ToolOutput } from '../tools/tool';
import type { Risk } from '../approval/risk';
import type { EntryPayloads } from '../tree/entry-types';
import type { AgentDeps } from './agent-deps';
import { AppendBatch } from './cursor';
import type { EventSink } from './events';
import {
  checkpointsBackNotices,
  lostCheckpointNotices,
  failedCheckpointNotices,
  lostObjectsNotices,
} from './checkpoint-notices';
import { addNotices, type NoticePayload } from './turn-hooks';
import { approvalPlace } from './approval-place';

let processPlace: string | undefined;
function defaultPlace(): string {
  processPlace ??= approvalPlace();
  return processPlace;
}

export interface PendingIntent {
  readonly entryId: string;
  readonly callId: string;
  readonly tool: string;
  readonly approved: boolean;
  /** Set for a file restore (the user's, not the model's): resumed by running it again. */
  readonly kind?: 'restore';
  /** The input that runs, when the user edited the call before approving it (`e`); else the intent's. */
  readonly editedInput?: unknown;
  /**
   * Where the approval was given (`approvalPlace`), when `approved`. Resume runs a call only on an
   * approval given where it runs; none recorded (a session file of an older tole) counts as elsewhere.
   */
  readonly approvedAt?: string;
}

type Result = EntryPayloads['tool_result'];

/**
 * A checkpoint taken before an effect (its id, when one was taken) and what to tell the user about
 * it; `interrupted` when the user pressed Esc while it was taken (the call must not run).
 */
interface TakenCheckpoint {
  readonly id?: string;
  readonly notices: readonly NoticePayload[];
  readonly interrupted?: true;
}

/** One intent of a batch of calls that run side by side (see `commitIntents`). */
interface BatchIntent {
  readonly request: ApprovalRequest;
  readonly tool: AnyTool;
  readonly decision: Decision;
  readonly prepared: unknown;
  readonly notices: readonly NoticePayload[];
}

/** The `tool_intent` entry of a call. */
function intentPayload(
  request: ApprovalRequest,
  tool: AnyTool,
  decision: Decision | null,
  prepared: unknown,
  checkpointId: string | undefined,
  byUser: boolean,
): EntryPayloads['tool_intent'] {
  return {
    callId: request.callId,
    tool: tool.name,
    input: request.input,
    subject: request.subject,
    risk: request.risk,
    reason: request.reason,
    replay: tool.replay,
    approval: decision,
    ...(prepared === undefined ? {} : { prepared }),
    ...(checkpointId === undefined ? {} : { checkpoint: checkpointId }),
    ...(byUser ? { by: 'user' as const } : {}),
  };
}

/**
 * A call's intent in `batch`: the `tool_intent` entry, its pending register and its op state.
 * One call alone and the calls of a batch are written alike, so that resume reads them alike.
 * Returns whether the call is approved already (it runs without asking).
 */
function addIntent(
  batch: AppendBatch,
  request: ApprovalRequest,
  tool: AnyTool,
  decision: Decision | null,
  prepared: unknown,
  checkpointId: string | undefined,
  place: string,
  byUser = false,
): boolean {
  const entryId = batch.entry('tool_intent', intentPayload(request, tool, decision, prepared, checkpointId, byUser));
  const approved = decision?.approved === true;
  batch.register(NS.pending, request.callId, {
    entryId,
    callId: request.callId,
    tool: tool.name,
    approved,
    ...(approved ? { approvedAt: place } : {}),
  } satisfies PendingIntent);
  batch.register(NS.opState, request.callId, { tool: tool.name, status: approved ? 'executing' : 'awaiting_approval' });
  return approved;
}

export const NO_CHECKPOINT: TakenCheckpoint = { notices: [] };

const INTERRUPTED_CHECKPOINT: TakenCheckpoint = { notices: [], interrupted: true };

/** The decision of a call the user approved and then interrupted while its checkpoint was taken: not run. */
export const INTERRUPTED_AT_CHECKPOINT: Decision = {
  approved: false,
  by: 'interrupted',
  reason: 'interrupted by the user while its checkpoint was taken',
};

/** Shared moves of the effect sandwich: each one commit, each one CAS transition. */
export class Sandwich {
  /**
   * Whether this sandwich took a checkpoint since which every effect was one tole can name. A
   * sandwich lives for one turn (or one resume, one `!command`): the first checkpoint of each
   * scans the whole workspace, so that what the user changed between prompts is in it.
   */
  private vouching = false;

  constructor(
    private readonly deps: AgentDeps,
    private readonly emit: EventSink,
  ) {}

  /** Commits `records` with the move; a usage row among them is announced before the new state. */
  move(state: MachineState, to: MachineStateName, records: readonly DraftRecord[] = []): MachineState {
    const moved = transition(this.deps.store, state.seq, to, records);
    for (const row of moved.records) if (row.kind === 'usage') this.emit({ type: 'usage', row });
    this.emit({ type: 'state', state: moved.state });
    return moved.state;
  }

  /**
   * A call waited on a prompt a person answers: meanwhile they (or their editor) may have changed
   * any file, so the next checkpoint scans the whole workspace, whatever the prompt's answer.
   */
  waitedOnUser(): void {
    this.vouching = false;
  }

  /**
   * Before an effect that can change files, once it is approved: a checkpoint of the workspace.
   * When none can be taken (git failed, or ran past the checkpoint time limit and was killed) the
   * effect still runs with no checkpoint named in its intent, and the user is told: the first
   * failure in a row in full, each later one in a short line on its call, and the success after
   * them (checkpoint-notices.ts).
   * When `signal` aborts meanwhile (Esc), the checkpoint's gits are killed and the result says
   * `interrupted`: the caller settles the call as not run.
   */
  async checkpoint(risk: Risk, signal: AbortSignal): Promise<TakenCheckpoint> {
    const { checkpoints, fault } = this.deps;
    if (!checkpoints || risk === 'ReadOnly') return NO_CHECKPOINT;
    const taken = await checkpoints.take(this.vouching ? 'known-paths' : 'scan', signal);
    fault?.('after-checkpoint');
    this.vouching = taken.ok && !signal.aborted;
    if (signal.aborted) {
      // Esc came as the checkpoint failed: the call does not run, so its failure is not one to tell.
      if (!taken.ok && !('interrupted' in taken)) checkpoints.withdraw(taken);
      return INTERRUPTED_CHECKPOINT;
    }
    if (taken.ok)
      return {
        id: taken.id,
        notices: [
          ...(taken.lost ? lostCheckpointNotices(taken.lost.lost, taken.lost.parent, checkpoints.directory) : []),
          ...(taken.holes ? lostObjectsNotices(taken.holes, checkpoints.directory) : []),
          ...(taken.afterFailures ? checkpointsBackNotices(taken.afterFailures) : []),
        ],
      };
    if ('interrupted' in taken) return INTERRUPTED_CHECKPOINT;
    return { notices: failedCheckpointNotices(taken) };
  }

  /**
   * Intent: the intent entry (with the checkpoint, when the approval was known and one was
   * taken), the pending register and the op state in one line, after the notices of hooks that ran first.
   */
  commitIntent(
    state: MachineState,
    request: ApprovalRequest,
    tool: AnyTool,
    decision: Decision | null,
    prepared: unknown,
    notices: readonly NoticePayload[] = [],
    checkpoint: TakenCheckpoint = NO_CHECKPOINT,
    byUser = false,
  ): MachineState {
    const batch = new AppendBatch(this.deps.store);
    addNotices(batch, [...notices, ...checkpoint.notices]);
    const approved = addIntent(batch, request, tool, decision, prepared, checkpoint.id, this.place, byUser);
    return this.move(state, approved ? 'Executing' : 'AwaitingApproval', batch.build());
  }

  /**
   * The intents of calls that run side by side (ReadOnly, approved by the policy), in the calls'
   * order, in one line: each after the notices of its own preToolUse hooks, with its pending
   * register and op state. The machine goes to Executing once, for all of them.
   */
  commitIntents(state: MachineState, intents: readonly BatchIntent[]): MachineState {
    const batch = new AppendBatch(this.deps.store);
    for (const { request, tool, decision, prepared, notices } of intents) {
      if (!decision.approved) throw new Error(`assert: ${request.callId} runs beside others without an approval`);
      addNotices(batch, notices);
      addIntent(batch, request, tool, decision, prepared, undefined, this.place);
    }
    return this.move(state, 'Executing', batch.build());
  }

  /** Where approvals given in this process are recorded as given. */
  get place(): string {
    return this.deps.place ?? defaultPlace();
  }

  /**
   * The interactive decision with the checkpoint taken after it, committed before the effect runs
   * (or with the denial's settlement). A call asked again while already Executing (its approval
   * was given elsewhere) stays there: the approval is committed without a move.
   */
  commitApproval(
    state: MachineState,
    request: ApprovalRequest,
    tool: AnyTool,
    decision: Decision,
    checkpoint: TakenCheckpoint = NO_CHECKPOINT,
  ): MachineState {
    const batch = new AppendBatch(this.deps.store);
    addNotices(batch, checkpoint.notices);
    batch.entry('approval', {
      callId: request.callId,
      decision,
      ...(checkpoint.id === undefined ? {} : { checkpoint: checkpoint.id }),
    });
    if (!decision.approved) {
      const outcome = decision.by === 'interrupted' ? 'interrupted' : 'denied';
      return this.settleInto(
        state,
        batch,
        request.callId,
        { callId: request.callId, tool: tool.name, outcome, content: denialText(decision), tier: 'hot' },
        true,
      );
    }
    const pending = this.deps.store.registers.get<PendingIntent>(NS.pending, request.callId);
    if (!pending) throw new Error(`assert: approval for ${request.callId} without a pending intent`);
    const edited = decision.edited?.input === undefined ? {} : { editedInput: decision.edited.input };
    batch.register(NS.pending, request.callId, {
      ...pending,
      approved: true,
      ...edited,
      approvedAt: this.place,
    } satisfies PendingIntent);
    batch.register(NS.opState, request.callId, { tool: tool.name, status: 'executing' });
    if (state.pc !== 'Executing') return this.move(state, 'Executing', batch.build());
    this.deps.store.commit(batch.build());
    return state;
  }

  /**
   * A `!command` stopped before it could run (the policy denied it, a hook blocked it, its
   * preparation failed, Esc): its intent, marked as the user's and carrying the denial when there
   * was one, and its result in one line. The record then reads as any other `!command` of the
   * user's (the transcript, the tree, the export and the model's next request), and nothing is left
   * pending, since there is nothing a resume could do for it.
   */
  settleUnrunByUser(
    state: MachineState,
    request: ApprovalRequest,
    tool: AnyTool,
    decision: Decision | null,
    result: Result,
    notices: readonly NoticePayload[],
  ): MachineState {
    const batch = new AppendBatch(this.deps.store);
    addNotices(batch, notices);
    batch.entry('tool_intent', intentPayload(request, tool, decision, undefined, undefined, true));
    return this.settleInto(state, batch, request.callId, result, false);
  }

  /** Settlement: result entry, pending cleared, pc advanced, in one line (after the notices of hooks that ran first). */
  settle(
    state: MachineState,
    result: Result,
    hadIntent: boolean,
    notices: readonly NoticePayload[] = [],
  ): MachineState {
    const batch = new AppendBatch(this.deps.store);
    addNotices(batch, notices);
    return this.settleInto(state, batch, result.callId, result, hadIntent);
  }

  private settleInto(
    state: MachineState,
    batch: AppendBatch,
    callId: string,
    result: Result,
    hadIntent: boolean,
  ): MachineState {
    const entryId = batch.entry('tool_result', result);
    if (hadIntent) batch.remove(NS.pending, callId).remove(NS.opState, callId);
    const next = this.move(state, 'Settling', batch.build());
    this.emit({ type: 'tool-result', callId, tool: result.tool, outcome: result.outcome, entryId });
    return next;
  }

  /**
   * Tells the checkpoints what a call is about to change, and again once it did (a checkpoint
   * another caller takes meanwhile may read a path halfway): its paths, or that only a scan can say.
   */
  private expect(effect: Effect): void {
    const { checkpoints } = this.deps;
    if (!checkpoints || effect === 'none') return;
    if (effect === 'unknown') {
      checkpoints.rescan();
      this.vouching = false;
    } else {
      checkpoints.noteChanges(effect);
    }
  }

  /** Runs the effect (confined unless `approval` is a keypress that did not ask for the sandbox); a thrown error or an abort becomes a result, never an exception. */
  async execute(
    tool: AnyTool,
    input: unknown,
    callId: string,
    signal: AbortSignal,
    approval: Decision | null,
    prepared?: unknown,
  ): Promise<Result> {
    const startedMs = this.deps.store.now();
    const effect = await effectOf(tool, input, this.deps.workspaceRoot);
    this.expect(effect);
    let output: ToolOutput;
    try {
      // A key that approved the call only to run it in the sandbox (vet-unconfined.ts) runs it confined.
      const keypress = approval?.approved === true && approval.by === 'user' && approval.confined !== true;
      const accepted = keypress && approval.approved ? approval.accepted : undefined;
      const running = tool.execute(input, {
        workspaceRoot: this.deps.workspaceRoot,
        signal,
        callId,
        keypress,
        ...(accepted === undefined ? {} : { accepted }),
        ...(prepared === undefined ? {} : { prepared }),
      });
      // A test host's crash at this point leaves the effect running, unheard: that it failed later is no news.
      if (this.deps.fault) running.catch(() => {});
      this.deps.fault?.('during-effect');
      output = await running;
    } catch (error) {
      // A sub-agent's session storage that could not write stops the turn as this session's own
      // would: its call stays pending, and a resume goes on with the child from its file.
      if (isStorageError(error)) throw error;
      output = { ok: false, content: `tool ${tool.name} failed: ${(error as Error)?.message ?? String(error)}` };
    }
    const durationMs = this.deps.store.now() - startedMs;
    // A call that failed may have done part of its work, and not only at its paths (a temporary
    // file left beside its target): the next checkpoint scans.
    this.expect(output.ok ? effect : 'unknown');
    // A tool that finished despite the abort did its effect: saying "interrupted" would invite the
    // model to do it again. Only a call the abort cut short is interrupted.
    const interrupted = signal.aborted && !output.ok;
    const outcome = interrupted ? 'interrupted' : output.ok ? 'ok' : 'error';
    const content = interrupted ? `interrupted by the user: ${output.content}` : output.content;
    return {
      callId,
      tool: tool.name,
      outcome,
      content: capOutput(content, this.deps.toolOutputCapBytes),
      ...(output.display ? { display: output.display } : {}),
      tier: tool.tier,
      durationMs,
    };
  }
}

/** What a call can change in the workspace: nothing, the paths it names, or what tole cannot name. */
type Effect = 'none' | 'unknown' | readonly string[];

async function effectOf(tool: AnyTool, input: unknown, workspaceRoot: string): Promise<Effect> {
  const declared = tool.workspaceEffect;
  if (declared === undefined) return 'unknown';
  if (declared.kind === 'none') return 'none';
  try {
    return (await declared.paths(input, workspaceRoot)) ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function denialText(decision: Decision): string {
  if (decision.approved) return '';
  switch (decision.by) {
    case 'user':
      if (decision.message)
        return `denied by the user, who says: ${decision.message}\nNot run. Do not retry the same call; follow what the user says.`;
      return `denied by the user${decision.reason ? `: ${decision.reason}` : ''}. Do not retry the same call; ask or try another way.`;
    case 'headless':
      return `denied: ${decision.reason}`;
    case 'policy':
      return `not run: ${decision.reason}`;
    case 'hook':
      return `blocked by a hook: ${decision.reason}`;
    case 'interrupted':
      return decision.reason === INTERRUPTED_AT_CHECKPOINT.reason
        ? `${decision.reason}: not run`
        : 'interrupted by the user before it was approved: not run';
  }
}
