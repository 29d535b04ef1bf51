import { useSyncExternalStore } from 'react';
import type { SessionStore } from '../../core/storage/session-store';
import { notifySoon } from './screen-updates';

/**
 * A number that changes after every durable commit: the key that derived views memoise on. Every
 * render reads the store's own (a commit is shown by whatever draws next, with what drew it); a
 * commit alone redraws with the live turn's changes, after the work that committed (see notifySoon).
 */
export function useStoreVersion(store: SessionStore): number {
  return useSyncExternalStore(
    (redraw) => store.onCommit(() => notifySoon(redraw)),
    () => store.lastSeq,
  );
}
