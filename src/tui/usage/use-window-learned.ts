import { useEffect, useReducer } from 'react';
import type { TurnAgent } from '../screen/turn-controller';

/**
 * Draws the screen again when the agent learns the model's context window from the server: the
 * first turns of a session do not wait for it, so it can come in after the turn has ended, when
 * nothing else would redraw the usage pane and the context fill that show it.
 */
export function useWindowLearned(agent: TurnAgent): void {
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useEffect(() => agent.onWindowLearned?.(redraw), [agent]);
}
