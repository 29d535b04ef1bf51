import { plainName } from '../plain-name';
import { NS } from '../registers/namespaces';
import type { SessionStore } from '../storage/session-store';
import { sessionFact } from './session-facts';

/** The longest session name kept; longer text is cut. */
export const MAX_NAME_CHARS = 80;

/** The session's name (register `fact.session`, key `name`), or null when it has none. Read as plain text. */
export function sessionName(store: SessionStore): string | null {
  const name = sessionFact(store, 'name');
  return name === undefined ? null : plainName(name);
}

/**
 * Names the session: one committed register record (`fact.session` / `name`), written whole and
 * fsynced like every commit, so replay, `tole check`, export and the team sync carry it as they
 * carry labels. Empty text removes the name. Returns the name as stored, or null when it has none.
 */
export function nameSession(store: SessionStore, text: string): string | null {
  if (store.readOnly) throw new Error('this session is open read-only: its name cannot be written');
  const name = plainName(text).slice(0, MAX_NAME_CHARS);
  const had = sessionName(store);
  if (name === '') {
    if (had !== null) store.commit([{ kind: 'register', op: 'delete', namespace: NS.session, key: 'name' }]);
    return null;
  }
  if (had !== name) store.commit([{ kind: 'register', op: 'set', namespace: NS.session, key: 'name', value: name }]);
  return name;
}
