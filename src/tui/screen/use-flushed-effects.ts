import { useLayoutEffect, useState } from 'react';

/**
 * Makes React run the passive effects (`useEffect`) of the render that changed `key` right away.
 * Ink's `useInput` subscribes and unsubscribes a key listener from such effects, and React may
 * hold them back until the next update: a field that just opened would miss the next key, and
 * one that just closed would still take it. A state update from a layout effect is rendered at
 * once, and React runs the held-back effects before that render.
 */
export function useFlushedEffects(key: unknown): void {
  const [, bump] = useState(0);
  useLayoutEffect(() => bump((n) => n + 1), [key]);
}
