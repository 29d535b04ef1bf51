/**
 * What lies outside the simulated process and survives its crashes: the model (scripted from the
 * seed), the effects tools had on the world (a shared text file, and a real file in a real
 * workspace directory that tole's own edit_file changes; someone else also appends lines to
 * both), the workspace checkpoints, and the user at the approval prompt.
 *
 * A resume guard is the tool's own code: edit_file's real guard, and for the simulated guarded
 * tool one that looks for its own line in the shared file (never at how many times the
 * simulator saw it run), so a wrong guard runs an effect twice and fails the seed. Every effect
 * checks that its call's intent was durable on the simulated disk before it ran.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Approver, Decision } from '../../src/core/approval/approver';
import type { Checkpoints, RestorePlan } from '../../src/core/checkpoints/checkpoint-store';
import { type CheckpointRef, commitOnRef } from '../../src/core/checkpoints/ref-chain';
import type { Random } from '../../src/core/clock';
import { ProviderError } from '../../src/core/provider/errors';
import type {
  CompletionEvent,
  CompletionRequest,
  CompletionResult,
  Provider,
  ToolCallRequest,
} from '../../src/core/provider/provider';
import { editFileTool, type EditFileInput } from '../../src/core/tools/builtin/edit-file';
import { sha256Hex } from '../../src/core/tools/builtin/file-io';
import { writeFileTool, type WriteFileInput } from '../../src/core/tools/builtin/write-file';
import type { AnyTool, ReplaySafety, Tool } from '../../src/core/tools/tool';
import type { WorldPlant } from './plants';
import type { SimDisk } from './sim-disk';

const keyInput = z.object({ key: z.string() });
type KeyInput = z.infer<typeof keyInput>;
/** The user's shell's input, made once: building it for each lifetime's registry was 1.5% of a shard's profile. */
const commandInput = z.object({ command: z.string() });

export const SIM_TOOLS = {
  sim_read: 'idempotent',
  sim_guarded: 'guarded',
  sim_never: 'never',
} as const satisfies Record<string, ReplaySafety>;
export type SimToolName = keyof typeof SIM_TOOLS;

/** The real edit_file runs in the schedule's workspace, on this file of anchor lines. */
export const EDITED_FILE = 'notes.txt';
/** The real write_file replaces this file whole with a line naming its call. */
export const WRITTEN_FILE = 'draft.txt';
const ANCHORS = 40;
const MODEL_TOOLS = [...(Object.keys(SIM_TOOLS) as SimToolName[]), 'edit_file', 'write_file'] as const;
/** What a parent's model calls in a schedule with sub-agents: `task` beside the rest. */
const PARENT_TOOLS = [...MODEL_TOOLS, 'task', 'task'] as const;
type ModelTool = (typeof PARENT_TOOLS)[number];

/**
 * The agent profile sub-agents run with: the simulated tools only. tole's own file tools work on
 * real files with asynchronous I/O, and children run side by side: their interleaving would
 * depend on the machine, and a seed must replay the same schedule.
 */
export const CHILD_PROFILE = 'worker';
export const CHILD_TOOLS: readonly SimToolName[] = Object.keys(SIM_TOOLS) as SimToolName[];
/** A child's first message: its brief names the parent's call, and its script is read from it. */
const BRIEF = 'brief for ';

/** What the guarded tool prepares: its own line. */
interface PreparedLine {
  readonly line: string;
}

