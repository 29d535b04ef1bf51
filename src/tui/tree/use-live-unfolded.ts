import { useEffect, useRef } from 'react';
import type { SessionEvent } from '../../core/session/events';
import type { SessionStore } from '../../core/storage/session-store';
import type { UiAction } from '../screen/ui-state';
import type { ChildEventSource } from '../usage/child-usage';
import { readChildPath, type ChildPath } from './child-path';

/** A sub-agent's events that follow a commit to its file (streamed text and the like do not). */
const AFTER_COMMIT: ReadonlySet<SessionEvent['type']> = new Set([
  'turn-started',
  'state',
  'tool-call',
  'tool-result',
  'usage',
  'notice',
  'steered',
  'compacted',
  'turn-ended',
]);

/**
 * Keeps an unfolded `task` call's rows up to date while its sub-agent runs: after each commit of
 * the child (as its events tell), its file is read again, read-only, as it was when it unfolded.
 */
export function useLiveUnfolded(
  source: ChildEventSource | undefined,
  store: SessionStore,
  unfolded: ReadonlyMap<string, ChildPath>,
  dispatch: (action: UiAction) => void,
): void {
  const current = useRef(unfolded);
  current.current = unfolded;
  useEffect(() => {
    if (!source) return;
    return source.onChildEvent(({ sessionId, event }) => {
      if (!AFTER_COMMIT.has(event.type)) return;
      for (const [entryId, shown] of current.current) {
        if (shown.childId !== sessionId) continue;
        dispatch({ type: 'unfolded-read', entryId, child: readChildPath(store.path, store.header.id, sessionId) });
      }
    });
  }, [source, store, dispatch]);
}
