/**
 * What lies outside the simulated process and survives its crashes: the model (scripted from the
 * seed), the effects tools had on the world, and the user at the approval prompt.
 */
import { z } from 'zod';
import type { Approver, Decision } from '../../src/core/approval/approver';
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
import type { SimDisk } from './sim-disk';

const keyInput = z.object({ key: z.string() });
type KeyInput = z.infer<typeof keyInput>;

export const SIM_TOOLS = {
  sim_read: 'idempotent',
  sim_guarded: 'guarded',
  sim_never: 'never',
} as const satisfies Record<string, ReplaySafety>;
export type SimToolName = keyof typeof SIM_TOOLS;

export class SimWorld {
  /** `tool key` -> how many times its effect ran. */
  readonly effects = new Map<string, number>();
  private nextCall = 1;
  /** Model calls left in the turn now running; the last one answers with text. */
  private stepsLeft = 0;

  constructor(
    private readonly random: Random,
    private readonly disk: SimDisk,
  ) {}

  int(below: number): number {
    return Math.floor(this.random.float() * below);
  }

  chance(p: number): boolean {
    return this.random.float() < p;
  }

  startTurn(): void {
    this.stepsLeft = 1 + this.int(4);
  }

  effectCount(tool: string, key: string): number {
    return this.effects.get(`${tool} ${key}`) ?? 0;
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
        execute: async (input) => {
          // A dead process has no effects: the crash stops it before it can act.
          if (this.disk.hasCrashed) this.disk.crashNow('a tool ran after the crash');
          const id = `${name} ${input.key}`;
          this.effects.set(id, (this.effects.get(id) ?? 0) + 1);
          return this.chance(0.1)
            ? { ok: false, content: `simulated failure of ${input.key}` }
            : { ok: true, content: `did ${input.key}` };
        },
      };
      if (replay === 'guarded') {
        tool.prepare = async (input) => ({ key: input.key });
        tool.guard = async (input) => this.effectCount(name, input.key) > 0;
      }
      return tool;
    });
  }

  approver(): Approver {
    return {
      decide: async (): Promise<Decision> =>
        this.chance(0.85) ? { approved: true, by: 'user' } : { approved: false, by: 'user', reason: 'simulated no' },
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