export class SimWorld {
  /** `tool key` -> how many times its effect ran. */
  readonly effects = new Map<string, number>();
  /** Problems an effect saw as it ran (an effect whose intent was not durable). */
  readonly problems: string[] = [];
  /** The shared text file the guarded tool appends its lines to; someone else appends too. */
  sharedFile = '';
  /** The sessions' directory: effects check their intent is durable in one of its files (a child's calls are in the child's). */
  sessionDir: string | null = null;
  /** Whether the parent's model also calls `task` (a schedule with sub-agents). */
  children = false;
  /** Whether the user runs !commands between turns in this schedule. */
  userShells = false;
  /** Checkpoint id -> the edited file as it was taken. */
  private readonly snapshots = new Map<string, string>();
  /** The checkpoint chain in tole's git directory, which every tole on the workspace moves: commit id -> its parents. */
  private readonly commits = new Map<string, readonly string[]>();
  private refHead: string | null = null;
  /** Checkpoints a tole (this one or another on the workspace) was told were taken: each must stay on the chain. */
  private readonly taken: string[] = [];
  /** Checkpoints taken, by this tole and by the other. */
  readonly checkpointCounts = { own: 0, other: 0, lostSwaps: 0 };
  /** Effects a planted tool ran while preparing: call id -> its output. */
  private readonly ranAtPrepare = new Map<string, { ok: boolean; content: string }>();
  /** Effects still running when their process crashed: they finish in the world all the same. */
  private readonly inFlight: Promise<unknown>[] = [];
  private nextCall = 1;
  private otherLines = 0;
  /** Model calls left in the turn now running; the last one answers with text. */
  private stepsLeft = 0;

  constructor(
    private readonly random: Random,
    private readonly disk: SimDisk,
    private readonly planted: WorldPlant = null,
    /** The real workspace directory (its real path) that edit_file works in. */
    private readonly workspace: string,
  ) {
    const anchors = Array.from({ length: ANCHORS }, (_, i) => `anchor ${i + 1}\n`).join('');
    writeFileSync(join(workspace, EDITED_FILE), anchors);
    writeFileSync(join(workspace, WRITTEN_FILE), 'first draft\n');
  }

  /** Someone else (an editor, a hook, another tool) appends a line to the shared file and to the edited and written ones. */
  otherWriter(): void {
    const line = `other ${++this.otherLines}\n`;
    this.sharedFile += line;
    appendFileSync(join(this.workspace, EDITED_FILE), line);
    appendFileSync(join(this.workspace, WRITTEN_FILE), line);
  }

  /** The edited file as it is now. */
  editedFile(): string {
    return readFileSync(join(this.workspace, EDITED_FILE), 'utf8');
  }

  /** Waits for the effects a crash left running (a dead process's write still lands, or fails, on its own). */
  async drain(): Promise<void> {
    await Promise.allSettled(this.inFlight.splice(0));
  }

  int(below: number): number {
    return Math.floor(this.random.float() * below);
  }

  chance(p: number): boolean {
    return this.random.float() < p;
  }

  startTurn(): void {
    this.stepsLeft = 1 + this.int(4);
  }

  tools(): AnyTool[] {
    const edit = this.fileTool(editFileTool);
    if (this.planted === 'guard-whole-file')
      edit.guard = async (_input, prepared) => sha256Hex(this.editedFile()) === (prepared as { sha256: string }).sha256;
    const write = this.fileTool(writeFileTool);
    if (this.planted === 'write-guard-two-states')
      write.guard = async (_input, prepared) =>
        sha256Hex(this.file(WRITTEN_FILE)) === (prepared as { sha256: string }).sha256;
    return [...this.simTools(), edit, write, this.userShell()];
  }

  /**
   * The shell a `!command` runs through (named as tole's bash tool, whose call path `runShell`
   * takes): never replayed, as bash is, its effect counted as the others are after checking the
   * intent is durable. The model never calls it.
   */
  private userShell(): Tool<{ command: string }> {
    return {
      name: 'bash',
      description: 'simulated shell for !commands',
      inputSchema: commandInput,
      replay: 'never',
      tier: 'hot',
      declaredRisk: 'Write',
      assess: () => ({ risk: 'Write', reason: 'a simulated !command' }),
      subject: (input) => input.command,
      execute: async (input, ctx) => {
        if (this.disk.hasCrashed) this.disk.crashNow('a !command ran after the crash');
        if (!this.intentDurable(ctx.callId))
          this.problems.push(`the !command ${input.command} ran before its intent was durable`);
        const id = `bash ${input.command}`;
        this.effects.set(id, (this.effects.get(id) ?? 0) + 1);
        return { ok: true, content: `ran ${input.command}` };
      },
    };
  }

