import { NS } from '../registers/namespaces';
import type { SessionStore } from '../storage/session-store';

/** The longest label kept; longer text is cut. */
const MAX_LABEL_CHARS = 200;

/**
 * `/label`: names an entry (register `fact.label`, key: the entry id). Empty text removes the
 * label. Returns the label as stored, or null when it was removed.
 */
export function setLabel(store: SessionStore, entryId: string, text: string): string | null {
  if (!store.tree.has(entryId)) throw new Error(`assert: no entry ${entryId} to label`);
  const label = text.replace(/\s+/g, ' ').trim().slice(0, MAX_LABEL_CHARS);
  if (label === '') {
    if (labelOf(store, entryId) !== undefined)
      store.commit([{ kind: 'register', op: 'delete', namespace: NS.label, key: entryId }]);
    return null;
  }
  if (labelOf(store, entryId) !== label)
    store.commit([{ kind: 'register', op: 'set', namespace: NS.label, key: entryId, value: label }]);
  return label;
}

export function labelOf(store: SessionStore, entryId: string): string | undefined {
  return store.registers.get<string>(NS.label, entryId);
}

/** Every label, entry id -> text, in the order they were set. */
export function labels(store: SessionStore): Map<string, string> {
  return new Map(store.registers.entries(NS.label).map(([entryId, cell]) => [entryId, cell.value as string]));
}
