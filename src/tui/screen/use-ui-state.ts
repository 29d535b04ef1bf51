import { useCallback, useEffect, useRef, useState } from 'react';
import { INITIAL_UI, uiReducer, type UiAction, type UiState } from './ui-state';

/**
 * The prompts ↑ brings back, oldest first: the list, or how to read it when that costs a walk of
 * a long session (read after the first frame, or at the first key before that: never seen unread).
 */
export type HistorySource = readonly string[] | (() => readonly string[]);

/**
 * The screen's own state. The reducer runs at dispatch time against a ref, not at render time,
 * so that several keys arriving in one chunk (a fast typist, a script, a terminal that sends
 * "text" and an arrow together) each see what the one before did.
 */
export function useUiState(history: HistorySource = []): {
  ui: UiState;
  current: () => UiState;
  dispatch: (action: UiAction) => void;
} {
  // The prompts sent before (another session's, after /new or /resume): ↑ brings them back here too.
  const ref = useRef<UiState>(
    typeof history !== 'function' && history.length > 0 ? { ...INITIAL_UI, history } : INITIAL_UI,
  );
  // A history still to read: nothing has read the state yet, so it goes in as if it had been there.
  const unread = useRef(typeof history === 'function' ? history : null);
  const settled = useCallback((): UiState => {
    const read = unread.current;
    if (read !== null) {
      unread.current = null;
      const prompts = read();
      if (prompts.length > 0) ref.current = { ...ref.current, history: prompts };
    }
    return ref.current;
  }, []);
  const [ui, setUi] = useState<UiState>(ref.current);
  const dispatch = useCallback(
    (action: UiAction) => {
      ref.current = uiReducer(settled(), action);
      setUi(ref.current);
    },
    [settled],
  );
  const current = useCallback(() => settled(), [settled]);
  // Read once the first frame is out (Ink writes it within render), unless a key came first.
  useEffect(() => {
    if (unread.current === null) return;
    const timer = setTimeout(() => {
      if (unread.current !== null) setUi(settled());
    }, 0);
    return () => clearTimeout(timer);
  }, [settled]);
  return { ui, current, dispatch };
}
