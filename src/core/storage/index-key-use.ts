/**
 * How an open uses the user's index key: none configured, a key that cannot be had (the index is
 * only a cache, so the open goes on without it), and an index the key does not vouch for.
 */
import type { FileOps } from './file-ops';
import { type IndexKey, indexPathOf } from './session-index';
import type { OpenReport } from './storage';

/** The key when none is configured. */
export const noKey: IndexKey = () => null;

/** The key, or null when it cannot be had (the index is only a cache: the open goes on without it). */
export function keyOrNull(key: IndexKey): Buffer | null {
  try {
    return key();
  } catch {
    return null;
  }
}

/**
 * An index the open would not use because the user's key does not vouch for it: a writable open
 * moves it to `<index>.bad` (replacing an older one there), so that it is looked at, not read again.
 */
export function setIndexAside(
  ops: FileOps,
  sessionPath: string,
  reason: string,
  readOnly: boolean,
): NonNullable<OpenReport['indexSetAside']> {
  const path = indexPathOf(sessionPath);
  if (readOnly) return { path, reason, movedTo: null };
  const movedTo = `${path}.bad`;
  try {
    ops.renameSync(path, movedTo);
    return { path, reason, movedTo };
  } catch {
    return { path, reason, movedTo: null };
  }
}
