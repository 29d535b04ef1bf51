import { answerShapeOf, shapeInBytes } from '../storage/answer-shape';
import type { SessionStore } from '../storage/session-store';
import type { AnyEntry, Entry } from '../tree/entry-types';
import { wholeList } from '../tree/lazy-list';
import { pathPayloadReader, pathTypeReader } from '../tree/tree-index';
import { currentHead } from './cursor';
import { inferPlan } from './plan-inference';
import { planFromInput, UPDATE_PLAN_TOOL, type PlanStep } from '../tools/builtin/update-plan';

/** The newest tool call of a path and a cut of its result. */
interface LastAction {
  readonly tool: string;
  readonly subject: string;
  readonly outcome: string;
  /** The result's first characters (at most `LAST_ACTION_RESULT_CHARS`). */
  readonly result: string;
  readonly entryId: string;
}

/**
 * What the model is doing on one branch, derived from the committed entries on the path to an
 * entry: nothing of it is stored, so a replay, a crash and a checkout all give the same state.
 */
export interface TaskState {
  readonly plan: readonly PlanStep[];
  readonly explanation: string | null;
  /** `tool`: set by update_plan; `inferred`: read from PLAN:/checklist lines of the model's text; null: no plan. */
  readonly source: 'tool' | 'inferred' | null;
  /** The entry whose call (or text) set the plan as it stands. */
  readonly planEntryId: string | null;
  /** The step in progress (else the first pending one), as an index into `plan`. */
  readonly current: number | null;
  readonly lastAction: LastAction | null;
  /** Tool rounds on the path (assistant answers that called tools). */
  readonly rounds: number;
  /** Tool rounds since the plan last changed (all rounds of the path while there is none). */
  readonly roundsSincePlanChange: number;
  /** Whether the newest round is what the path ends with (no prompt or plain answer after it). */
  readonly roundIsNewest: boolean;
}

const LAST_ACTION_RESULT_CHARS = 200;
/** The entry types `TaskStateFold.fold` reads; it passes over every other. */
const FOLDED_TYPES: ReadonlySet<string> = new Set(['assistant', 'user', 'tool_intent', 'tool_result']);

export const EMPTY_TASK_STATE: TaskState = {
  plan: [],
  explanation: null,
  source: null,
  planEntryId: null,
  current: null,
  lastAction: null,
  rounds: 0,
  roundsSincePlanChange: 0,
  roundIsNewest: false,
};

/** The task state at the end of `path` (root first). O(path). */
export function taskStateOf(read: readonly AnyEntry[]): TaskState {
  const fold = new TaskStateFold();
  fold.addAll(wholeList(read));
  return fold.state;
}

/**
 * The task state folded entry by entry along a path, so that a screen whose path grows (a reply
 * on the checked-out branch) reads only the new entries. `follow` starts over when the path is
 * not the one folded so far plus more.
 */
export class TaskStateFold {
  private current: Mutable<TaskState> = { ...EMPTY_TASK_STATE };
  private readonly intents = new Map<string, Entry<'tool_intent'>>();
  private folded = 0;
  private lastId: string | null = null;

  get state(): TaskState {
    return this.current;
  }

  add(entry: AnyEntry): void {
    this.fold(entry);
    this.folded++;
    this.lastId = entry.id;
  }

  private fold(entry: AnyEntry): void {
    switch (entry.type) {
      case 'assistant':
        this.current = afterAnswer(this.current, entry);
        break;
      case 'user':
        // A steering message goes in with the call after the round; a prompt starts a new turn.
        if (this.current.roundIsNewest && !entry.payload.steered)
          this.current = { ...this.current, roundIsNewest: false };
        break;
      case 'tool_intent':
        this.intents.set(entry.payload.callId, entry);
        break;
      case 'tool_result':
        this.current = afterResult(this.current, entry, this.intents.get(entry.payload.callId));
        break;
      default:
        break;
    }
  }

  addAll(entries: Iterable<AnyEntry>): void {
    for (const entry of entries) this.add(entry);
  }

