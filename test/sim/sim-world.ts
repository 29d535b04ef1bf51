/**
 * What lies outside the simulated process and survives its crashes: the model (scripted from the
 * seed), the effects tools had on the world (a shared text file that someone else also writes
 * to), the workspace checkpoints, and the user at the approval prompt.
 *
 * The guarded tool's resume guard is its own code, as a real tool's is: it looks for its own
 * line in the shared file (never at how many times the simulator saw it run), so a wrong guard
 * runs an effect twice and fails the seed. Every effect checks that its call's intent was
 * durable on the simulated disk before it ran.
 */
import { z } from 'zod';
import type { Approver, Decision } from '../../src/core/approval/approver';
import type { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';
import type { Random } from '../../src/core/clock';
import { ProviderError } from '../../src/core/provider/errors';
import type {
  CompletionEvent,
  CompletionRequest,
  CompletionResult,
  Provider,
  ToolCallRequest,
} from '../../src/core/provider/provider';
import type { ReplaySafety, Tool } from '../../src/core/tools/tool';
import type { WorldPlant } from './plants';
import type { SimDisk } from './sim-disk';

const keyInput = z.object({ key: z.string() });
type KeyInput = z.infer<typeof keyInput>;

export const SIM_TOOLS = {
  sim_read: 'idempotent',
  sim_guarded: 'guarded',
  sim_never: 'never',
} as const satisfies Record<string, ReplaySafety>;
export type SimToolName = keyof typeof SIM_TOOLS;

/** What the guarded tool prepares: its own line, and the whole file it expects after the effect. */
interface PreparedLine {
  readonly line: string;
  readonly whole: string;
}

export class SimWorld {
  /** `tool key` -> how many times its effect ran. */
  readonly effects = new Map<string, number>();
  /** Problems an effect saw as it ran (an effect whose intent was not durable). */
  readonly problems: string[] = [];
  /** The shared text file the guarded tool appends its lines to; someone else appends too. */
  sharedFile = '';
  /** The session file, once created: effects check their intent is durable in it. */
  sessionPath: string | null = null;
  /** Checkpoint ids taken, in order. */
  readonly checkpointsTaken: string[] = [];
  /** Effects a planted tool ran while preparing: call id -> its output. */
  private readonly ranAtPrepare = new Map<string, { ok: boolean; content: string }>();
  private nextCall = 1;
  private otherLines = 0;
  /** Model calls left in the turn now running; the last one answers with text. */
  private stepsLeft = 0;

  constructor(
    private readonly random: Random,
    private readonly disk: SimDisk,
    private readonly planted: WorldPlant = null,
  ) {}

  /** Someone else (an editor, a hook, another tool) appends a line to the shared file. */
  otherWriter(): void {
    this.sharedFile += `other ${++this.otherLines}\n`;
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

  tools(): Tool<KeyInput>[] {
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
          const prepared: PreparedLine = { line, whole: this.sharedFile + line };
          if (this.planted === 'effect-at-prepare')
            this.ranAtPrepare.set(ctx.callId, this.effect(name, input.key, ctx.callId));
          return prepared;
        };
        tool.guard = async (_input, prepared) => {
          const { line, whole } = prepared as PreparedLine;
          if (this.planted === 'guard-whole-file') return this.sharedFile === whole;
          return this.sharedFile.split('\n').includes(line.slice(0, -1));
        };
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

  /** Whether the durable bytes of the session file (what a crash now keeps) hold the call's intent. */
  private intentDurable(callId: string): boolean {
    const durable = this.sessionPath === null ? null : this.disk.durableOf(this.sessionPath);
    return durable?.includes(`"type":"tool_intent","payload":{"callId":"${callId}"`) === true;
  }

  /**
   * The workspace checkpoints, in memory: each take gets a new id (and sometimes someone else
   * writes to the shared file meanwhile, between the call's preparing and its effect).
   */
  checkpoints(): Checkpoints {
    const taken = this.checkpointsTaken;
    const stand = {
      enabled: true,
      offReason: null,
      take: async () => {
        if (this.chance(0.3)) this.otherWriter();
        const id = `cp_${taken.length + 1}`;
        taken.push(id);
        return { ok: true as const, id, leftOut: [] };
      },
    };
    return stand as unknown as Checkpoints;
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

  provider(model: string): Provider {
    return {
      name: 'sim',
      complete: async (
        _request: CompletionRequest,
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
        this.stepsLeft--;
        const toolCalls: ToolCallRequest[] = [];
        if (this.stepsLeft > 0) {
          const names = Object.keys(SIM_TOOLS) as SimToolName[];
          for (let i = 1 + this.int(3); i > 0; i--) {
            const id = `call_${this.nextCall++}`;
            const args = this.chance(0.03) ? '{"key": ' : JSON.stringify({ key: id });
            toolCalls.push({ id, name: names[this.int(names.length)]!, arguments: args });
          }
        }
        const text = toolCalls.length > 0 ? `calling ${toolCalls.length} tools` : `answer ${this.int(1000)} ✓`;
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
