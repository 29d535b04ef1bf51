import type { Refusal } from '../../core/session/session-commands';
import type { Flash, UiAction } from '../screen/ui-state';

/** How loud each refusal of a session command is on screen: a failed write is an error, a no-op is news. */
const LEVELS: Record<Refusal['reason'], Flash['level']> = {
  'turn-running': 'warn',
  'turn-unsettled': 'warn',
  'read-only': 'error',
  'no-entry': 'warn',
  'already-checked-out': 'info',
  'no-checkpoints': 'warn',
  'no-checkpoint': 'warn',
  'not-committed': 'error',
  'not-restored': 'error',
  'nothing-to-retry': 'warn',
  'no-turns': 'error',
  'queue-full': 'warn',
  'not-queued': 'warn',
};

/** Shows a session command's refusal in the flash line, in the words core gave it. */
export function flashRefusal(ctx: { readonly dispatch: (action: UiAction) => void }, refusal: Refusal): void {
  ctx.dispatch({ type: 'flash', flash: { level: LEVELS[refusal.reason], text: refusal.message } });
}
