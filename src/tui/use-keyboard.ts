import { useInput, useStdin, type Key } from 'ink';
import { useCallback, useRef } from 'react';

/**
 * The one keyboard listener of the screen. Every key goes through it once and is routed by the
 * keymap, so no two handlers can both act on a key. Without a TTY there are no keys to read, and
 * Ink would throw on raw mode: the listener stays off.
 */
export function useKeyboard(onKey: (input: string, key: Key) => void): void {
  const { isRawModeSupported } = useStdin();
  const latest = useRef(onKey);
  latest.current = onKey;
  const handler = useCallback((input: string, key: Key) => latest.current(input, key), []);
  useInput(handler, { isActive: isRawModeSupported === true });
}
