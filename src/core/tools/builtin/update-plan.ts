import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import type { Tool, ToolOutput } from '../tool';

export const UPDATE_PLAN_TOOL = 'update_plan';
const PLAN_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export interface PlanStep {
  readonly step: string;
  readonly status: PlanStatus;
}

/** Limits on what one plan holds: the plan goes back to the model and onto the screen. */
export const PLAN_MAX_STEPS = 50;
export const PLAN_STEP_MAX_CHARS = 300;
const PLAN_EXPLANATION_MAX_CHARS = 2000;

const inputSchema = lazySchema((z) =>
  z
    .strictObject({
      explanation: z
        .string()
        .max(PLAN_EXPLANATION_MAX_CHARS)
        .optional()
        .describe('Why the plan is what it is, or what changed since the last one.'),
      plan: z
        .array(
          z.strictObject({
            step: z.string().trim().min(1).max(PLAN_STEP_MAX_CHARS).describe('One step, a short sentence.'),
            status: z.enum(PLAN_STATUSES),
          }),
        )
        .min(1)
        .max(PLAN_MAX_STEPS)
        .describe('The whole plan, in order: every call replaces the previous plan.'),
    })
    .refine((input) => input.plan.filter((s) => s.status === 'in_progress').length <= 1, {
      message: 'at most one step may be in_progress at a time: mark the others pending or completed',
      path: ['plan'],
    }),
);

type UpdatePlanInput = z.infer<ReturnType<typeof inputSchema>>;

export const updatePlanTool: Tool<UpdatePlanInput> = {
  name: UPDATE_PLAN_TOOL,
  description:
    'Set or update your plan for the task: the whole list of steps, each pending, in_progress or completed ' +
    '(at most one in_progress). Call it when you start a task of several steps and whenever a step starts or ' +
    'finishes; the user sees the plan, and it is given back to you during long tasks.',
  get inputSchema() {
    return inputSchema();
  },
  replay: 'idempotent',
  tier: 'hot',
  declaredRisk: 'ReadOnly',
  assess: () => ({ risk: 'ReadOnly', reason: 'records the plan' }),
  workspaceEffect: { kind: 'none' },
  subject: (input) => planSubject(input.plan),
  execute: async (input): Promise<ToolOutput> => ({
    ok: true,
    content: planAccepted(input.plan),
    display: { kind: 'text', text: planChecklist(input.plan, input.explanation) },
  }),
};

const CHECK_MARKS: Readonly<Record<PlanStatus, string>> = { completed: '[x]', in_progress: '[>]', pending: '[ ]' };

/** What the transcript shows of the call: the steps with their marks, and why. */
function planChecklist(plan: readonly PlanStep[], explanation?: string): string {
  const steps = plan.map((s) => `${CHECK_MARKS[s.status]} ${s.step}`);
  return [...(explanation ? [explanation] : []), ...steps].join('\n');
}

/** "step 2/5: write the tests" (or "5 steps, all completed"): the call's one line. */
export function planSubject(plan: readonly PlanStep[]): string {
  const done = plan.filter((s) => s.status === 'completed').length;
  const active = plan.findIndex((s) => s.status === 'in_progress');
  if (active !== -1) return `step ${active + 1}/${plan.length}: ${plan[active]!.step}`;
  const steps = `${plan.length} step${plan.length === 1 ? '' : 's'}`;
  return done === plan.length ? `${steps}, all completed` : `${steps}, ${done} completed`;
}

function planAccepted(plan: readonly PlanStep[]): string {
  return `Plan updated (${planSubject(plan)}).`;
}

/**
 * A plan read back from a committed update_plan intent. The intent's input was checked when the
 * call was made; a file edited by hand since is read as no plan rather than trusted.
 */
export function planFromInput(input: unknown): { plan: PlanStep[]; explanation: string | null } | null {
  if (typeof input !== 'object' || input === null) return null;
  const { plan, explanation } = input as { plan?: unknown; explanation?: unknown };
  if (!Array.isArray(plan) || plan.length === 0 || plan.length > PLAN_MAX_STEPS) return null;
  const steps: PlanStep[] = [];
  for (const item of plan) {
    if (typeof item !== 'object' || item === null) return null;
    const { step, status } = item as { step?: unknown; status?: unknown };
    if (typeof step !== 'string' || step.trim() === '' || !PLAN_STATUSES.includes(status as PlanStatus)) return null;
    steps.push({ step: step.trim().slice(0, PLAN_STEP_MAX_CHARS), status: status as PlanStatus });
  }
  if (steps.filter((s) => s.status === 'in_progress').length > 1) return null;
  return { plan: steps, explanation: typeof explanation === 'string' ? explanation : null };
}
