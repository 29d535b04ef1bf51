import { dirname, join } from 'node:path';
import type { Approver } from '../approval/approver';
import { newSessionId, type Clock, type Random } from '../clock';
import { NS } from '../registers/namespaces';
import { isStorageError, type StorageError } from '../storage/errors';
import type { FileOps } from '../storage/file-ops';
import type { ParentLink, TaskLink } from '../storage/records';
import type { IndexKey } from '../storage/session-index';
import { SessionStore } from '../storage/session-store';
import { extensionOf, backendOfPath } from '../storage/backends';
import { ToolRegistry } from '../tools/registry';
import { taskTool } from './task-tool';
import { TASK_TOOL } from './task-tool-name';
import type { ToolOutput } from '../tools/tool';
import type { Provider } from '../provider/provider';
import { Agent } from './agent';
import type { AgentDeps } from './agent-deps';
import type { ActiveProfile } from './agent-profile';
import { childOutcome, childStepsTaken, type ChildOutcome } from './child-outcome';
import type { EventSink, SessionEvent } from './events';
import type { PendingIntent } from './tool-step';
import { taskStateAt, type TaskState } from './task-state';
import { taskStateText } from './plan-nudges';
import { DEFAULT_SUB_AGENT_LIMITS, type SubAgentLimits } from './sub-agent-limits';

export { TASK_TOOL } from './task-tool-name';

/** A profile made ready for a child (its prompt assembled), the model it names, and its own provider when it names one. */
export interface ChildProfile {
  readonly profile: ActiveProfile;
  readonly model?: string;
  readonly provider?: ChildProvider;
}

/** The provider a child's profile names, in place of the session's (its own base URL, key and API). */
export interface ChildProvider {
  readonly provider: Provider;
  /** Its model's context window as configured for it; unknown (asked of the server) when left out. */
  readonly contextWindowTokens?: number;
}

/** What a child is started with: the model's brief and, optionally, an agent profile by name. */
interface TaskRequest {
  readonly prompt: string;
  readonly description?: string;
  readonly agent?: string;
}

/** One event of a running child, for the host (the usage pane shows its cost while it runs). */
export interface ChildEvent {
  readonly callId: string;
  readonly sessionId: string;
  readonly agent: string | null;
  readonly model: string;
  readonly event: SessionEvent;
}

export interface SubAgentsOptions {
  /** The parent's deps as the host built them (all its tools, its own prompt). */
  readonly deps: AgentDeps;
  /** The parent's model now: a child whose profile names none runs it. */
  readonly model: () => string;
  /** A profile by name, ready to run; throws an Error whose message the model reads when it cannot be used. */
  readonly profile: (name: string, signal: AbortSignal) => Promise<ChildProfile>;
  readonly clock: Clock;
  readonly random: Random;
  /** The user's key for saved indexes (see SessionStore.open). */
  readonly indexKey?: IndexKey;
  readonly limits?: SubAgentLimits;
  /** How deep the parent is: 0 for a session the user started. */
  readonly depth?: number;
  /** The file operations children's stores use (the fault simulator's disk); the real filesystem when left out. */
  readonly ops?: FileOps;
}

const SESSION_ID = /^[0-9]{1,30}-[0-9a-f]{6}$/;

/**
 * Runs sub-agents of one session: each a session of its own beside the parent's file (same
 * store, same guarantees), its id committed in the parent's intent (`prepare`) before its file is
 * made, its header naming the parent's call. It runs the same loop, policy, sandbox, hooks and
 * checkpoints as the parent; a call it must ask about is asked on the parent's approver, naming
 * the child. Run again (a resume), it goes on from its own file: a child that had answered is
 * not asked again, one cut short is resumed (its pending calls settled by their replay class)
 * and goes on from where it stood.
 */
export class SubAgents {
  private readonly listeners = new Set<(event: ChildEvent) => void>();
  readonly limits: SubAgentLimits;
  readonly depth: number;

  constructor(private readonly options: SubAgentsOptions) {
    this.limits = options.limits ?? DEFAULT_SUB_AGENT_LIMITS;
    this.depth = options.depth ?? 0;
  }

