import { useMemo } from 'react';
import { machineState, type MachineState } from '../core/machine/machine';
import { NS, type LaneHead } from '../core/registers/namespaces';
import { currentHead, lanes } from '../core/session/cursor';
import type { SessionStore } from '../core/storage/session-store';
import type { AnyEntry } from '../core/tree/entry-types';
import { buildTreeRows, type TreeRows } from './tree-rows';
import { summarizeUsage, turnIds, type UsageSummary } from './usage-summary';

/** What the panes show, derived from the store and recomputed only when its inputs change. */
export interface SessionView {
  readonly rows: TreeRows;
  readonly head: LaneHead;
  readonly path: readonly AnyEntry[];
  readonly pathIds: ReadonlySet<string>;
  readonly labels: ReadonlyMap<string, string>;
  readonly laneCount: number;
  readonly usage: UsageSummary;
  readonly machine: MachineState;
}

/**
 * `version` changes after every commit. The tree rows are rebuilt only when an entry was added,
 * the path only when the head moved, the usage sums only when a row was added or the head moved.
 * `headOverride` is a read-only view's local check-out (nothing can be committed there).
 */
export function useSessionView(store: SessionStore, version: number, headOverride: LaneHead | null): SessionView {
  const entryCount = store.tree.size;
  const usageCount = store.usage.length;
  const head = headOverride ?? currentHead(store);
  const rows = useMemo(() => buildTreeRows(store.tree), [store, entryCount]);
  const path = useMemo(() => store.tree.pathTo(head.entryId), [store, head.entryId, entryCount]);
  const pathIds = useMemo(() => new Set(path.map((e) => e.id)), [path]);
  const usage = useMemo(() => summarizeUsage(store.usage, pathIds, turnIds(path)), [store, usageCount, path, pathIds]);
  const labels = useMemo(
    () => new Map(store.registers.entries(NS.label).map(([id, cell]) => [id, String(cell.value)] as const)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, version],
  );
  const laneCount = useMemo(() => lanes(store).length, [store, version]);
  const machine = machineState(store);
  return { rows, head, path, pathIds, labels, laneCount, usage, machine };
}
