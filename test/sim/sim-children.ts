/**
 * Sub-agents in the fault simulator: the real `task` tool and `SubAgents` over the simulated disk
 * (children's stores open through the lifetime's FileOps, so a crash, a failed write or fsync
 * lands inside a child as in its parent), and the checks a child's file and its parent's call
 * must pass after every lifetime.
 */
import type { Clock, Random } from '../../src/core/clock';
import type { AgentDeps } from '../../src/core/session/agent-deps';
import { childOutcome } from '../../src/core/session/child-outcome';
import { SubAgents, type ChildEvent } from '../../src/core/session/sub-agents';
import { taskTool } from '../../src/core/session/task-tool';
import { checkSessionFile } from '../../src/core/storage/check';
import { isStorageError } from '../../src/core/storage/errors';
import type { FileOps } from '../../src/core/storage/file-ops';
import { SessionStore } from '../../src/core/storage/session-store';
import type { Tool } from '../../src/core/tools/tool';
import type { AnyEntry } from '../../src/core/tree/entry-types';
import { snapshotText, steppingClock } from '../support/storage-fixtures';
import { seededRandom } from '../../src/core/clock';
import { describedOnce } from './described-once';
import type { TaskPlant } from './plants';
import { answerOf, CHILD_PROFILE, CHILD_TOOLS } from './sim-world';
import { checkSettled } from './simulate';

/** Children run two at a time, and a child's turn stops after a few model calls. */
const SIM_LIMITS = { maxParallelTasks: 2, maxTaskDepth: 1, childMaxSteps: 6 };

/** The session's sub-agents, offered to its model as the `task` tool (with a planted bug when asked). */
export function subAgentsFor(
  deps: AgentDeps,
  model: string,
  clock: Clock,
  random: Random,
  ops: FileOps,
  plant: TaskPlant,
): SubAgents {
  const agents = new SubAgents({
    deps,
    model: () => model,
    profile: async (name) => {
      if (name !== CHILD_PROFILE) throw new Error(`there is no agent profile named "${name}"`);
      return { profile: { name, systemPrompt: 'simulated worker', tools: CHILD_TOOLS } };
    },
    clock,
    random,
    ops,
    limits: SIM_LIMITS,
  });
  const tool = taskTool(agents);
  deps.tools.register(describedOnce(plant === 'new-child-on-resume' ? newChildOnResume(tool, agents) : tool));
  return agents;
}

/**
 * The planted bug: a task call this process did not prepare (one resumed from the file) starts a
 * new child under a new id instead of going on with the one its committed intent names.
 */
function newChildOnResume<I>(tool: Tool<I>, agents: SubAgents): Tool<I> {
  const preparedHere = new Set<string>();
  return {
    ...tool,
    prepare: async (input, ctx) => {
      preparedHere.add(ctx.callId);
      return tool.prepare!(input, ctx);
    },
    execute: (input, ctx) =>
      tool.execute(
        input,
        preparedHere.has(ctx.callId) ? ctx : { ...ctx, prepared: { sessionId: agents.newChildId() } },
      ),
  };
}

const CHILD_FILE = /\/([0-9]{1,30}-[0-9a-f]{6})\.jsonl$/;

interface TaskCall {
  readonly callId: string;
  readonly childId: string | null;
  readonly brief: string;
}

/** What the simulator learns of children across a schedule, and the checks their files and their parent's calls pass. */
export class ChildChecks {
  /** Child session id -> entries it reported settled (each after its commit): each must stay in its file. */
  private readonly acked = new Map<string, Set<string>>();
  /** Every child file seen, by session id. */
  readonly files = new Set<string>();
  /** Parent calls that settled with their child's answer. */
  private readonly answered = new Set<string>();

  /** Each child file's last read-only replay and the bytes it replayed (replay). */
  private readonly replays = new Map<string, { readonly bytes: Buffer; readonly store: SessionStore }>();
  /** Checks that took a kept replay instead of replaying an unchanged child file again. */
  replaysKept = 0;
  /**
   * Set (simulate.ts's crossCheckReadBack): each kept replay is compared with a fresh replay of the
   * file, and a difference goes into these problems.
   */
  crossCheck: string[] | null = null;

