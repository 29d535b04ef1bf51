/**
 * `tole --resume PATH` on a terminal: the session file is read and checked by a worker while the
 * session's code loads (src/core/storage/early-check.ts); the open adopts that check when it
 * opens the same file. Loaded by import() only when `--resume` names a path.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ASIDE_MIN_BYTES } from '../core/storage/aside-bounds';

/**
 * The file `--resume` names when it names one by path (as resolveSessionRef reads a path), or
 * null; an id (looked up among the sessions) is left to the open.
 */
export function resumedPath(ref: string | undefined, cwd: string): string | null {
  if (ref === undefined || ref === '' || !(ref.includes('/') || ref.endsWith('.jsonl'))) return null;
  return isAbsolute(ref) ? ref : resolve(cwd, ref);
}

/**
 * Begins the early check of the file `--resume` names, when it names a large session by path (the
 * check's code, with the worker machinery, is loaded only then). Never throws.
 */
export async function checkResumedEarly(ref: string | undefined, cwd: string): Promise<void> {
  const path = resumedPath(ref, cwd);
  if (path === null) return;
  // The size the check begins at, without loading early-check.ts.
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (size < EARLY_MIN_BYTES) return;
  try {
    (await import('../core/storage/early-check')).startEarlyCheck(path);
  } catch {
    // The open checks the file as it always does.
  }
}

/** The size from which a session file is checked early (early-check.ts EARLY_MIN_BYTES). */
export const EARLY_MIN_BYTES = ASIDE_MIN_BYTES;
