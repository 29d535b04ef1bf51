import { useEffect, useState } from 'react';

/**
 * A step of the clock (`Math.floor(now / stepMs)`) while `active`, for spinners and clocks that
 * move on their own: 0 otherwise. A component that is drawn anyway (a streamed reply redraws the
 * screen some 30 times a second) shows the step of the moment it is drawn; only when nothing has
 * drawn it for a step and `slackMs` more does a timer draw it. So a spinner costs no frame of its
 * own while text streams, and still turns while the model is silent. (`useTicker` would commit a
 * frame of its own every step, on top of the streamed ones.)
 */
export function usePacedStep(active: boolean, stepMs: number, slackMs: number, now: () => number = Date.now): number {
  const [, wake] = useState(0);
  const step = active ? Math.floor(now() / stepMs) : 0;
  useEffect(() => {
    if (!active) return;
    const due = (step + 1) * stepMs + slackMs - now();
    const timer = setTimeout(() => wake((n) => n + 1), Math.max(1, due));
    return () => clearTimeout(timer);
  }, [active, step, stepMs, slackMs, now]);
  return step;
}