  constructor(
    private readonly dir: string,
    private readonly trace: (line: string) => void,
    /** The simulated disk, read directly (not as a process's operations) to tell an unchanged child file. */
    private readonly disk: { read(path: string): Buffer | null; holds(path: string, bytes: Buffer): boolean },
  ) {}

  get answers(): number {
    return this.answered.size;
  }

  saw({ sessionId, event }: ChildEvent): void {
    if (event.type !== 'tool-result') return;
    const ids = this.acked.get(sessionId) ?? new Set<string>();
    ids.add(event.entryId);
    this.acked.set(sessionId, ids);
  }

  /**
   * From a fresh process, read-only, after lifetime `life`: each child file opens (and after the
   * last lifetime `tole check` finds it sound), belongs to a task call whose committed intent
   * names it, holds every settlement it reported, and settles no call twice. Each settled task
   * call of the parent names the child its intent names: settled ok, with that child's answer,
   * which the child's file holds; settled failed, with a reason. `read`: the parent's header id
   * and tree entries as a replay of its file's present bytes gave them (simulate.ts's ReadBack);
   * null, and the parent's file is opened here.
   */
  checkAfter(
    parentPath: string,
    names: readonly string[],
    ops: FileOps,
    problems: string[],
    life: number,
    last: boolean,
    read: { readonly headerId: string; readonly entries: Iterable<AnyEntry> } | null = null,
  ): void {
    const found: string[] = [];
    const parent = read ?? this.readParent(parentPath, ops);
    const calls = new Map<string, TaskCall>();
    const results: AnyEntry[] = [];
    for (const entry of parent.entries) {
      if (entry.type === 'tool_intent' && entry.payload.tool === 'task') {
        const { prepared, input } = entry.payload as { prepared?: { sessionId?: string }; input: { prompt?: string } };
        calls.set(entry.payload.callId, {
          callId: entry.payload.callId,
          childId: prepared?.sessionId ?? null,
          brief: input.prompt ?? '',
        });
      }
      if (entry.type === 'tool_result' && entry.payload.tool === 'task') results.push(entry);
    }
    const parentId = parent.headerId;
    const outcomes = new Map<string, ReturnType<typeof childOutcome>>();
    for (const path of names) {
      const id = CHILD_FILE.exec(path)?.[1];
      if (id === undefined || !path.startsWith(`${this.dir}/`) || path === parentPath) continue;
      if (last) {
        const report = checkSessionFile(path, ops);
        if (!report.ok) found.push(`tole check finds session ${id} unsound: ${report.problem?.message}`);
      }
      let child: SessionStore;
      try {
        child = this.replay(path, ops);
      } catch (error) {
        if (!isStorageError(error)) throw error;
        found.push(`child ${id} does not open: ${error.message}`);
        continue;
      }
      // A session of the user's own (a first lifetime's, whose create failed after its file was made) is no child.
      if (child.header.parent === undefined) continue;
      this.files.add(id);
      const link = child.header.parent;
      const call = link?.task ? calls.get(link.task.callId) : undefined;
      if (link?.sessionId !== parentId || call?.childId !== id)
        found.push(
          `child ${id}'s file belongs to no committed task intent of the parent (its header names ${JSON.stringify(link?.task ?? null)})`,
        );
      const settled = new Map<string, number>();
      for (const entry of child.tree.all() as Iterable<AnyEntry>)
        if (entry.type === 'tool_result')
          settled.set(entry.payload.callId, (settled.get(entry.payload.callId) ?? 0) + 1);
      for (const [callId, n] of settled) if (n > 1) found.push(`child ${id}: ${callId} settled ${n} times`);
      for (const entryId of this.acked.get(id) ?? [])
        if (child.entry(entryId) === undefined) found.push(`child ${id}: acknowledged ${entryId} is missing`);
      outcomes.set(id, childOutcome(child));
      this.trace(`  child ${id} (call ${link?.task?.callId}): ${describe(childOutcome(child))}`);
    }
    for (const result of results) {
      if (result.type !== 'tool_result') continue;
      const { callId, outcome, content } = result.payload;
      const call = calls.get(callId);
      // A call whose arguments did not parse settles without an intent, and starts no child.
      if (call === undefined) continue;
      const named = /session ([0-9]{1,30}-[0-9a-f]{6})\)$/.exec(content)?.[1];
      if (named !== undefined && named !== call.childId)
        found.push(
          `task call ${callId} settled with child ${named}'s answer, and its intent names child ${call.childId}`,
        );
      if (outcome === 'ok') {
        const child = call.childId === null ? undefined : outcomes.get(call.childId);
        if (child?.kind !== 'answered' || !content.startsWith(`${child.text}\n\n`))
          found.push(
            `task call ${callId} settled ok with "${content.split('\n')[0]}", and its child's file stands at ${child?.kind ?? 'nothing'}`,
          );
        else if (child.text !== answerOf(call.brief))
          found.push(`task call ${callId}'s child answered "${child.text}" to another brief`);
        else this.answered.add(callId);
      } else if (content.trim() === '') found.push(`task call ${callId} settled ${outcome} without a reason`);
    }
    problems.push(...found.slice(0, 5).map((problem) => `after life ${life}: ${problem}`));
  }

  /** After the last lifetime: in every child's file, as in its parent's, nothing is pending and every intent settled once. */
  checkSettled(ops: FileOps, problems: string[]): void {
    for (const id of this.files) {
      const path = `${this.dir}/${id}.jsonl`;
      let child: SessionStore;
      try {
        child = this.replay(path, ops);
      } catch (error) {
        if (!isStorageError(error)) throw error;
        continue;
      }
      const found: string[] = [];
      checkSettled(child, found);
      problems.push(...found.map((problem) => `child ${id}: ${problem}`));
    }
  }

  /** The parent's header id and tree entries, from a read-only open of its file as the children's checks make it. */
  readParent(path: string, ops: FileOps): { headerId: string; entries: AnyEntry[] } {
    const parent = this.open(path, ops);
    try {
      return { headerId: parent.header.id, entries: [...parent.tree.all()] as AnyEntry[] };
    } finally {
      parent.close();
    }
  }

  /**
   * A read-only replay of the child file at `path`, closed (its state stays readable); the last one
   * again while the file holds the bytes it replayed. A replay of the same bytes gives the same
   * state (it reads nothing else: a read-only open takes no lock and writes nothing; simulate.ts's
   * ReadBack), and the checks only read it: a child that ended in one lifetime was replayed again
   * after each later one, unchanged.
   */
  private replay(path: string, ops: FileOps): SessionStore {
    const kept = this.replays.get(path);
    if (kept !== undefined && this.disk.holds(path, kept.bytes)) {
      this.replaysKept++;
      if (this.crossCheck !== null) {
        const fresh = this.open(path, ops);
        fresh.close();
        if (snapshotText(fresh) !== snapshotText(kept.store))
          this.crossCheck.push(`the kept replay of child ${path} differs from a fresh replay of the file`);
      }
      return kept.store;
    }
    this.replays.delete(path);
    const bytes = this.disk.read(path);
    const store = this.open(path, ops);
    store.close();
    if (bytes !== null) this.replays.set(path, { bytes, store });
    return store;
  }

  private open(path: string, ops: FileOps): SessionStore {
    return SessionStore.open(path, { clock: steppingClock(), random: seededRandom(8), readOnly: true, ops });
  }
}

function describe(outcome: ReturnType<typeof childOutcome>): string {
  if (outcome.kind === 'answered') return `answered "${outcome.text}"`;
  if (outcome.kind === 'failed') return `failed: ${outcome.reason}`;
  return outcome.kind;
}
