import { NS } from '../registers/namespaces';
import type { SessionStore } from '../storage/session-store';

/**
 * What a session remembers of how it was run (register `fact.session`), restored on resume; and
 * its name (`name`, set by `/name`: see session-name.ts).
 */
export type SessionFactKey = 'model' | 'agent' | 'instructions' | 'name';

export function sessionFact(store: SessionStore, key: SessionFactKey): string | undefined {
  const value = store.registers.get<unknown>(NS.session, key);
  return typeof value === 'string' ? value : undefined;
}

/** Sets (or, with null, deletes) one fact; nothing is written when it holds that already, or the store is read-only. */
export function recordSessionFact(store: SessionStore, key: SessionFactKey, value: string | null): void {
  if (store.readOnly || sessionFact(store, key) === (value ?? undefined)) return;
  if (value === null) store.commit([{ kind: 'register', op: 'delete', namespace: NS.session, key }]);
  else store.commit([{ kind: 'register', op: 'set', namespace: NS.session, key, value }]);
}
