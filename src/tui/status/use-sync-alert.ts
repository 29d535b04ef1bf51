import { useEffect, useState } from 'react';
import type { SyncState } from '../../core/sync/sync-loop';
import { useTicker } from '../screen/use-ticker';

/** What the screen reads of the background sync (a SyncLoop). */
export interface SyncStatusSource {
  readonly current: SyncState;
  subscribe(listener: (state: SyncState) => void): () => void;
}

/** The words the status bar shows for a failed sync, with the seconds until it tries again; null while it works. */
export function syncAlertText(state: SyncState, nowMs: number): string | null {
  if (state.kind !== 'failed') return null;
  const seconds = Math.max(0, Math.ceil((state.retryAtMs - nowMs) / 1000));
  const error = state.error.replace(/\s+/g, ' ').slice(0, 80);
  return `sync failed: ${error} · retry ${seconds > 0 ? `in ${seconds}s` : 'now'}`;
}

/** Follows the sync's state; redraws every second while it is failed, for the countdown. */
export function useSyncAlert(source: SyncStatusSource | undefined, nowMs: () => number): string | null {
  const [state, setState] = useState<SyncState>(source?.current ?? { kind: 'idle' });
  useEffect(() => source?.subscribe(setState), [source]);
  useTicker(state.kind === 'failed', 1000);
  return syncAlertText(state, nowMs());
}
