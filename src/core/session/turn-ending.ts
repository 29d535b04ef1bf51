import type { HookOutcome } from '../hooks/hook-runner';
import { CasConflictError, type MachineState } from '../machine/machine';
import { isStorageError } from '../storage/errors';
import type { DraftRecord } from '../storage/records';
import { AppendBatch } from './cursor';
import type { TurnOutcome } from './events';
import { keepLedger, type ModelFailure } from './model-call';
import { addNotices, emitNotices, noticesOf, runHooks } from './turn-hooks';
import type { TurnScope } from './turn-scope';

export interface TurnResult {
  readonly outcome: TurnOutcome;
  readonly text: string;
}

/** Ends the turn with a loop notice (a limit, a block, an interruption) saying `text`. */
export function finishTurn(scope: TurnScope, state: MachineState, outcome: TurnOutcome, text: string): TurnResult {
  const { deps, sandwich, emit } = scope;
  const batch = new AppendBatch(deps.store);
  batch.entry('notice', { level: outcome === 'aborted' ? 'info' : 'warn', source: 'loop', text });
  sandwich.move(state, 'Final', batch.build());
  emit({ type: 'notice', level: 'warn', text });
  emit({ type: 'turn-ended', outcome, text });
  return { outcome, text };
}

/**
 * Ends the turn on a failed model call, keeping what streamed before it. `ran`: the turnError
 * hook's outcome when it already ran for this failure (undefined: run it here).
 */
export async function failTurn(
  scope: TurnScope,
  state: MachineState,
  reply: ModelFailure,
  signal: AbortSignal,
  ran?: HookOutcome | null,
): Promise<TurnResult> {
  const { deps, model, sandwich, emit } = scope;
  const { error, partial } = reply;
  const hook =
    error.kind === 'aborted'
      ? null
      : ran !== undefined
        ? ran
        : await runHooks(
            deps,
            model,
            'turnError',
            { error: error.message, error_kind: error.kind },
            { failClosed: false, signal },
          );
  const batch = new AppendBatch(deps.store);
  if (partial)
    batch.entry('assistant', {
      text: partial,
      toolCalls: [],
      model,
      finishReason: error.kind === 'aborted' ? 'interrupted' : 'error',
    });
  if (error.kind === 'aborted') {
    sandwich.move(state, 'Final', batch.build());
    emit({ type: 'turn-ended', outcome: 'aborted', text: partial });
    return { outcome: 'aborted', text: partial };
  }
  const text = `${error.message}${error.hint ? ` (${error.hint})` : ''}`;
  batch.entry('notice', { level: 'error', source: 'provider', text });
  addNotices(batch, noticesOf(hook));
  sandwich.move(state, 'Final', batch.build());
  emitNotices(noticesOf(hook), emit);
  emit({ type: 'error', kind: error.kind, message: error.message, hint: error.hint });
  emit({ type: 'turn-ended', outcome: 'error', text });
  return { outcome: 'error', text };
}

/**
 * Commits the model's answer. One over the commit limit is not stored: the turn is settled as
 * failed, with a notice that says so, so that the machine never stays in Planning while tole runs on.
 */
export function commitAnswer(
  scope: TurnScope,
  state: MachineState,
  to: 'Final' | 'ToolCall',
  records: readonly DraftRecord[],
  ledger: readonly DraftRecord[],
): { state: MachineState } | { failed: TurnResult } {
  const { deps, sandwich, emit } = scope;
  try {
    return { state: sandwich.move(state, to, [...ledger, ...records]) };
  } catch (error) {
    if (!isStorageError(error, 'too-large')) {
      // Nothing of that line was written, but the attempt was made (and paid for): its row is
      // still kept, on a line of its own, before the failure goes on up.
      if (isStorageError(error, 'not-committed') || error instanceof CasConflictError) keepLedger(deps, ledger, emit);
      throw error;
    }
    const message = `the model's answer is too large to store (${error.message.replace(/^not committed: /, '')}): it was not kept, and this turn failed`;
    const hint = 'ask for a shorter answer, or for the work in parts';
    const text = `${message} (${hint})`;
    const batch = new AppendBatch(deps.store);
    batch.entry('notice', { level: 'error', source: 'provider', text });
    sandwich.move(state, 'Final', [...ledger, ...batch.build()]);
    emit({ type: 'error', kind: 'too_large', message, hint });
    emit({ type: 'turn-ended', outcome: 'error', text });
    return { failed: { outcome: 'error', text } };
  }
}
