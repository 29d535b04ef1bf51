import type { z } from 'zod';
import { lazySchema } from '../lazy';
import type { Tool, ToolOutput } from '../tools/tool';
import type { SubAgentLimits } from './sub-agent-limits';
import { TASK_TOOL } from './task-tool-name';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    prompt: z
      .string()
      .min(1)
      .describe(
        'The brief: everything the sub-agent needs to know and what to report back. It sees nothing else of this conversation.',
      ),
    description: z.string().max(200).optional().describe('A short title for the task (3 to 5 words).'),
    agent: z
      .string()
      .min(1)
      .optional()
      .describe("The agent profile to run it with (its prompt, tools and model); left out, this agent's own."),
  }),
);

type TaskInput = z.infer<ReturnType<typeof inputSchema>>;

/** The first line of the title (or of the brief), cut to fit a line of the screen. */
function subjectOf(input: TaskInput): string {
  const title = (input.description ?? input.prompt).split('\n')[0]!.trim();
  const short = title.length > 80 ? `${title.slice(0, 79)}…` : title;
  return input.agent ? `${input.agent}: ${short}` : short;
}

/** What the task tool needs of the sub-agents (SubAgents): their limits, a new child's id, and a child's run. */
interface TaskRunner {
  readonly limits: Pick<SubAgentLimits, 'maxParallelTasks'>;
  newChildId(): string;
  run(request: TaskInput, callId: string, childId: unknown, signal: AbortSignal): Promise<ToolOutput>;
}

/**
 * `task`: the model hands a brief to a sub-agent, a session of its own that runs the same loop
 * and reports back its final answer. The call itself changes nothing (ReadOnly): every call the
 * child makes is asked about, confined and checkpointed as the parent's would be. Its session id
 * is made in `prepare`, so it is in the committed intent before the child's file exists; run
 * again on resume, the child goes on from its own file (`idempotent`).
 */
export function taskTool(agents: TaskRunner): Tool<TaskInput> {
  return {
    name: TASK_TOOL,
    description:
      'Start a sub-agent with a brief: it works on its own, with its own context (this conversation is not ' +
      "passed on), and its final answer comes back as this call's result. Several task calls in one reply run " +
      `side by side (at most ${agents.limits.maxParallelTasks} at once). Use it for a self-contained piece of ` +
      'work: research, a review, a change in one area. Optionally name an agent profile in "agent".',
    get inputSchema() {
      return inputSchema();
    },
    replay: 'idempotent',
    tier: 'hot',
    declaredRisk: 'ReadOnly',
    maxParallel: agents.limits.maxParallelTasks,
    assess: () => ({
      risk: 'ReadOnly',
      reason: "starts a sub-agent: each of its own calls is approved as this session's would be",
    }),
    subject: subjectOf,
    prepare: async () => ({ sessionId: agents.newChildId() }),
    execute: (input, ctx) =>
      agents.run(input, ctx.callId, (ctx.prepared as { sessionId?: unknown } | undefined)?.sessionId, ctx.signal),
  };
}
