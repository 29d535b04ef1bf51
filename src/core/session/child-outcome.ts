import { machineState } from '../machine/machine';
import type { SessionStore } from '../storage/session-store';
import type { AnyEntry } from '../tree/entry-types';
import { currentHead } from './cursor';

/**
 * Where a sub-agent's session stands, read from its own file alone (so that a crash anywhere
 * is resumed from what was committed): not started (no prompt yet), cut short mid-turn (a
 * crash, or a resume that closed the turn and stopped before going on), finished with an
 * answer, or ended without one (a limit, a provider error, an abort) and why.
 */
export type ChildOutcome =
  | { readonly kind: 'not-started' }
  | { readonly kind: 'cut-short'; readonly headEntryId: string | null }
  | { readonly kind: 'answered'; readonly text: string }
  | { readonly kind: 'failed'; readonly reason: string };

export function childOutcome(store: SessionStore): ChildOutcome {
  const hasPrompt = [...store.tree.all()].some((entry) => entry.type === 'user');
  if (!hasPrompt) return { kind: 'not-started' };
  const { pc } = machineState(store);
  const headId = currentHead(store).entryId;
  if (pc !== 'Idle' && pc !== 'Final') return { kind: 'cut-short', headEntryId: headId };
  const head = headId === null ? undefined : store.entry(headId);
  if (head === undefined) return { kind: 'failed', reason: 'its session ended without an answer' };
  return endOf(head);
}

/**
 * The model calls a sub-agent's turn has made, read from its file: each answer the model gave is
 * one step (a child's session is its one turn, whatever crashes and resumes cut it into), so that
 * a child going on after a crash counts them against its `maxSteps`.
 */
export function childStepsTaken(store: SessionStore): number {
  let steps = 0;
  for (const entry of store.tree.all()) if (entry.type === 'assistant') steps++;
  return steps;
}

function endOf(head: AnyEntry): ChildOutcome {
  if (head.type === 'assistant') {
    const { text, refusal, toolCalls, finishReason } = head.payload;
    if (toolCalls.length === 0 && finishReason !== 'interrupted' && finishReason !== 'error') {
      const answer = text === '' && refusal ? refusal : text;
      return { kind: 'answered', text: answer };
    }
    return { kind: 'failed', reason: `its answer was cut short (${finishReason ?? 'no reason given'})` };
  }
  if (head.type === 'notice') {
    // A resume closed the turn a crash cut short, and tole stopped again before the child went on.
    if (head.payload.source === 'resume') return { kind: 'cut-short', headEntryId: head.id };
    return { kind: 'failed', reason: head.payload.text };
  }
  return { kind: 'failed', reason: `its session ended on a ${head.type} entry, without an answer` };
}
