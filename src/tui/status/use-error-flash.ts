import { useEffect } from 'react';
import { errorAdvice, type ErrorAdvice } from './error-advice';
import type { TurnError } from '../screen/turn-controller';
import type { UiAction } from '../screen/ui-state';

/** A failed model call, said once in the flash (what to do) and kept in the status bar until the next turn. */
export function useErrorFlash(
  error: TurnError | null,
  model: string,
  recallKey: string,
  dispatch: (action: UiAction) => void,
): ErrorAdvice | null {
  const advice = error ? errorAdvice(error, model, recallKey) : null;
  useEffect(() => {
    if (advice) dispatch({ type: 'flash', flash: { level: 'error', text: advice.text, sticky: true } });
    // Once per error: the advice is rebuilt each render, the error object only when a turn fails.
  }, [error]);
  return advice;
}
