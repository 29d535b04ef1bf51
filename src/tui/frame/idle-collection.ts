/**
 * Collects the young generation while the screen is idle after a turn. A reply allocates a few MB
 * (its events, its frames); when the young generation fills up in the middle of the next reply, the
 * scavenge that follows stops everything between the last token and the frame that shows it. Done
 * once a turn has ended and its last frame is out, the same work costs nothing anyone waits for,
 * and the next reply starts with the young generation empty.
 */
export class IdleCollection {
  private timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * @param collect runs a young-generation collection (null: none is offered, nothing is done)
   * @param delayMs how long after a turn's end: its last frame and what follows it are drawn first
   */
  constructor(
    private readonly collect: (() => void) | null,
    private readonly delayMs = IDLE_COLLECTION_DELAY_MS,
  ) {}

  /** A turn ended: collect once the screen has been idle for `delayMs` (again later: still once). */
  afterTurn(): void {
    if (this.collect === null) return;
    this.cancel();
    const collect = this.collect;
    this.timer = setTimeout(() => {
      this.timer = null;
      collect();
    }, this.delayMs);
    this.timer.unref?.();
  }

  /** A turn starts (or the screen closes): no collection while it runs. */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** After a turn's end: its last frame, and a frame or two that effects draw after it, are out by then. */
const IDLE_COLLECTION_DELAY_MS = 150;