  /** The state at the end of `path`: the new entries folded in, or the whole path when it is another one. */
  follow(path: readonly AnyEntry[]): TaskState {
    const grows = this.folded <= path.length && (this.folded === 0 || path[this.folded - 1]?.id === this.lastId);
    if (!grows) return this.restart().follow(path);
    if (path.length === this.folded) return this.current;
    // Only the entries `fold` reads are built: a prompt matters only right after a tool round, and
    // an answer whose bytes say it holds no plan is read where it lies.
    const typeAt = pathTypeReader(path);
    const payloadAt = pathPayloadReader(path);
    for (let i = this.folded; i < path.length; i++) {
      const type = typeAt(i);
      if (!FOLDED_TYPES.has(type) || (type === 'user' && !this.current.roundIsNewest)) continue;
      const shape = type === 'assistant' ? payloadAt(i, shapeInBytes) : undefined;
      if (shape?.mayHoldPlan === false) this.current = afterRound(this.current, shape.calls);
      else this.fold(path[i]!);
    }
    this.folded = path.length;
    this.lastId = path[path.length - 1]!.id;
    return this.current;
  }

  private restart(): this {
    this.current = { ...EMPTY_TASK_STATE };
    this.intents.clear();
    this.folded = 0;
    this.lastId = null;
    return this;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function afterAnswer(state: Mutable<TaskState>, entry: Entry<'assistant'>): Mutable<TaskState> {
  // Read from the payload's bytes while they are unparsed: a long path's answers are not parsed for two yes/no answers.
  const shape = answerShapeOf(entry);
  const next = afterRound(state, shape === null ? entry.payload.toolCalls.length > 0 : shape.calls);
  // A plan the model keeps with update_plan is not overridden by lines in its text.
  if (next.source === 'tool' || shape?.mayHoldPlan === false) return next;
  const inferred = inferPlan(entry.payload.text);
  if (inferred === null || samePlan(inferred, next.plan)) return next;
  return withPlan(next, inferred, null, 'inferred', entry.id);
}

/** The state after an answer that did (`calls`) or did not call tools, before any plan in its text. */
function afterRound(state: Mutable<TaskState>, calls: boolean): Mutable<TaskState> {
  if (calls)
    return {
      ...state,
      rounds: state.rounds + 1,
      roundsSincePlanChange: state.roundsSincePlanChange + 1,
      roundIsNewest: true,
    };
  return state.roundIsNewest ? { ...state, roundIsNewest: false } : state;
}

function afterResult(
  state: Mutable<TaskState>,
  entry: Entry<'tool_result'>,
  intent: Entry<'tool_intent'> | undefined,
): Mutable<TaskState> {
  const { tool, outcome, content, callId } = entry.payload;
  const lastAction: LastAction = {
    tool,
    subject: intent?.payload.subject ?? '',
    outcome,
    result: content.slice(0, LAST_ACTION_RESULT_CHARS),
    entryId: entry.id,
  };
  const next = { ...state, lastAction };
  if (tool !== UPDATE_PLAN_TOOL || outcome !== 'ok' || intent === undefined || intent.payload.callId !== callId)
    return next;
  const set = planFromInput(intent.payload.input);
  if (set === null) return next;
  return withPlan(next, set.plan, set.explanation, 'tool', intent.id);
}

function withPlan(
  state: Mutable<TaskState>,
  plan: readonly PlanStep[],
  explanation: string | null,
  source: 'tool' | 'inferred',
  entryId: string,
): Mutable<TaskState> {
  // The round that changed the plan is where counting starts again.
  return {
    ...state,
    plan,
    explanation,
    source,
    planEntryId: entryId,
    current: currentStepOf(plan),
    roundsSincePlanChange: 0,
  };
}

/** The step in progress, else the first pending one; null when every step is done (or there are none). */
function currentStepOf(plan: readonly PlanStep[]): number | null {
  const active = plan.findIndex((s) => s.status === 'in_progress');
  if (active !== -1) return active;
  const pending = plan.findIndex((s) => s.status === 'pending');
  return pending === -1 ? null : pending;
}

function samePlan(a: readonly PlanStep[], b: readonly PlanStep[]): boolean {
  return a.length === b.length && a.every((s, i) => s.step === b[i]!.step && s.status === b[i]!.status);
}

/** How many steps are completed. */
export function completedSteps(state: TaskState): number {
  return state.plan.filter((s) => s.status === 'completed').length;
}

/** The task state of the checked-out branch. */
export function taskStateAt(store: SessionStore): TaskState {
  return taskStateOf(store.tree.pathTo(currentHead(store).entryId));
}
