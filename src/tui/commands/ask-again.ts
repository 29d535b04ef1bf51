import type { SessionCommands } from '../../core/session/session-commands';
import { flashRefusal } from './refusal-flash';
import type { TurnController } from '../screen/turn-controller';
import type { UiAction } from '../screen/ui-state';

interface AskAgainContext {
  readonly session: SessionCommands;
  readonly turns: TurnController;
  readonly dispatch: (action: UiAction) => void;
}

/**
 * `r` in the tree and `/retry`: asks the model again from the point the entry's answer followed,
 * as a new sibling branch. Says why not when it cannot (read-only, a turn running, nothing to ask).
 */
export function askAgain(ctx: AskAgainContext, entryId: string | null): void {
  const say = (level: 'info' | 'warn', text: string): void => ctx.dispatch({ type: 'flash', flash: { level, text } });
  const point = ctx.session.retryFrom(entryId);
  if (!point.ok) return flashRefusal(ctx, point);
  const { from } = point;
  if (!ctx.turns.retry(from)) return say('warn', 'could not ask again now: a turn is running');
  ctx.dispatch({ type: 'transcript', anchor: { kind: 'follow' } });
  say(
    'info',
    `asking again from ${from}: the new answer is a sibling branch, the old one stays in the tree (←→ moves between them)`,
  );
}
