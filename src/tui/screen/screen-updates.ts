/**
 * When the screen hears of a change in the live turn or the session file: once per turn of the
 * event loop (`setImmediate`), all together, not at the change. What a key or a network read
 * sets off runs to its end first: a prompt's commit and the request that follows it leave before
 * the screen is drawn, and the end of a stream (its last text, its usage row, the reply's
 * commit, the turn's end) is drawn once, as it ends, instead of once a step.
 *
 * A listener told several times before the tick is called once; all are called in one go, so
 * React draws their state changes in one render.
 */
const due = new Set<() => void>();
let scheduled: ReturnType<typeof setImmediate> | null = null;

export function notifySoon(listener: () => void): void {
  due.add(listener);
  if (scheduled !== null) return;
  scheduled = setImmediate(notifyDue);
}

/**
 * The work that set off the changes told so far is over (a turn has ended): its listeners are
 * called now, not at the next turn of the event loop. Whatever else waits for that turn (React's
 * own scheduled work, queued while the stream was read, which draws the store's new commits with
 * the live turn as it was before them) then finds the screen told already, and the end of the
 * turn is one frame, not a frame of half of it followed by the rest.
 */
export function notifyNow(): void {
  if (scheduled === null) return;
  clearImmediate(scheduled);
  notifyDue();
}

function notifyDue(): void {
  scheduled = null;
  const listeners = [...due];
  due.clear();
  for (const listener of listeners) listener();
}
