/**
 * What an open of a session file gives, whole, so that two ways of opening the same file can be
 * compared: the column scan beside the worker's check, or one thread replaying record by record.
 */
import type { SessionStore } from '../../src/core/storage/session-store';
import { openStore } from './storage-fixtures';

/** A worker checks the file while the column scan reads it (any size of file). */
export const SCANNED = { asideMinBytes: 0 };
/** One thread replays the file record by record. */
export const ONE_THREAD = { asideMinBytes: Number.POSITIVE_INFINITY };

/** Everything an open rebuilds, payloads and register values included, in the order the store keeps it. */
export function fullState(store: SessionStore): Record<string, unknown> {
  const entries = [...store.tree.all()];
  return {
    entries: JSON.stringify(entries),
    roots: store.tree.roots(),
    children: entries.map((e) => store.tree.childrenOf(e.id)),
    paths: entries.map((e) => store.tree.pathTo(e.id).map((p) => p.id)),
    registers: store.registers.namespaces().map((ns) => [ns, store.registers.entries(ns)]),
    dead: store.registers.deadBytes,
    usage: JSON.stringify(store.usage),
    lastSeq: store.lastSeq,
    nextId: store.newEntryId(),
    report: store.report,
  };
}

/** The read-only open's full state, or its refusal as `kind: message`. */
export function openOutcome(path: string, how: { asideMinBytes: number }): unknown {
  try {
    const store = openStore(path, { readOnly: true, ...how });
    const state = fullState(store);
    store.close();
    return state;
  } catch (error) {
    return `${(error as { kind?: string }).kind}: ${(error as Error).message}`;
  }
}
