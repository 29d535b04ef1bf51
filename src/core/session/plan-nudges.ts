import type { ChatMessage } from '../provider/provider';
import type { LoopLimits } from './limits';
import { completedSteps, type TaskState } from './task-state';

export const TASK_STATE_HEADING = '[tole] Task state (a reminder of where you are; it is not a new request):';

/**
 * The replan gate: once `replanAfterRounds` tool rounds have gone by without the plan changing,
 * the model is asked, once, to bring its plan up to date (or write one). Null otherwise.
 * `planTool`: whether the model is offered update_plan (an agent profile may leave it out); if
 * not, it is asked for a PLAN: list in its text instead.
 */
export function replanNudge(
  state: TaskState,
  limits: Pick<LoopLimits, 'replanAfterRounds'>,
  planTool: boolean,
): string | null {
  if (state.roundsSincePlanChange !== limits.replanAfterRounds) return null;
  const rounds = limits.replanAfterRounds;
  const how = planTool
    ? 'Call update_plan with the steps of this task (mark the one you are on in_progress)'
    : 'Write the steps of this task as a PLAN: list, or a checklist with the finished ones checked';
  if (state.plan.length === 0) return `${rounds} tool rounds have gone by without a plan. ${how}, then go on.`;
  const update = planTool
    ? 'Call update_plan to bring it up to date (mark finished steps completed and the one you are on in_progress)'
    : 'Write it again as a checklist, the finished steps checked';
  return `Your plan has not changed in ${rounds} tool rounds. ${update}, or change the plan if this one is not working.`;
}

/**
 * Whether the request right after the newest round carries the task state: every
 * `reinjectPlanEveryRounds` rounds (not again for a prompt after the turn's answer).
 */
export function reinjectsAt(state: TaskState, limits: Pick<LoopLimits, 'reinjectPlanEveryRounds'>): boolean {
  return state.roundIsNewest && state.rounds > 0 && state.rounds % limits.reinjectPlanEveryRounds === 0;
}

/** The task state as the model reads it: the plan with its marks, the step in progress and the last action. */
export function taskStateText(state: TaskState): string {
  const lines = [TASK_STATE_HEADING];
  if (state.plan.length === 0) lines.push('Plan: none yet (keep one for a task of several steps).');
  else {
    const how = state.source === 'inferred' ? ' (read from the PLAN:/checklist lines of your text)' : '';
    lines.push(`Plan${how}, ${completedSteps(state)}/${state.plan.length} steps completed:`);
    for (const [i, step] of state.plan.entries()) lines.push(`${i + 1}. [${MARK[step.status]}] ${step.step}`);
    if (state.explanation) lines.push(`Why: ${state.explanation}`);
    lines.push(
      state.current === null
        ? 'Current step: none (every step is completed).'
        : `Current step: ${state.current + 1}. ${state.plan[state.current]!.step}`,
    );
  }
  const last = state.lastAction;
  if (last) {
    const result = last.result.replace(/\s+/g, ' ').trim();
    lines.push(`Last action: ${last.tool}${last.subject ? ` ${last.subject}` : ''} -> ${last.outcome}: ${result}`);
  }
  lines.push(`Tool rounds so far: ${state.rounds}; since the plan last changed: ${state.roundsSincePlanChange}.`);
  return lines.join('\n');
}

const MARK = { pending: ' ', in_progress: '>', completed: 'x' } as const;

/**
 * The messages with the task state put in just before the newest tool round (the assistant
 * message that opened it and its results), so that it sits next to what the model reads last
 * without coming between a call and its result. Built per request: never stored.
 */
export function withTaskState(messages: readonly ChatMessage[], text: string): ChatMessage[] {
  let at = messages.length;
  while (at > 0 && messages[at - 1]!.role === 'tool') at--;
  const opener = messages[at - 1];
  if (at < messages.length && opener?.role === 'assistant') at--;
  else at = messages.length;
  return [...messages.slice(0, at), { role: 'user', content: text }, ...messages.slice(at)];
}
