/**
 * When a committed React tree is drawn. Ink draws through a 30 fps throttle (leading and
 * trailing edges, restarted by each call), so a frame that follows another within 33 ms waits
 * for the throttle's timer: the frame that shows a reply's end, a key's echo or an approval
 * prompt came up to 33 ms late. tole paces what needs pacing before React renders (streamed text
 * is gathered and published once a frame by the turn controller), so each commit here is drawn
 * at once. A few frames may be drawn back to back; past that, frames are drawn at most once an
 * interval, the last one when its turn comes, so a burst of commits (held keys, many tool
 * results at once) stays near the rate Ink's throttle kept.
 */

export interface FramePacerOptions {
  /** Frames that may be drawn back to back at once. */
  readonly burst: number;
  /** Past the burst, one frame at most this often. */
  readonly intervalMs: number;
  readonly now?: () => number;
}

/** Drawn at once unless more than 4 frames came in the last 4 intervals; at most 30 a second in a storm. */
export const FRAME_PACING: FramePacerOptions = { burst: 4, intervalMs: 1000 / 30 };

/**
 * A token bucket over `draw`: each frame drawn takes a token, tokens come back one an interval up
 * to `burst`. A frame asked for with no token left is drawn when the next one comes back; the
 * draw shows the tree as it is then, so any number of asks meanwhile make that one frame.
 */
export class FramePacer {
  private tokens: number;
  private countedAt: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly draw: () => void,
    private readonly options: FramePacerOptions = FRAME_PACING,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.tokens = options.burst;
    this.countedAt = this.now();
  }

  /** A new tree was committed: draw it now, or at the next free slot. */
  readonly request = (): void => {
    if (this.timer !== null) return;
    const now = this.now();
    this.tokens = Math.min(this.options.burst, this.tokens + (now - this.countedAt) / this.options.intervalMs);
    this.countedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.draw();
      return;
    }
    const waitMs = Math.ceil((1 - this.tokens) * this.options.intervalMs);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.request();
    }, waitMs);
  };

  /** A frame is waiting for its slot. */
  get pending(): boolean {
    return this.timer !== null;
  }

  /** No frame is drawn after this (the screen is being taken down). */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
