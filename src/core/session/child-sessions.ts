import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { seededRandom, type Clock } from '../clock';
import { backendOfPath, extensionOf } from '../storage/backends';
import { isStorageError } from '../storage/errors';
import { SessionStore } from '../storage/session-store';
import type { AnyEntry } from '../tree/entry-types';
import { TASK_TOOL } from './task-tool-name';

/** A sub-agent of a session: the `task` call that started it and its own session file. */
interface ChildRef {
  readonly callId: string;
  /** The parent's intent entry of the call (the tree shows the child beneath it). */
  readonly intentEntryId: string;
  readonly sessionId: string;
  readonly agent: string | null;
  readonly brief: string;
  /** Where its file is (beside the parent's); null when there is none (the call never started it). */
  readonly path: string | null;
}

const SESSION_ID = /^[0-9]{1,30}-[0-9a-f]{6}$/;

/** The sub-agents started by `task` calls among `entries` (a path, or the whole tree), in call order. */
export function childrenOf(store: SessionStore, entries: Iterable<AnyEntry>): ChildRef[] {
  const found: ChildRef[] = [];
  const dir = dirname(store.path);
  const extension = extensionOf(backendOfPath(store.path));
  for (const entry of entries) {
    if (entry.type !== 'tool_intent' || entry.payload.tool !== TASK_TOOL) continue;
    const sessionId = (entry.payload.prepared as { sessionId?: unknown } | undefined)?.sessionId;
    // The id names a file: only one of tole's own ids is taken.
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) continue;
    const input = (entry.payload.input ?? {}) as { prompt?: unknown; agent?: unknown; description?: unknown };
    const path = join(dir, `${sessionId}${extension}`);
    found.push({
      callId: entry.payload.callId,
      intentEntryId: entry.id,
      sessionId,
      agent: typeof input.agent === 'string' ? input.agent : null,
      brief: String(input.description ?? input.prompt ?? ''),
      path: existsSync(path) ? path : null,
    });
  }
  return found;
}

/** Reads a child's session, opened read-only (no lock, no writes); null when it is not there or cannot be read. */
export function readChild<T>(ref: ChildRef, clock: Clock, read: (store: SessionStore) => T): T | null {
  if (ref.path === null) return null;
  let store: SessionStore;
  try {
    store = SessionStore.open(ref.path, { clock, random: seededRandom(1), readOnly: true });
  } catch (error) {
    if (isStorageError(error)) return null;
    throw error;
  }
  try {
    return read(store);
  } finally {
    store.close();
  }
}
