/**
 * Registers are the only mutable state of a session: namespaced cells, overwritten per key on
 * set, removed on delete. The namespace says how long a cell lives:
 *
 * - `lane.leaf`  lane name -> leaf entry id. Set when a lane is made and every time an entry is
 *                appended to it; never deleted (a lane is a branch, and branches are kept).
 * - `lane.head`  key `head` -> the checked-out entry and its lane. Moves on check-out and append.
 * - `op.machine` key `state` -> the program counter. Its record's seq is the machine's seq:
 *                every transition is a compare-and-set on it.
 * - `op.state`   call id -> the live state of one tool call (awaiting approval, executing).
 *                Set at the intent, deleted at the settlement.
 * - `pending.intent` call id -> an intent committed without a settlement yet: what a crash
 *                would resume. Set at the intent commit, deleted in the settlement commit.
 * - `fact.*`     durable facts about the session (`fact.label`: entry id -> label;
 *                `fact.session`: model and other settings, and the name `/name` gives the
 *                session). Overwritten freely, never expire.
 */
export const NS = {
  laneLeaf: 'lane.leaf',
  laneHead: 'lane.head',
  machine: 'op.machine',
  opState: 'op.state',
  pending: 'pending.intent',
  label: 'fact.label',
  session: 'fact.session',
} as const;

type RegisterFamily = 'lane' | 'op' | 'pending' | 'fact';

const FAMILIES: readonly RegisterFamily[] = ['lane', 'op', 'pending', 'fact'];

export function familyOf(namespace: string): RegisterFamily | null {
  // Runs for every register record on replay: no allocation.
  for (const family of FAMILIES) {
    if (
      namespace.startsWith(family) &&
      (namespace.length === family.length || namespace.charCodeAt(family.length) === 0x2e)
    )
      return family;
  }
  return null;
}

export const HEAD_KEY = 'head';
export const MACHINE_KEY = 'state';
export const MAIN_LANE = 'main';

export interface LaneHead {
  readonly lane: string;
  readonly entryId: string | null;
}
