import { useCallback, useRef, useState } from 'react';
import { INITIAL_UI, uiReducer, type UiAction, type UiState } from './ui-state';

/**
 * The screen's own state. The reducer runs at dispatch time against a ref, not at render time,
 * so that several keys arriving in one chunk (a fast typist, a script, a terminal that sends
 * "text" and an arrow together) each see what the one before did.
 */
export function useUiState(history: readonly string[] = []): {
  ui: UiState;
  current: () => UiState;
  dispatch: (action: UiAction) => void;
} {
  // The prompts sent before (another session's, after /new or /resume): ↑ brings them back here too.
  const ref = useRef<UiState>(history.length > 0 ? { ...INITIAL_UI, history } : INITIAL_UI);
  const [ui, setUi] = useState<UiState>(ref.current);
  const dispatch = useCallback((action: UiAction) => {
    ref.current = uiReducer(ref.current, action);
    setUi(ref.current);
  }, []);
  const current = useCallback(() => ref.current, []);
  return { ui, current, dispatch };
}
