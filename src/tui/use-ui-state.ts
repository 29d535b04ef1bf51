import { useCallback, useRef, useState } from 'react';
import { INITIAL_UI, uiReducer, type UiAction, type UiState } from './ui-state';

/**
 * The screen's own state. The reducer runs at dispatch time against a ref, not at render time,
 * so that several keys arriving in one chunk (a fast typist, a script, a terminal that sends
 * "text" and an arrow together) each see what the one before did.
 */
export function useUiState(): { ui: UiState; current: () => UiState; dispatch: (action: UiAction) => void } {
  const ref = useRef<UiState>(INITIAL_UI);
  const [ui, setUi] = useState<UiState>(INITIAL_UI);
  const dispatch = useCallback((action: UiAction) => {
    ref.current = uiReducer(ref.current, action);
    setUi(ref.current);
  }, []);
  const current = useCallback(() => ref.current, []);
  return { ui, current, dispatch };
}
