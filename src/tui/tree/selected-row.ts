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

/** The selected row (`selectedRowIndex`) as a `task` call, folded or unfolded (the keys' conditions); null for any other row. */
export function selectedTaskCall(
  store: SessionStore,
  rows: TreeRows,
  selected: { readonly selectedId: string | null; readonly unfolded: ReadonlyMap<string, unknown> },
  headId: string | null,
): 'folded' | 'unfolded' | null {
  const id = rows.rows[selectedRowIndex(rows, selected.selectedId, headId)]?.id ?? null;
  if (id === null || taskCallChild(store, id) === null) return null;
  return selected.unfolded.has(id) ? 'unfolded' : 'folded';
}
