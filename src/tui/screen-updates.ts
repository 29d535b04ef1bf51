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
let scheduled = false;

export function notifySoon(listener: () => void): void {
  due.add(listener);
  if (scheduled) return;
  scheduled = true;
  setImmediate(notifyDue);
}

function notifyDue(): void {
  scheduled = false;
  const listeners = [...due];
  due.clear();
  for (const listener of listeners) listener();
}