  /**
   * One of tole's own file tools (edit_file, write_file), its prepare and guard untouched (but for
   * a planted guard); its effect checks the intent first and is counted, and finishes even when
   * the process dies.
   */
  private fileTool<I extends EditFileInput | WriteFileInput>(real: Tool<I>): Tool<I> {
    return {
      ...real,
      inputSchema: real.inputSchema,
      execute: async (input, ctx) => {
        if (this.disk.hasCrashed) this.disk.crashNow('a tool ran after the crash');
        if (!this.intentDurable(ctx.callId))
          this.problems.push(`the effect of ${real.name} ${ctx.callId} ran before its intent was durable`);
        const id = `${real.name} ${ctx.callId}`;
        this.effects.set(id, (this.effects.get(id) ?? 0) + 1);
        const running = real.execute(input, ctx);
        this.inFlight.push(running);
        return running;
      },
    };
  }

  /** A file of the workspace as it is now. */
  file(name: string): string {
    return readFileSync(join(this.workspace, name), 'utf8');
  }

  private simTools(): Tool<KeyInput>[] {
    return (Object.keys(SIM_TOOLS) as SimToolName[]).map((name) => {
      const replay = SIM_TOOLS[name];
      const tool: Tool<KeyInput> = {
        name,
        description: `simulated ${replay} effect`,
        inputSchema: keyInput,
        replay,
        tier: 'hot',
        declaredRisk: replay === 'idempotent' ? 'ReadOnly' : 'Write',
        assess: () => ({
          risk: replay === 'idempotent' ? 'ReadOnly' : 'Write',
          reason: `a simulated ${replay} effect`,
        }),
        subject: (input) => input.key,
        execute: async (input, ctx) => this.ranAtPrepare.get(ctx.callId) ?? this.effect(name, input.key, ctx.callId),
      };
      if (replay === 'guarded') {
        tool.prepare = async (input, ctx) => {
          const line = `done ${input.key}\n`;
          const prepared: PreparedLine = { line };
          if (this.planted === 'effect-at-prepare')
            this.ranAtPrepare.set(ctx.callId, this.effect(name, input.key, ctx.callId));
          return prepared;
        };
        tool.guard = async (_input, prepared) =>
          this.sharedFile.split('\n').includes((prepared as PreparedLine).line.slice(0, -1));
      }
      if (replay === 'never' && this.planted === 'effect-at-prepare') {
        tool.prepare = async (input, ctx) => {
          this.ranAtPrepare.set(ctx.callId, this.effect(name, input.key, ctx.callId));
          return undefined;
        };
      }
      return tool;
    });
  }

  /** A tool's effect: counted for the exactly-once check, and for the guarded tool a line in the shared file. */
  private effect(name: SimToolName, key: string, callId: string): { ok: boolean; content: string } {
    // A dead process has no effects: the crash stops it before it can act.
    if (this.disk.hasCrashed) this.disk.crashNow('a tool ran after the crash');
    if (!this.intentDurable(callId))
      this.problems.push(`the effect of ${name} ${key} ran before its intent was durable`);
    const id = `${name} ${key}`;
    this.effects.set(id, (this.effects.get(id) ?? 0) + 1);
    if (SIM_TOOLS[name] === 'guarded') this.sharedFile += `done ${key}\n`;
    return this.chance(0.1)
      ? { ok: false, content: `simulated failure of ${key}` }
      : { ok: true, content: `did ${key}` };
  }

  /** Whether the durable bytes of a session file (what a crash now keeps: the parent's or a child's) hold the call's intent. */
  private intentDurable(callId: string): boolean {
    if (this.sessionDir === null) return false;
    const intent = `"type":"tool_intent","payload":{"callId":"${callId}"`;
    return this.disk
      .fileNames()
      .some((path) => path.startsWith(`${this.sessionDir}/`) && this.disk.durableOf(path)?.includes(intent) === true);
  }

  /** The edited file as checkpoint `id` holds it. */
  checkpointed(id: string): string | undefined {
    return this.snapshots.get(id);
  }

