/**
 * When a committed React tree is drawn. Ink draws through a 30 fps throttle (leading and
 * trailing edges, restarted by each call), so a frame that follows another within 33 ms waits
 * for the throttle's timer: the frame that shows a reply's end, a key's echo or an approval
 * prompt came up to 33 ms late. tole paces streamed text before React renders (the turn
 * controller gathers it and publishes it once a frame), so here a commit is drawn at once, with
 * two exceptions:
 * - while a reply streams, a commit that is not the streamed text (the spinner's or the clock's
 *   step) waits for the streamed frame that is due and is drawn with it, so the screen changes at
 *   the stream's frame rate and not more often; but a commit made while a key is handled (the
 *   key's echo, a move in the tree, Esc) is drawn at once: typing while a reply streams must show
 *   each key when it is pressed;
 * - a few frames may be drawn back to back; past that, at most one an interval, the last one
 *   when its turn comes, so a burst of commits (held keys, many tool results) stays near 30 fps.
 */

/**
 * What the turn controller asks of the screen's streamed-frame bypass (src/tui/frame/streamed-bypass.ts,
 * not imported here: it reads the turn controller's types).
 */
interface StreamedBypass {
  /** Draws the frame of `live` (only its streamed text differs from `previous`) without React: false when it cannot. */
  draw(live: object, previous: object, nowMs: number): boolean;
  /** React is behind the screen; `tell` gives it the turn. */
  owe(tell: () => void): void;
}

/** What the turn controller tells the pacer about streamed text, and the keyboard about keys. */
export class StreamedFrames {
  /** When the next streamed frame is due (performance.now() time), while text waits for it. */
  dueAtMs: number | null = null;
  /** Streamed text was published and its frame is not drawn yet. */
  published = false;
  /** Draws streamed frames without React when it can (PacedFrames sets it; none: React draws them all). */
  bypass: StreamedBypass | null = null;
  /** A key is being handled: what it commits is drawn at once (see `keyed`). */
  keying = false;
  private keys = 0;

  constructor(readonly now: () => number = () => performance.now()) {}

  /** Text came: it is published in `inMs`. */
  due(inMs: number): void {
    this.dueAtMs = this.now() + inMs;
  }

  /**
   * A key was read and is about to be handled. Commits until the key's turn of the event loop is
   * over are drawn at once: the handler's own, and those of the effects and the pending-Escape flush
   * that Ink and React run on setImmediate right after it. Then the mark goes, so a key that changes
   * nothing leaves no frame behind (a later spinner step still waits for the streamed frame).
   */
  keyed(): void {
    this.keying = true;
    const key = ++this.keys;
    setImmediate(() =>
      setImmediate(() => {
        if (this.keys === key) this.keying = false;
      }),
    );
  }

  /** The text gathered so far was published (or dropped): nothing is due. */
  flushed(published: boolean): void {
    this.dueAtMs = null;
    if (published) this.published = true;
    if (this.afterDue.size === 0) return;
    const waiting = [...this.afterDue];
    this.afterDue.clear();
    for (const then of waiting) then();
  }

  private readonly afterDue = new Set<() => void>();

  /**
   * Calls `then` once, when the streamed frame that is due now has been drawn (by the bypass or
   * published for React) or dropped, whichever path it took; returns its removal. Null, and `then`
   * is never called, when no streamed frame is due. Every frame asked for with `due` ends in
   * `flushed` (the turn controller's frame timer publishes or drops it, and its dispose flushes).
   */
  afterDueFrame(then: () => void): (() => void) | null {
    if (this.dueAtMs === null) return null;
    this.afterDue.add(then);
    return () => {
      this.afterDue.delete(then);
    };
  }
}

export interface FramePacerOptions {
  /** Frames that may be drawn back to back at once. */
  readonly burst: number;
  /** Past the burst, one frame at most this often. */
  readonly intervalMs: number;
  /** A frame that waits for a streamed one is drawn anyway this long after that one was due. */
  readonly streamGraceMs: number;
}

export const FRAME_PACING: FramePacerOptions = { burst: 4, intervalMs: 1000 / 30, streamGraceMs: 20 };

/**
 * A token bucket over `draw`: each frame drawn takes a token, tokens come back one an interval up
 * to `burst`. A frame asked for with no token left is drawn when the next one comes back; the
 * draw shows the tree as it is then, so any number of asks meanwhile make that one frame.
 */
export class FramePacer {
  private tokens: number;
  private countedAt: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The timer waits for a streamed frame (not for a token): that frame's commit draws at once. */
  private waitingForStream = false;
  private readonly now: () => number;

  constructor(
    private readonly draw: () => void,
    private readonly stream: StreamedFrames = new StreamedFrames(),
    private readonly options: FramePacerOptions = FRAME_PACING,
  ) {
    this.now = stream.now;
    this.tokens = options.burst;
    this.countedAt = this.now();
  }

  /**
   * A new tree was committed: draw it now, with the streamed frame that is due, or at the next free
   * slot. A key's commit is drawn now (taking a waiting commit with it) if the allowance has a frame
   * left, so a storm of keys (a paste, a held key) stays within the burst and the interval.
   */
  readonly request = (): void => {
    const now = this.now();
    const streamed = this.stream.published;
    this.stream.published = false;
    const due = this.stream.dueAtMs;
    if (!streamed && !this.stream.keying && due !== null && due > now) {
      if (this.timer === null) this.wait(due + this.options.streamGraceMs - now, true);
      return;
    }
    if (this.timer !== null) {
      if (!this.waitingForStream) return;
      this.cancel();
    }
    this.tokens = Math.min(this.options.burst, this.tokens + (now - this.countedAt) / this.options.intervalMs);
    this.countedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.draw();
      return;
    }
    this.wait((1 - this.tokens) * this.options.intervalMs, false);
  };

  /** A frame is waiting (for its slot, or for a streamed frame). */
  get pending(): boolean {
    return this.timer !== null;
  }

  /** No frame is drawn after this (the screen is being taken down). */
  dispose(): void {
    this.cancel();
  }

  private wait(ms: number, forStream: boolean): void {
    this.waitingForStream = forStream;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.waitingForStream = false;
        this.request();
      },
      Math.max(1, Math.ceil(ms)),
    );
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.waitingForStream = false;
  }
}
