import type { ChatMessage } from '../provider/provider';
import type { AnyEntry } from '../tree/entry-types';
import { wholeList } from '../tree/lazy-list';
import { contextView, renderView } from './context';
import type { LoopLimits } from './limits';
import { reinjectsAt, taskStateText, withTaskState } from './plan-nudges';
import { taskStateOf } from './task-state';

/**
 * The messages of a model call from the end of `path`: the conversation as `renderView` gives
 * it, plus the task state where it belongs. Behind a summary a plan's task state is the cold zone
 * and goes right after the summary on every call (the plan calls it replaced are no longer sent);
 * every `reinjectPlanEveryRounds` tool rounds it goes again just before the newest round. Built
 * per request, never stored in the tree.
 */
export function requestMessages(
  systemPrompt: string,
  read: readonly AnyEntry[],
  limits: Pick<LoopLimits, 'reinjectPlanEveryRounds'>,
): ChatMessage[] {
  const path = wholeList(read);
  const view = contextView(path);
  const messages = renderView(systemPrompt, view);
  const state = taskStateOf(path);
  const cold = view.summary !== null && state.plan.length > 0;
  const withCold = cold ? afterSummary(messages, taskStateText(state)) : messages;
  return reinjectsAt(state, limits) ? withTaskState(withCold, taskStateText(state)) : withCold;
}

/** The system prompt and the summary first, then the task state, then the rest. */
function afterSummary(messages: readonly ChatMessage[], text: string): ChatMessage[] {
  return [...messages.slice(0, 2), { role: 'user', content: text }, ...messages.slice(2)];
}