  /**
   * The workspace checkpoints, in memory: each take keeps the edited file under a new id (and
   * sometimes someone else writes to the files meanwhile, between a call's preparing and its
   * effect); a restore writes it back, after calling `midway` where a real one has made its
   * removals and not yet its writes (the during-restore fault point).
   */
  checkpoints(): Checkpoints {
    // The newest checkpoint this tole made: a new process starts without one, as the real one does.
    let newest: string | null = null;
    const ref = this.checkpointRef();
    const plan = (id: string): RestorePlan => {
      const held = this.snapshots.get(id);
      if (held === undefined) throw new Error(`no checkpoint ${id}`);
      const changed = held === this.editedFile() ? [] : [EDITED_FILE];
      const bytes = { added: [], changed: changed.map((path) => Buffer.from(path)), removed: [] };
      return { checkpoint: id, added: [], changed, removed: [], leftOut: [], bytes };
    };
    const stand = {
      enabled: true,
      offReason: null,
      has: async (id: string) => this.snapshots.has(id),
      // Each take here holds the whole workspace (one file), as a scan does: what the calls name changes nothing.
      noteChanges: () => {},
      rescan: () => {},
      plan: async (id: string) => plan(id),
      take: async () => {
        if (this.chance(0.3)) this.otherWriter();
        const id = await commitOnRef(ref, this.editedFile(), 'checkpoint', newest);
        newest = id;
        this.taken.push(id);
        this.checkpointCounts.own++;
        this.checkChain();
        return { ok: true as const, id, leftOut: [] };
      },
      restore: async (id: string, midway?: () => void) => {
        const planned = plan(id);
        midway?.();
        if (this.planted !== 'restore-writes-nothing')
          writeFileSync(join(this.workspace, EDITED_FILE), this.snapshots.get(id)!);
        return planned;
      },
    };
    return stand as unknown as Checkpoints;
  }

  /**
   * The chain's ref with git's compare-and-swap (`update-ref REF NEW OLD`), in memory. Sometimes
   * another tole on the workspace takes a checkpoint between this one's commit and its swap.
   */
  private checkpointRef(): CheckpointRef {
    const make = (tree: string, parents: readonly string[]): string => {
      const id = `cp_${this.snapshots.size + 1}`;
      this.snapshots.set(id, tree);
      this.commits.set(id, parents);
      return id;
    };
    return {
      commit: async (tree, parents) => {
        const id = make(tree, parents);
        if (this.chance(0.1)) {
          // Another tole's checkpoint, moved on by its own (atomic) compare-and-swap.
          this.refHead = make(this.editedFile(), this.refHead === null ? [] : [this.refHead]);
          this.taken.push(this.refHead);
          this.checkpointCounts.other++;
        }
        return id;
      },
      swap: async (next, expected) => {
        if (this.refHead !== expected && this.planted !== 'ref-swap-without-cas') {
          this.checkpointCounts.lostSwaps++;
          return { ok: false, error: new Error(`the ref is at ${this.refHead}, not ${expected}`) };
        }
        this.refHead = next;
        return { ok: true };
      },
      head: async () => this.refHead,
    };
  }

