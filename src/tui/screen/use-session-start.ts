import { useRef, useState } from 'react';
import type { EventSink } from '../../core/session/events';
import type { TurnController } from './turn-controller';
import type { UiAction } from './ui-state';

/** The host's `agent.sessionStart`: the sessionStart hooks' verdict, null when none are configured. */
export type SessionStartHook = (
  signal: AbortSignal,
  emit: EventSink,
) => Promise<{ readonly verdict: string; readonly blockReason: string | null } | null>;

/**
 * Runs the sessionStart hooks once the screen is open (in a turn's place: prompts typed meanwhile
 * queue). A hook that blocks keeps the session to browsing, and says why.
 */
export function useSessionStart(
  hook: SessionStartHook | undefined,
  turns: () => TurnController,
  dispatch: (action: UiAction) => void,
): { blocked: string | null; start: () => void } {
  const [blocked, setBlocked] = useState<string | null>(null);
  const started = useRef(false);
  const start = (): void => {
    if (!hook || started.current) return;
    started.current = true;
    turns()
      .runTask('running the sessionStart hooks', hook)
      .then(
        (outcome) => {
          if (outcome?.verdict !== 'block') return;
          const reason = outcome.blockReason ?? 'no reason given';
          setBlocked(
            `a sessionStart hook blocked this session: ${reason} (browse it; start tole again once that is fixed)`,
          );
          dispatch({
            type: 'flash',
            flash: { level: 'error', text: `a sessionStart hook blocked this session: ${reason}`, sticky: true },
          });
        },
        (error: unknown) =>
          dispatch({
            type: 'flash',
            flash: {
              level: 'error',
              text: `the sessionStart hooks failed: ${(error as Error)?.message ?? String(error)}`,
            },
          }),
      );
  };
  return { blocked, start };
}
