import type { SessionSummary } from './session-summary';

/** A session in a listing: where it sits under its parent, and what its sub-agents cost. */
export interface ListedSession extends SessionSummary {
  /** 0 for a session the user started, 1 for its sub-agent, ... */
  readonly depth: number;
  /** What its sub-agents (and theirs) cost, which its own `costUsdMicros` leaves out. */
  readonly childrenCostUsdMicros: number;
  /** Some call of its sub-agents (and theirs) had no price. */
  readonly childrenUnpriced: boolean;
  /** Some call of its sub-agents (and theirs) is an estimate (cut off mid-stream). */
  readonly childrenEstimated: boolean;
}

/**
 * The listing with each sub-agent right under its parent (in the order they were started),
 * parents in the order given (newest first). A sub-agent whose parent is not listed (another
 * directory, a file that was removed) stands on its own at the top level.
 */
export function withChildrenUnderParents(sessions: readonly SessionSummary[]): ListedSession[] {
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const children = new Map<string, SessionSummary[]>();
  for (const session of sessions) {
    const parentId = session.task?.parentId;
    if (parentId === undefined || !byId.has(parentId) || parentId === session.id) continue;
    children.set(parentId, [...(children.get(parentId) ?? []), session]);
  }
  for (const list of children.values()) list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const placed = new Set<string>();
  const out: ListedSession[] = [];
  /** Places a session and its sub-agents; what they cost together, whether some call had no price or was estimated. */
  const place = (session: SessionSummary, depth: number): { cost: number; unpriced: boolean; estimated: boolean } => {
    // A cycle in hand-edited headers is cut where it closes.
    if (placed.has(session.id)) return { cost: 0, unpriced: false, estimated: false };
    placed.add(session.id);
    const at = out.length;
    out.push({ ...session, depth, childrenCostUsdMicros: 0, childrenUnpriced: false, childrenEstimated: false });
    let childrenCost = 0;
    let childrenUnpriced = false;
    let childrenEstimated = false;
    for (const child of children.get(session.id) ?? []) {
      const placedChild = place(child, depth + 1);
      childrenCost += placedChild.cost;
      childrenUnpriced ||= placedChild.unpriced;
      childrenEstimated ||= placedChild.estimated;
    }
    out[at] = { ...out[at]!, childrenCostUsdMicros: childrenCost, childrenUnpriced, childrenEstimated };
    return {
      cost: session.costUsdMicros + childrenCost,
      unpriced: session.unpriced || childrenUnpriced,
      estimated: session.estimated || childrenEstimated,
    };
  };
  for (const session of sessions) {
    const parentId = session.task?.parentId;
    if (parentId !== undefined && byId.has(parentId) && parentId !== session.id) continue;
    place(session, 0);
  }
  // What a cycle left out is still listed.
  for (const session of sessions) place(session, 0);
  return out;
}
