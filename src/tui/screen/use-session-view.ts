import { useMemo, useRef } from 'react';
import { machineState, type MachineState } from '../../core/machine/machine';
import { NS, type LaneHead } from '../../core/registers/namespaces';
import { currentHead, lanes } from '../../core/session/cursor';
import type { SessionStore } from '../../core/storage/session-store';
import type { AnyEntry } from '../../core/tree/entry-types';
import type { TreeIndex } from '../../core/tree/tree-index';
import { TreeRowIndex, type TreeRows } from '../tree/tree-rows';
import { summarizeUsage, turnIds, type UsageSummary } from '../usage/usage-summary';
import type { ChildUsage } from '../usage/child-usage';

const NO_CHILDREN: readonly ChildUsage[] = [];

/** What the panes show, derived from the store and recomputed only when its inputs change. */
export interface SessionView {
  readonly rows: TreeRows;
  readonly head: LaneHead;
  readonly path: readonly AnyEntry[];
  readonly pathIds: IdSet;
  readonly labels: ReadonlyMap<string, string>;
  readonly laneCount: number;
  readonly usage: UsageSummary;
  readonly machine: MachineState;
}

const rowIndexes = new WeakMap<SessionStore, TreeRowIndex>();

/** The store's tree rows, kept up to date from its commits: one index per store, for as long as it lives. */
function treeRowsOf(store: SessionStore): TreeRowIndex {
  let index = rowIndexes.get(store);
  if (!index) {
    const made = new TreeRowIndex(store.tree);
    store.onCommit((records) => {
      const ids: string[] = [];
      for (const record of records) if (record.kind === 'entry') ids.push(record.id);
      made.note(ids);
    });
    rowIndexes.set(store, (index = made));
  }
  return index;
}

/** Whether an id is in a set: all the tree pane and the usage sums ask of the path. */
export interface IdSet {
  has(id: string): boolean;
}

/**
 * The ids of a path, answered from the path itself: seqs grow from the root to the head (a child
 * is committed after its parent, and every record's seq is greater than the last), so an entry is
 * on the path exactly when a binary search for its seq finds it there. No map of the path is
 * built: the first frame of a 100,000-entry path asks only about the rows it shows, O(log n) each.
 */
class PathIds implements IdSet {
  constructor(
    readonly tree: TreeIndex,
    readonly path: readonly AnyEntry[],
  ) {}
  has(id: string): boolean {
    const entry = this.tree.get(id);
    if (!entry) return false;
    const path = this.path;
    const seq = entry.seq;
    let low = 0;
    let high = path.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = path[middle]!;
      if (found.seq === seq) return found === entry || found.id === id;
      if (found.seq < seq) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}

interface HeadPath {
  readonly tree: TreeIndex;
  readonly headId: string | null;
  readonly path: readonly AnyEntry[];
  readonly ids: IdSet;
}

/** A new head this close below the old one extends the old path instead of walking from the root. */
const MAX_EXTEND = 1000;

/**
 * The path to `headId`. When the head moved down from the previous one (a reply on this branch),
 * the previous path is extended: O(new entries) walking, not O(depth) map look-ups.
 */
export function headPath(tree: TreeIndex, previous: HeadPath | null, headId: string | null): HeadPath {
  if (previous?.tree !== tree) previous = null;
  if (previous && previous.headId === headId) return previous;
  if (previous && previous.headId !== null && headId !== null) {
    const added: AnyEntry[] = [];
    let cursor = tree.get(headId);
    while (cursor && cursor.id !== previous.headId && added.length < MAX_EXTEND) {
      added.push(cursor);
      cursor = cursor.parentId === null ? undefined : tree.get(cursor.parentId);
    }
    if (cursor?.id === previous.headId) {
      added.reverse();
      const path = previous.path.concat(added);
      return { tree, headId, path, ids: new PathIds(tree, path) };
    }
  }
  const path = tree.pathTo(headId);
  return { tree, headId, path, ids: new PathIds(tree, path) };
}

/**
 * `version` changes after every commit. The tree rows follow new entries incrementally, the
 * path changes only when the head moved, the usage sums only when a row was added or the head
 * moved. `headOverride` is a read-only view's local check-out (nothing can be committed there).
 */
export function useSessionView(
  store: SessionStore,
  version: number,
  headOverride: LaneHead | null,
  children: readonly ChildUsage[] = NO_CHILDREN,
): SessionView {
  const usageCount = store.usage.length;
  const head = headOverride ?? currentHead(store);
  const rows = treeRowsOf(store).snapshot();
  const previousPath = useRef<HeadPath | null>(null);
  const current = useMemo(() => headPath(store.tree, previousPath.current, head.entryId), [store, head.entryId]);
  previousPath.current = current;
  const { path, ids: pathIds } = current;
  const usage = useMemo(
    () => summarizeUsage(store.usage, pathIds, turnIds(path), children),
    [store, usageCount, path, pathIds, children],
  );
  const labels = useMemo(
    () => new Map(store.registers.entries(NS.label).map(([id, cell]) => [id, String(cell.value)] as const)),
    [store, version],
  );
  const laneCount = useMemo(() => lanes(store).length, [store, version]);
  const machine = machineState(store);
  return { rows, head, path, pathIds, labels, laneCount, usage, machine };
}
