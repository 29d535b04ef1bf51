import { useContext, useEffect, useState } from 'react';
import { BypassContext } from '../frame/streamed-bypass';

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
  // A streamed frame drawn without React (src/tui/frame/streamed-bypass.ts) draws the step of its
  // moment too: the timer waits on past it instead of drawing that step again.
  const bypass = useContext(BypassContext);
  const step = active ? Math.floor(now() / stepMs) : 0;
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setTimeout>;
    const arm = (shown: number): void => {
      const due = (shown + 1) * stepMs + slackMs - now();
      timer = setTimeout(
        () => {
          const drawn = bypass === null || bypass.drawnAtMs === 0 ? -1 : Math.floor(bypass.drawnAtMs / stepMs);
          if (drawn > shown && drawn >= Math.floor(now() / stepMs)) arm(drawn);
          else wake((n) => n + 1);
        },
        Math.max(1, due),
      );
    };
    arm(step);
    return () => clearTimeout(timer);
  }, [active, step, stepMs, slackMs, now, bypass]);
  return step;
}
