import { useEffect } from 'react';
import type { TurnAgent } from '../screen/turn-controller';

/**
 * Once the user starts writing a prompt (not a slash command) where one can be sent, the agent
 * gets the model call ready while they type: the provider's client loads and the server is asked
 * for the model's window, so that ⏎ sends the prompt without waiting for either.
 */
export function usePrepareCall(agent: TurnAgent, draft: string, canSend: boolean): void {
  const writing = canSend && draft.trim() !== '' && !draft.trimStart().startsWith('/');
  useEffect(() => {
    if (writing) agent.prepare?.();
  }, [agent, writing]);
}
