import { useInput, useStdin, type Key } from 'ink';
import { useCallback, useEffect, useRef, useState } from 'react';
import { focusReport } from './focus-report';
import { keyPacingOf } from './key-chunks';

/** The Escape key as Ink gives it (`meta` too, as Ink sets it for Escape). */
const ESCAPE: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: true,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: true,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * The one keyboard listener of the screen. Every key goes through it once and is routed by the
 * keymap, so no two handlers can both act on a key. Without a TTY there are no keys to read, and
 * Ink would throw on raw mode: the listener stays off. On tole's own terminal stream (keyedStdin)
 * it says when what each key changed is drawn, effects and all: only then does the next key come,
 * so a key always acts on what the one before it did. A focus report (`ESC [ I`, `ESC [ O`) is
 * no key: it goes to `onFocus`, never to `onKey`, whatever reads the keys.
 */
export function useKeyboard(
  onKey: (input: string, key: Key) => void,
  /** A bracketed paste, whole; without it a paste comes as keys (its marks, then its text). */
  onPaste?: (text: string) => void,
  /** The terminal gained ('in') or lost ('out') focus. */
  onFocus?: (report: 'in' | 'out') => void,
): void {
  const { isRawModeSupported, stdin } = useStdin();
  const active = isRawModeSupported === true;
  const pacing = keyPacingOf(stdin);
  const latest = useRef({ onKey, onPaste, onFocus });
  latest.current = { onKey, onPaste, onFocus };
  const handled = useRef(0);
  const [drawn, setDrawn] = useState(0);
  /** Runs one key (or paste), then draws even when it changed nothing, so the next one comes. */
  const paced = useCallback(
    (run: () => void) => {
      if (!pacing) return run();
      pacing.began();
      handled.current++;
      try {
        run();
      } finally {
        setDrawn(handled.current);
      }
    },
    [pacing],
  );
  const handler = useCallback(
    (input: string, key: Key) =>
      paced(() => {
        const report = focusReport(input);
        if (report === null) latest.current.onKey(input, key);
        else latest.current.onFocus?.(report);
      }),
    [paced],
  );
  useInput(handler, { isActive: active });
  const takesPastes = onPaste !== undefined;
  useEffect(() => {
    if (!active || !pacing) return undefined;
    return pacing.attach({
      paste: takesPastes ? (text) => paced(() => latest.current.onPaste?.(text)) : null,
      escape: () => handler('', ESCAPE),
    });
  }, [active, pacing, takesPastes, paced, handler]);
  useEffect(() => {
    if (drawn === handled.current) pacing?.settled();
  }, [drawn, pacing]);
}
