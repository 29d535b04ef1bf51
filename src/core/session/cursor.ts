import { HEAD_KEY, MAIN_LANE, NS, type LaneHead } from '../registers/namespaces';
import type { DraftRecord } from '../storage/records';
import type { SessionStore } from '../storage/session-store';
import type { EntryPayloads, EntryType } from '../tree/entry-types';

/** The checked-out entry and its lane. A new session starts on `main` with no entry. */
export function currentHead(store: SessionStore): LaneHead {
  return store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY) ?? { lane: MAIN_LANE, entryId: null };
}

export function laneLeaf(store: SessionStore, lane: string): string | null {
  return store.registers.get<string>(NS.laneLeaf, lane) ?? null;
}

/** Lanes with their leaves, in the order they were made. */
export function lanes(store: SessionStore): { lane: string; leaf: string }[] {
  return store.registers.entries(NS.laneLeaf).map(([lane, cell]) => ({ lane, leaf: cell.value as string }));
}

/** The lane a new entry joins: the head's lane when the head is its leaf, else a new branch. */
export function laneForAppend(store: SessionStore): LaneHead {
  const head = currentHead(store);
  if (laneLeaf(store, head.lane) === head.entryId) return head;
  const existing = lanes(store).find((l) => l.leaf === head.entryId);
  if (existing) return { lane: existing.lane, entryId: head.entryId };
  const taken = new Set(lanes(store).map((l) => l.lane));
  let n = taken.size + 1;
  while (taken.has(`branch-${n}`)) n++;
  return { lane: `branch-${n}`, entryId: head.entryId };
}

/**
 * Builds the records that append a chain of entries under the head and move its lane's leaf
 * and the head to the last of them. Nothing is committed here.
 */
export class AppendBatch {
  readonly records: DraftRecord[] = [];
  private parentId: string | null;
  private readonly lane: string;
  lastId: string | null = null;

  constructor(private readonly store: SessionStore) {
    const target = laneForAppend(store);
    this.lane = target.lane;
    this.parentId = target.entryId;
  }

  entry<T extends EntryType>(type: T, payload: EntryPayloads[T]): string {
    const id = this.store.newEntryId();
    this.records.push({ kind: 'entry', timestamp: this.store.now(), id, parentId: this.parentId, type, payload });
    this.parentId = id;
    this.lastId = id;
    return id;
  }

  register(namespace: string, key: string, value: unknown): this {
    this.records.push({ kind: 'register', op: 'set', namespace, key, value });
    return this;
  }

  remove(namespace: string, key: string): this {
    this.records.push({ kind: 'register', op: 'delete', namespace, key });
    return this;
  }

  /** The records, with the lane leaf and head moved to the last entry appended. */
  build(): DraftRecord[] {
    if (this.lastId === null) return this.records;
    return [
      ...this.records,
      { kind: 'register', op: 'set', namespace: NS.laneLeaf, key: this.lane, value: this.lastId },
      {
        kind: 'register',
        op: 'set',
        namespace: NS.laneHead,
        key: HEAD_KEY,
        value: { lane: this.lane, entryId: this.lastId } satisfies LaneHead,
      },
    ];
  }

  get laneName(): string {
    return this.lane;
  }
}

/** Checks out an entry: the transcript follows it, and the next prompt branches from it. */
export function checkout(store: SessionStore, entryId: string | null): void {
  if (entryId !== null && !store.tree.has(entryId)) throw new Error(`assert: no entry ${entryId}`);
  const owner = lanes(store).find((l) => l.leaf === entryId);
  const head = currentHead(store);
  const lane = owner?.lane ?? head.lane;
  store.commit([
    { kind: 'register', op: 'set', namespace: NS.laneHead, key: HEAD_KEY, value: { lane, entryId } satisfies LaneHead },
  ]);
}