  /** Every checkpoint any tole was told it took is still on the chain (reachable from the ref). */
  private checkChain(): void {
    const reachable = new Set<string>();
    const stack = this.refHead === null ? [] : [this.refHead];
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      if (reachable.has(id)) continue;
      reachable.add(id);
      stack.push(...(this.commits.get(id) ?? []));
    }
    const lost = this.taken.filter((id) => !reachable.has(id));
    if (lost.length > 0) this.problems.push(`checkpoints ${lost.join(', ')} fell off the checkpoint chain`);
  }

  /**
   * A write replaces its file with a line naming its call (run again over someone else's line,
   * it takes that line away). An edit puts a line naming its call under an anchor line, which
   * stays: run twice, the line is there twice.
   */
  private argumentsOf(name: ModelTool, id: string): string {
    if (name === 'task') return JSON.stringify({ prompt: `${BRIEF}${id}`, agent: CHILD_PROFILE });
    if (name === 'write_file') return JSON.stringify({ path: WRITTEN_FILE, content: `written by ${id}\n` });
    if (name !== 'edit_file') return JSON.stringify({ key: id });
    const anchor = `anchor ${1 + this.int(ANCHORS)}\n`;
    return JSON.stringify({ path: EDITED_FILE, old_text: anchor, new_text: `${anchor}edit ${id}\n` });
  }

  approver(): Approver {
    return {
      decide: async (): Promise<Decision> => {
        // While the user decides, someone else may write to the file the call will change.
        if (this.chance(0.3)) this.otherWriter();
        return this.chance(0.85)
          ? { approved: true, by: 'user' }
          : { approved: false, by: 'user', reason: 'simulated no' };
      },
    };
  }

  /**
   * A sub-agent's model, told apart by its brief: it makes one or two rounds of simulated calls
   * (as many as its brief's call number says), counted from the request alone, so that a child
   * resumed after a crash goes on where its file stands; then it answers, naming its brief.
   */
  private childReply(brief: string, request: CompletionRequest): { text: string; toolCalls: ToolCallRequest[] } {
    const rounds = request.messages.filter((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0).length;
    const planned = 1 + (Number(brief.replace(/\D/g, '')) % 2);
    if (rounds >= planned) return { text: answerOf(brief), toolCalls: [] };
    const toolCalls: ToolCallRequest[] = [];
    for (let i = 1 + this.int(2); i > 0; i--) {
      const id = `call_${this.nextCall++}`;
      toolCalls.push({ id, name: CHILD_TOOLS[this.int(CHILD_TOOLS.length)]!, arguments: JSON.stringify({ key: id }) });
    }
    return { text: `calling ${toolCalls.length} tools`, toolCalls };
  }

  /** The parent's model: 1..3 calls of any tool (sometimes with broken arguments) while its turn's steps last, then an answer. */
  private parentReply(): { text: string; toolCalls: ToolCallRequest[] } {
    this.stepsLeft--;
    const toolCalls: ToolCallRequest[] = [];
    if (this.stepsLeft > 0) {
      const tools = this.children ? PARENT_TOOLS : MODEL_TOOLS;
      // Some replies with sub-agents start only children, side by side.
      const onlyTasks = this.children && this.chance(0.3);
      for (let i = 1 + this.int(3); i > 0; i--) {
        const id = `call_${this.nextCall++}`;
        const name = onlyTasks ? 'task' : tools[this.int(tools.length)]!;
        toolCalls.push({ id, name, arguments: this.chance(0.03) ? '{"key": ' : this.argumentsOf(name, id) });
      }
    }
    return {
      text: toolCalls.length > 0 ? `calling ${toolCalls.length} tools` : `answer ${this.int(1000)} ✓`,
      toolCalls,
    };
  }

  provider(model: string): Provider {
    return {
      name: 'sim',
      complete: async (
        request: CompletionRequest,
        onEvent: (event: CompletionEvent) => void,
      ): Promise<CompletionResult> => {
        const usage = {
          inputTokens: 10 + this.int(100),
          outputTokens: 1 + this.int(50),
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
        };
        if (this.chance(0.05)) {
          onEvent({
            type: 'attempt',
            report: { model, attempt: 1, outcome: 'transient', usage: null, latencyMs: 5, error: 'simulated 503' },
          });
          throw new ProviderError({
            kind: 'transient',
            message: 'simulated: the server answered 503',
            hint: 'try again',
          });
        }
        const first = request.messages.find((m) => m.role === 'user')?.content ?? '';
        const { text, toolCalls } = first.startsWith(BRIEF) ? this.childReply(first, request) : this.parentReply();
        onEvent({ type: 'text', delta: text });
        onEvent({ type: 'attempt', report: { model, attempt: 1, outcome: 'ok', usage, latencyMs: 5 } });
        return {
          model,
          text,
          reasoning: '',
          toolCalls,
          finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
          usage,
        };
      },
    };
  }
}

/** The final answer of the sub-agent with this brief. */
export function answerOf(brief: string): string {
  return `report on ${brief.slice(BRIEF.length)}`;
}
