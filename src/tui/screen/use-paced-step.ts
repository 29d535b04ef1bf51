import { useContext, useEffect, useState } from 'react';
import { BypassContext } from '../frame/streamed-bypass';

/**
 * A step of the clock (`Math.floor(now / stepMs)`) while `active`, for spinners and clocks that
 * move on their own: 0 otherwise. A component that is drawn anyway (a streamed reply redraws the
 * screen some 30 times a second) shows the step of the moment it is drawn; only when nothing has
 * drawn it for a step and `slackMs` more, and no streamed frame is due (which will draw it), does a
 * timer draw it. So a spinner costs no frame of its own while text streams, and still turns while
 * the model is silent. (`useTicker` would commit a frame of its own every step, on top of the
 * streamed ones.)
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
    let unwait: (() => void) | null = null;
    // The step is due: drawn already by a frame without React, or to be drawn by the streamed
    // frame that is due (without React, or by React when that frame falls back: its commit would
    // wait for that frame in the pacer anyway), or by a commit of its own.
    const check = (shown: number): void => {
      const drawn = bypass === null || bypass.drawnAtMs === 0 ? -1 : Math.floor(bypass.drawnAtMs / stepMs);
      if (drawn > shown && drawn >= Math.floor(now() / stepMs)) {
        arm(drawn);
        return;
      }
      // Once that frame is over, none is due (it was the one): the check then draws or arms.
      unwait =
        bypass?.afterStreamedFrame(() => {
          unwait = null;
          check(shown);
        }) ?? null;
      if (unwait !== null) return;
      wake((n) => n + 1);
    };
    const arm = (shown: number): void => {
      const due = (shown + 1) * stepMs + slackMs - now();
      timer = setTimeout(() => check(shown), Math.max(1, due));
    };
    arm(step);
    return () => {
      clearTimeout(timer);
      unwait?.();
    };
  }, [active, step, stepMs, slackMs, now, bypass]);
  return step;
}