  /** Sees every event of every child while it runs. Returns the unsubscribe. */
  onChildEvent(listener: (event: ChildEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A new child's session id: made before the intent, committed with it. */
  newChildId(): string {
    return newSessionId(this.options.clock, this.options.random);
  }

  /**
   * Runs (or, on resume, goes on with) the child `childId` for the parent's call `callId`, and
   * returns what the parent's call settles with: the child's final answer and its session id,
   * or why it could not finish.
   */
  async run(request: TaskRequest, callId: string, childId: unknown, signal: AbortSignal): Promise<ToolOutput> {
    if (typeof childId !== 'string' || !SESSION_ID.test(childId))
      throw new Error(`assert: task call ${callId} has no sub-agent session id in its intent`);
    const agentName = request.agent ?? null;
    let chosen: ChildProfile;
    try {
      chosen = await this.childProfile(agentName, signal);
    } catch (error) {
      return { ok: false, content: `the sub-agent was not started: ${(error as Error).message}` };
    }
    const model = chosen.model ?? this.options.model();
    const link: TaskLink = { callId, agent: agentName, depth: this.depth + 1 };
    let store: SessionStore;
    try {
      store = this.openChild(childId, this.parentLink(callId, link));
    } catch (error) {
      if (!(error instanceof ChildFileError) && (!isStorageError(error) || writeFailed(error))) throw error;
      return { ok: false, content: `the sub-agent could not be started: ${(error as Error).message}` };
    }
    // The child's cost counts against the session's budget, its rows from before a resume too.
    const unwatch = this.options.deps.budget?.watch(store);
    try {
      const outcome = await this.drive(store, chosen, model, link, request, signal);
      return settlementOf(outcome, childId, agentName);
    } finally {
      unwatch?.();
      store.close();
    }
  }

  private async childProfile(name: string | null, signal: AbortSignal): Promise<ChildProfile> {
    const { deps } = this.options;
    const chosen: ChildProfile =
      name === null
        ? { profile: { name: null, systemPrompt: deps.systemPrompt } }
        : await this.options.profile(name, signal);
    const nests = this.depth + 1 < this.limits.maxTaskDepth || chosen.profile.tools?.includes(TASK_TOOL) === true;
    const listed = chosen.profile.tools ?? deps.tools.names();
    // A child starts no children of its own unless depth allows it (default: it does not).
    const tools = listed.filter((name) => name !== TASK_TOOL || (nests && this.depth + 1 < MAX_DEPTH));
    return {
      ...chosen,
      profile: { ...chosen.profile, tools, maxSteps: chosen.profile.maxSteps ?? this.limits.childMaxSteps },
    };
  }

  private parentLink(callId: string, task: TaskLink): ParentLink {
    const { store } = this.options.deps;
    const pending = store.registers.get<PendingIntent>(NS.pending, callId);
    if (!pending) throw new Error(`assert: task call ${callId} runs without a committed intent`);
    return { sessionId: store.header.id, entryId: pending.entryId, path: store.path, task };
  }

  /** The child's session beside the parent's: opened when its file is there (a resume), else made with `id`. */
  private openChild(id: string, parent: ParentLink): SessionStore {
    const { deps, clock, random, indexKey, ops } = this.options;
    const dir = dirname(deps.store.path);
    const backend = backendOfPath(deps.store.path);
    const through = ops ? { ops } : {};
    let found: SessionStore;
    try {
      found = SessionStore.open(join(dir, `${id}${extensionOf(backend)}`), {
        clock,
        random,
        ...through,
        ...(indexKey ? { indexKey } : {}),
        lanesChecked: true,
      });
    } catch (error) {
      if (!isStorageError(error, 'not-found')) throw error;
      return SessionStore.create(dir, { clock, random, cwd: deps.store.header.cwd, backend, parent, id, ...through });
    }
    // A file under the child's id that another session or call made is never driven as this child.
    const link = found.header.parent;
    if (link?.sessionId !== parent.sessionId || link.task?.callId !== parent.task?.callId) {
      found.close();
      throw new ChildFileError(
        `the session file ${found.path} is not this call's sub-agent (its header names ${link?.task ? `call ${link.task.callId} of session ${link.sessionId}` : 'no parent call'}): it was left as it is`,
      );
    }
    return found;
  }

  private async drive(
    store: SessionStore,
    chosen: ChildProfile,
    model: string,
    link: TaskLink,
    request: TaskRequest,
    signal: AbortSignal,
  ): Promise<ChildOutcome> {
    const emit = this.childSink(link, store.header.id, model);
    const { profile } = chosen;
    const agent = new Agent(this.childDeps(store, link, chosen), model, profile);
    const before = childOutcome(store);
    switch (before.kind) {
      case 'answered':
      case 'failed':
        return before;
      case 'not-started':
        await agent.runTurn(briefOf(request, taskStateAt(this.options.deps.store)), signal, emit);
        return childOutcome(store);
      case 'cut-short': {
        await agent.resume(signal, emit);
        const resumed = childOutcome(store);
        if (resumed.kind !== 'cut-short' || resumed.headEntryId === null) return resumed;
        // The steps it took before the crash count: a resume does not give it its maxSteps again.
        await agent.retry(resumed.headEntryId, signal, emit, childStepsTaken(store));
        return childOutcome(store);
      }
    }
  }

  /**
   * The parent's deps over the child's store, its approver naming the child. A child that may
   * start children gets a `task` tool of its own, one level deeper, over its own deps.
   */
  private childDeps(store: SessionStore, link: TaskLink, chosen: ChildProfile): AgentDeps {
    const deps = chosen.provider ? onProvider(this.options.deps, chosen.provider) : this.options.deps;
    const label = `sub-agent${link.agent === null ? '' : ` ${link.agent}`} (session ${store.header.id})`;
    const approver = deps.approver ? naming(deps.approver, label) : null;
    if (chosen.profile.tools?.includes(TASK_TOOL) !== true) return { ...deps, store, approver };
    const tools = ToolRegistry.create({ interactiveApprover: deps.approver !== null });
    for (const { tool } of deps.tools.listing()) if (tool.name !== TASK_TOOL) tools.register(tool);
    const own: AgentDeps = { ...deps, store, approver, tools };
    tools.register(taskTool(new SubAgents({ ...this.options, deps: own, depth: link.depth })));
    return own;
  }

  private childSink(link: TaskLink, sessionId: string, model: string): EventSink {
    return (event) => {
      for (const listener of this.listeners)
        listener({ callId: link.callId, sessionId, agent: link.agent, model, event });
    };
  }
}

/** The file under a child's id is not that child's (or cannot be opened): the call fails, saying why. */
class ChildFileError extends Error {
  override readonly name = 'ChildFileError';
}

/**
 * The child's storage could not write (a failed write or fsync, its lock taken): thrown on, it
 * stops the parent's turn as a failure of the parent's own file would, leaving the call pending,
 * so that a resume goes on with the child from what its file holds. Settling the call as failed
 * would leave the child's own calls pending for good, their effects perhaps done.
 */
function writeFailed(error: StorageError): boolean {
  return error.kind === 'not-committed' || error.kind === 'poisoned' || error.kind === 'lock-lost';
}

/** However a profile is set up, sub-agents never nest deeper than this. */
const MAX_DEPTH = 3;

/**
 * What the child is asked: the brief and, when the parent keeps a plan, its task state; nothing
 * of the parent's conversation.
 */
function briefOf(request: TaskRequest, parentState: TaskState): string {
  const title = request.description?.trim();
  const brief = title ? `${title}\n\n${request.prompt}` : request.prompt;
  if (parentState.plan.length === 0) return brief;
  return `${brief}\n\nFor context, the task state of the agent that started you (you work on the brief above, not on its plan):\n${taskStateText(parentState)}`;
}

/** The parent's deps on the provider a child's profile names: its window is that provider's, not the parent's. */
function onProvider(deps: AgentDeps, own: ChildProvider): AgentDeps {
  const { contextWindowTokens: _parentWindow, ...rest } = deps;
  const { contextWindowTokens: _parentCompactionWindow, ...compaction } = deps.compaction ?? {};
  const window = own.contextWindowTokens === undefined ? {} : { contextWindowTokens: own.contextWindowTokens };
  return { ...rest, provider: own.provider, ...window, compaction: { ...compaction, ...window } };
}

function naming(approver: Approver, label: string): Approver {
  return { decide: (request, signal) => approver.decide({ ...request, agent: label }, signal) };
}

function settlementOf(outcome: ChildOutcome, childId: string, agent: string | null): ToolOutput {
  const who = `sub-agent${agent === null ? '' : ` ${agent}`}, session ${childId}`;
  switch (outcome.kind) {
    case 'answered':
      return { ok: true, content: `${outcome.text}\n\n(${who})`, display: { kind: 'text', text: `answered (${who})` } };
    case 'failed':
      return { ok: false, content: `the sub-agent could not finish: ${outcome.reason} (${who})` };
    case 'not-started':
    case 'cut-short':
      return { ok: false, content: `the sub-agent stopped before it answered (${who})` };
  }
}
