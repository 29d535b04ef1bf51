import { dirname, join } from 'node:path';
import { seededRandom, systemClock } from '../../core/clock';
import { isStorageError } from '../../core/storage/errors';
import { backendOfPath, extensionOf } from '../../core/storage/backends';
import { SessionStore } from '../../core/storage/session-store';
import type { AnyEntry } from '../../core/tree/entry-types';
import { newestLeaf } from './tree-rows';

/** A sub-agent's entries as the tree unfolds them beneath its `task` call, or why they cannot be shown. */
export type ChildPath =
  | { readonly ok: true; readonly childId: string; readonly entries: readonly AnyEntry[] }
  /** `short`: what the tree's one row says; `reason`: the whole of it, with what to do. */
  | { readonly ok: false; readonly childId: string; readonly short: string; readonly reason: string };

/**
 * The path to the newest entry of sub-agent `childId`, read from its session file beside the
 * parent's (`parentPath`), opened read-only as `tole --resume ID --read-only` opens it: no lock is
 * taken and nothing is written, so a child that is still running is read as it stands. A file
 * that is missing, damaged or answers another session is a reason, never a throw.
 */
export function readChildPath(parentPath: string, parentId: string, childId: string): ChildPath {
  const path = join(dirname(parentPath), `${childId}${extensionOf(backendOfPath(parentPath))}`);
  let store: SessionStore;
  try {
    store = SessionStore.open(path, { clock: systemClock, random: seededRandom(1), readOnly: true });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (isStorageError(error, 'not-found'))
      return {
        ok: false,
        childId,
        short: 'its file is missing',
        reason: `sub-agent ${childId}: no file ${path} (${text})`,
      };
    return {
      ok: false,
      childId,
      short: 'its file is damaged',
      reason: `sub-agent ${childId} cannot be read (tole check ${path} says what is wrong): ${text}`,
    };
  }
  try {
    if (store.header.parent?.sessionId !== parentId)
      return {
        ok: false,
        childId,
        short: 'its file answers another session',
        reason: `sub-agent ${childId}: ${path} names another parent in its header, so it is not shown as this call's`,
      };
    return { ok: true, childId, entries: [...store.tree.pathTo(newestLeaf(store.tree))] };
  } finally {
    store.close();
  }
}
