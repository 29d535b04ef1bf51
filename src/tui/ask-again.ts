import { retryPoint } from '../core/session/retry-point';
import type { SessionStore } from '../core/storage/session-store';
import type { TurnController } from './turn-controller';
import type { UiAction } from './ui-state';

export interface AskAgainContext {
  readonly store: SessionStore;
  readonly turns: TurnController;
  readonly readOnly: boolean;
  readonly dispatch: (action: UiAction) => void;
}

/**
 * `r` in the tree and `/retry`: asks the model again from the point the entry's answer followed,
 * as a new sibling branch. Says why not when it cannot (read-only, a turn running, nothing to ask).
 */
export function askAgain(ctx: AskAgainContext, entryId: string | null): void {
  const say = (level: 'info' | 'warn', text: string): void => ctx.dispatch({ type: 'flash', flash: { level, text } });
  if (ctx.readOnly) return say('warn', 'this session is open read-only: nothing can be asked again here');
  if (entryId === null) return say('warn', 'nothing to ask again yet: send a prompt first');
  if (ctx.turns.running) return say('warn', 'a turn is running: ask again once it ends (or Esc to stop it)');
  const from = retryPoint(ctx.store.tree, entryId);
  if (from === null)
    return say('warn', `${entryId} has no prompt above it to ask again (a prompt a hook blocked is never sent)`);
  if (!ctx.turns.retry(from)) return say('warn', 'could not ask again now: a turn is running');
  ctx.dispatch({ type: 'transcript', anchor: { kind: 'follow' } });
  say(
    'info',
    `asking again from ${from}: the new answer is a sibling branch, the old one stays in the tree (←→ moves between them)`,
  );
}
