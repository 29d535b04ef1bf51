import type { SessionStore } from '../core/storage/session-store';
import { isUnused } from './session-files';

/**
 * The line printed once the full screen is gone: how to come back to the session it ended on.
 * None for a session left unused: tole removes its file.
 */
export function resumeHint(store: SessionStore | undefined): string | null {
  if (!store || isUnused(store)) return null;
  return `to go back to this session: tole -r ${store.header.id}\n`;
}
