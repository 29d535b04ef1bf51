import type { SessionStore } from '../../core/storage/session-store';
import { subAgentOf } from './entry-glyph';
import type { TreeRows } from './tree-rows';

/** The tree row the keys act on: the one chosen, else the checked-out entry's, else the last. */
export function selectedRowIndex(rows: TreeRows, selectedId: string | null, headId: string | null): number {
  const id = selectedId ?? headId;
  const index = id === null ? undefined : rows.indexOf.get(id);
  return index ?? Math.max(0, rows.rows.length - 1);
}

/** The sub-agent a tree row's `task` call (⧉) started, or null for any other row: ⏎ there unfolds it. */
export function taskCallChild(store: SessionStore, rowId: string | null): string | null {
  const entry = rowId === null ? undefined : store.entry(rowId);
  return entry?.type === 'tool_intent' ? subAgentOf(entry.payload) : null;
}

/** Whether the selected row (`selectedRowIndex`) is a `task` call: the keys' 'on-task-call' condition. */
export function taskCallSelected(
  store: SessionStore,
  rows: TreeRows,
  selectedId: string | null,
  headId: string | null,
): boolean {
  return taskCallChild(store, rows.rows[selectedRowIndex(rows, selectedId, headId)]?.id ?? null) !== null;
}
