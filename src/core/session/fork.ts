import { HEAD_KEY, MAIN_LANE, NS, type LaneHead } from '../registers/namespaces';
import type { DraftRecord } from '../storage/records';
import { SessionStore, type StoreOptions } from '../storage/session-store';
import { labelOf } from './labels';

type ForkOptions = StoreOptions;

/** A fork copies the path in commits of about this size, well under the store's commit limit. */
const FORK_COMMIT_BYTES = 4 * 1024 * 1024;

/**
 * `/fork`: a new session file in `dir` whose header names the parent session, its file and the
 * entry. It holds a copy of the path from the root to `entryId` (same entry ids, timestamps and
 * payloads, new seqs) and the labels on it; lane `main` and the head point at the copy of the
 * entry. Usage rows stay with the parent, so that spend is never counted twice. The parent is
 * not changed. Returns the new store, open for writing.
 */
export function forkSession(store: SessionStore, entryId: string, dir: string, options: ForkOptions): SessionStore {
  if (!store.tree.has(entryId)) throw new Error(`assert: no entry ${entryId} to fork from`);
  const path = store.tree.pathTo(entryId);
  const fork = SessionStore.create(dir, {
    ...options,
    cwd: store.header.cwd,
    parent: { sessionId: store.header.id, entryId, path: store.path },
  });
  try {
    let batch: DraftRecord[] = [];
    let batchBytes = 0;
    for (const entry of path) {
      const draft: DraftRecord = {
        kind: 'entry',
        timestamp: entry.timestamp,
        id: entry.id,
        parentId: entry.parentId,
        type: entry.type,
        payload: entry.payload,
      };
      const bytes = JSON.stringify(draft).length;
      if (batch.length > 0 && batchBytes + bytes > FORK_COMMIT_BYTES) {
        fork.commit(batch);
        batch = [];
        batchBytes = 0;
      }
      batch.push(draft);
      batchBytes += bytes;
    }
    for (const entry of path) {
      const label = labelOf(store, entry.id);
      if (label !== undefined)
        batch.push({ kind: 'register', op: 'set', namespace: NS.label, key: entry.id, value: label });
    }
    batch.push({ kind: 'register', op: 'set', namespace: NS.laneLeaf, key: MAIN_LANE, value: entryId });
    batch.push({
      kind: 'register',
      op: 'set',
      namespace: NS.laneHead,
      key: HEAD_KEY,
      value: { lane: MAIN_LANE, entryId } satisfies LaneHead,
    });
    fork.commit(batch);
  } catch (error) {
    fork.close();
    throw error;
  }
  return fork;
}
