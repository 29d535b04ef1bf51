import { join } from 'node:path';
import { newSessionId, randomHex, type Clock, type Random } from '../clock';
import { RegisterState } from '../registers/register-state';
import { isEntryType, type AnyEntry } from '../tree/entry-types';
import { TreeIndex } from '../tree/tree-index';
import { StorageError } from './errors';
import { laneRegistersProblem } from './lane-registers-problem';
import { type FileOps, nodeFileOps } from './file-ops';
import { idAfterNewest } from './session-id-floor';
import type { IndexKey } from './session-index';
import { createStorage, extensionOf, openStorage, type StorageBackend } from './backends';
import {
  commitRecords,
  LINE_CRC,
  MAX_COMMIT_BYTES,
  STORAGE_VERSION,
  type Commit,
  type DraftRecord,
  type EntryRecord,
  type SessionHeader,
  type StoredRecord,
  type UsageRecord,
} from './records';
import type { OpenReport, Storage } from './storage';
import { type EntryColumns, restoreState, snapshotState } from './store-snapshot';

export interface StoreOptions {
  readonly clock: Clock;
  readonly random: Random;
  readonly ops?: FileOps;
}

interface OpenOptions extends StoreOptions {
  readonly readOnly?: boolean;
  /** Sees every replayed commit after it was applied (used by `tole check`). */
  readonly onReplay?: (records: readonly StoredRecord[], line: number) => void;
  /** JSONL files of at least this many bytes are checked by a worker while they replay (tests lower it). */
  readonly asideMinBytes?: number;
  /** False: that check runs on this thread, no worker started (tests that open thousands of small files). */
  readonly asideWorker?: boolean;
  /** The user's key for the saved index's MAC (session-index.ts): without it no index is used or saved. */
  readonly indexKey?: IndexKey;
  /**
   * A writable open that turns go on from (tole's own sessions, not the storage layer's tests of
   * any register): refused when the lane registers name an entry the file does not hold.
   */
  readonly lanesChecked?: boolean;
}

interface CreateOptions extends StoreOptions {
  readonly cwd: string;
  /** JSONL unless asked: SQLite needs the optional better-sqlite3. */
  readonly backend?: StorageBackend;
  readonly parent?: SessionHeader['parent'];
  /** The new session's id, when the caller committed it somewhere first (a sub-agent's, in its parent's intent). */
  readonly id?: string;
}

/** Compaction runs only when dead register bytes pass both of these. */
export const COMPACTION_MIN_DEAD_BYTES = 1024 * 1024;
const COMPACTION_MIN_DEAD_RATIO = 0.5;
export { MAX_COMMIT_BYTES } from './records';

type CommitListener = (records: readonly StoredRecord[]) => void;

/** One session: its storage, and the replayed state (tree, registers, usage ledger). */
export class SessionStore {
  readonly tree = new TreeIndex();
  readonly registers = new RegisterState();
  readonly usage: UsageRecord[] = [];
  private seq = 0;
  private nextIdNumber = 1;
  private readonly listeners = new Set<CommitListener>();
  /** Ids of the entries of the commit being checked: one set, cleared for each commit. */
  private readonly newIds = new Set<string>();
  private storage!: Storage;

  private constructor(private readonly clock: Clock) {}

  static create(dir: string, options: CreateOptions): SessionStore {
    const id =
      options.id ?? idAfterNewest(options.ops ?? nodeFileOps, dir, newSessionId(options.clock, options.random));
    const header: SessionHeader = {
      v: 1,
      kind: 'header',
      id,
      storageVersion: STORAGE_VERSION,
      createdAt: options.clock.nowMs(),
      cwd: options.cwd,
      lineCrc: LINE_CRC,
      ...(options.parent ? { parent: options.parent } : {}),
    };
    const store = new SessionStore(options.clock);
    const backend = options.backend ?? 'jsonl';
    store.storage = createStorage(backend, join(dir, `${id}${extensionOf(backend)}`), header, {
      ...(options.ops ? { ops: options.ops } : {}),
      nonce: randomHex(options.random, 8),
      nowMs: options.clock.nowMs(),
    });
    return store;
  }

  static open(path: string, options: OpenOptions): SessionStore {
    // A large file replays while a worker checks it; when the check or a commit fails, the
    // replay starts over on one thread, into a fresh store. `tole check` sees each commit once.
    let store = new SessionStore(options.clock);
    const storage = openStorage(path, {
      readOnly: options.readOnly ?? false,
      ...(options.ops ? { ops: options.ops } : {}),
      nonce: randomHex(options.random, 8),
      nowMs: options.clock.nowMs(),
      onCommit: (commit, line, lineBytes) => {
        const records = store.replayCommit(commit, line, lineBytes, path);
        options.onReplay?.(records, line);
      },
      ...(options.onReplay
        ? {}
        : {
            onRestart: () => {
              store = new SessionStore(options.clock);
            },
            ...(options.indexKey ? { indexKey: options.indexKey } : {}),
            onSaved: (state, file, mark) =>
              store.restore(state, mark.ids, mark.columns ?? mark.numbers, file, mark.bytes, mark.answerShapes),
            ...(options.asideMinBytes === undefined ? {} : { asideMinBytes: options.asideMinBytes }),
            ...(options.asideWorker === undefined ? {} : { asideWorker: options.asideWorker }),
          }),
    });
    store.storage = storage;
    const floor = store.storage.header.compactedAtSeq;
    if (Number.isSafeInteger(floor) && floor! > store.seq) store.seq = floor!;
    const kept = store.storage.report.lastSeq;
    if (kept !== undefined && kept > store.seq) store.seq = kept;
    // Lane registers naming entries the file does not hold: read-only opens read it, no write goes on from them.
    const lanes =
      options.lanesChecked && !store.storage.readOnly ? laneRegistersProblem(path, store.registers, store.tree) : null;
    if (lanes !== null) {
      store.close();
      throw new StorageError('corrupt', lanes, { path, ownRemedy: true });
    }
    // A writable open that replayed a large file leaves the state beside it for the next open.
    store.storage.saveIndex?.((file) => snapshotState(store, { seq: store.seq, nextId: store.nextIdNumber }, file));
    return store;
  }

  /** Takes in a saved index's state (an empty store only); false, having kept some of it, when unusable. */
  private restore(
    state: unknown,
    ids: readonly string[],
    entries: Float64Array | EntryColumns,
    file: Buffer,
    indexedBytes: number,
    answerShapes?: Uint8Array,
  ): boolean {
    const counters = restoreState(this, state, ids, entries, file, indexedBytes, answerShapes);
    if (counters === null) return false;
    this.seq = counters.seq;
    this.nextIdNumber = counters.nextId;
    return true;
  }

  get header(): SessionHeader {
    return this.storage.header;
  }
  get path(): string {
    return this.storage.path;
  }
  get readOnly(): boolean {
    return this.storage.readOnly;
  }
  get report(): OpenReport {
    return this.storage.report;
  }
  get lastSeq(): number {
    return this.seq;
  }
  get sizeBytes(): number {
    return this.storage.sizeBytes;
  }
  /** Bytes of the file whose state the open took from the saved index beside it (0: all replayed). */
  get indexedBytes(): number {
    return this.storage.indexedBytes ?? 0;
  }

  newEntryId(): string {
    return `e_${this.nextIdNumber++}`;
  }

  newUsageId(): string {
    return `u_${this.nextIdNumber++}`;
  }

  now(): number {
    return this.clock.nowMs();
  }

  entry(id: string): AnyEntry | undefined {
    return this.tree.get(id);
  }

  /**
   * Gives the drafts consecutive seqs and commits them as one line, durably. Returns the
   * stored records. On failure nothing changes in memory and the error says "not committed".
   */
  commit(drafts: readonly DraftRecord[]): readonly StoredRecord[] {
    if (drafts.length === 0) throw new Error('assert: a commit holds at least one record');
    const { records, json } = this.stamp(drafts);
    const problem = this.validate(records);
    if (problem) throw new StorageError('invalid-commit', `not committed: ${problem}`, { path: this.path });
    const sizeBefore = this.storage.sizeBytes;
    this.storage.append(records.length === 1 ? records[0]! : records, json);
    this.applyAll(records, this.storage.sizeBytes - sizeBefore);
    for (const listener of this.listeners) listener(records);
    return records;
  }

  /**
   * Gives the drafts their seqs and returns them as replay will see them: a JSON round trip, so
   * that the live state never differs from the replayed one (undefined, Dates, shared objects).
   */
  private stamp(drafts: readonly DraftRecord[]): { records: StoredRecord[]; json: string } {
    const stamped = drafts.map((draft, i) => {
      // kind first, then seq (whatever seq the draft carried), then the rest in the draft's order.
      const record = Object.assign({ kind: draft.kind, seq: 0 }, draft);
      record.seq = this.seq + 1 + i;
      return record;
    });
    let json: string;
    try {
      json = JSON.stringify(stamped.length === 1 ? stamped[0] : stamped);
    } catch (error) {
      throw new StorageError(
        'invalid-commit',
        `not committed: a record cannot be stored as JSON (${String((error as Error).message)})`,
        { path: this.path, cause: error },
      );
    }
    // A UTF-16 unit takes at most 3 bytes in UTF-8: only long commits need measuring.
    const bodyBytes = json.length * 3 > MAX_COMMIT_BYTES ? Buffer.byteLength(json, 'utf8') : 0;
    if (bodyBytes > MAX_COMMIT_BYTES) {
      throw new StorageError(
        'too-large',
        `not committed: the commit is ${bodyBytes} bytes, over the limit of ${MAX_COMMIT_BYTES}`,
        { path: this.path },
      );
    }
    const parsed = JSON.parse(json) as StoredRecord | StoredRecord[];
    return { records: Array.isArray(parsed) ? parsed : [parsed], json };
  }

  onCommit(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Dead register bytes as a share of the file. */
  deadRatio(): number {
    return this.storage.sizeBytes === 0 ? 0 : this.registers.deadBytes / this.storage.sizeBytes;
  }

  /**
   * Storage compaction: rewrites the file with only live records (every entry and usage row,
   * the current value of every register), when dead bytes pass the thresholds or `force`.
   */
  compactStorage(force = false): boolean {
    const dead = this.registers.deadBytes;
    if (!force && (dead < COMPACTION_MIN_DEAD_BYTES || this.deadRatio() < COMPACTION_MIN_DEAD_RATIO)) return false;
    const live = this.liveRecords();
    this.storage.rewrite(live, { ...this.storage.header, compactedAtSeq: this.seq });
    this.registers.deadBytes = 0;
    return true;
  }

  close(): void {
    this.storage.close();
  }

  /** Every entry and usage row, and the current value of every register, in seq order (what compaction keeps). */
  liveRecords(): StoredRecord[] {
    const live: StoredRecord[] = [];
    for (const e of this.tree.all()) {
      live.push({
        kind: 'entry',
        seq: e.seq,
        timestamp: e.timestamp,
        id: e.id,
        parentId: e.parentId,
        type: e.type,
        payload: e.payload,
      });
    }
    for (const row of this.usage) live.push(row);
    for (const namespace of this.registers.namespaces()) {
      for (const [key, cell] of this.registers.entries(namespace)) {
        live.push({ kind: 'register', op: 'set', seq: cell.seq, namespace, key, value: cell.value });
      }
    }
    return live.sort((a, b) => a.seq - b.seq);
  }

  private replayCommit(commit: Commit, line: number, lineBytes: number, path: string): readonly StoredRecord[] {
    const records = commitRecords(commit);
    const problem =
      Array.isArray(commit) && records.length === 0 ? 'empty transaction' : this.replayRecords(records, lineBytes);
    if (problem) throw new StorageError('corrupt', `${path}: line ${line}: ${problem}`, { path, line });
    return records;
  }

  /**
   * Checks and applies a replayed commit record by record. A problem refuses the whole open, so
   * this finds the same first problem, in the same words, as `validate` of the whole commit before
   * `applyAll`; an entry is added with the look-up that also tells a repeated id.
   */
  private replayRecords(records: readonly StoredRecord[], lineBytes: number): string | null {
    const lone = records.length === 1;
    for (const record of records) {
      if (!record || typeof record !== 'object') return 'a record is not an object';
      if (!Number.isSafeInteger(record.seq) || record.seq <= this.seq)
        return `seq ${String(record.seq)} does not increase (after ${this.seq})`;
      if (record.kind === 'entry') {
        const problem = this.replayEntry(record);
        if (problem) return problem;
        this.seq = record.seq;
        this.bumpIdCounter(record.id);
        continue;
      }
      this.newIds.clear();
      const problem = this.validateRecord(record, this.newIds);
      if (problem) return problem;
      this.apply(record, lone ? lineBytes : record.kind === 'register' ? RegisterState.estimateBytes(record) : 0);
    }
    return null;
  }

  /** validateRecord's checks of an entry, in its order, with the entry added on the way. */
  private replayEntry(record: EntryRecord): string | null {
    if (typeof record.id !== 'string') return 'entry without an id';
    // A checksummed line can still hold any JSON: a parent that is neither an id nor null is corrupt, not a crash.
    if (record.parentId !== null && typeof record.parentId !== 'string')
      return `entry ${record.id} names a parent that is not an id: ${JSON.stringify(record.parentId)}`;
    const parentKnown = record.parentId === null || this.tree.has(record.parentId);
    if (!this.tree.addNew(record as AnyEntry)) return `entry ${record.id} written twice (entries are immutable)`;
    if (!parentKnown) return `entry ${record.id} names parent ${String(record.parentId)}, which does not exist`;
    if (!isEntryType(record.type))
      return `entry ${record.id} has unknown type "${String(record.type)}" (written by a newer tole?)`;
    return null;
  }

  private applyAll(records: readonly StoredRecord[], lineBytes: number): void {
    // A lone record owns its whole line; inside a transaction a register's share is estimated.
    if (records.length === 1) this.apply(records[0]!, lineBytes);
    else
      for (const record of records)
        this.apply(record, record.kind === 'register' ? RegisterState.estimateBytes(record) : 0);
  }

  /** Checks records against the state and each other; returns what is wrong, or null. */
  private validate(records: readonly StoredRecord[]): string | null {
    let seq = this.seq;
    const newIds = this.newIds;
    newIds.clear();
    for (const record of records) {
      if (!record || typeof record !== 'object') return 'a record is not an object';
      if (!Number.isSafeInteger(record.seq) || record.seq <= seq)
        return `seq ${String(record.seq)} does not increase (after ${seq})`;
      seq = record.seq;
      const problem = this.validateRecord(record, newIds);
      if (problem) return problem;
    }
    return null;
  }

  private validateRecord(record: StoredRecord, newIds: Set<string>): string | null {
    switch (record.kind) {
      case 'entry': {
        if (typeof record.id !== 'string') return 'entry without an id';
        if (this.tree.has(record.id) || newIds.has(record.id))
          return `entry ${record.id} written twice (entries are immutable)`;
        if (record.parentId !== null && !this.tree.has(record.parentId) && !newIds.has(record.parentId)) {
          return `entry ${record.id} names parent ${String(record.parentId)}, which does not exist`;
        }
        if (!isEntryType(record.type))
          return `entry ${record.id} has unknown type "${String(record.type)}" (written by a newer tole?)`;
        newIds.add(record.id);
        return null;
      }
      case 'register':
        return RegisterState.invalid(record);
      case 'usage':
        return typeof record.id === 'string' ? null : 'usage row without an id';
      default:
        return `unknown record kind "${String((record as { kind: unknown }).kind)}" (written by a newer tole?)`;
    }
  }

  private apply(record: StoredRecord, bytes: number): void {
    this.seq = record.seq;
    switch (record.kind) {
      case 'entry':
        this.tree.add(record as EntryRecord as AnyEntry);
        this.bumpIdCounter(record.id);
        return;
      case 'register':
        this.registers.apply(record, bytes);
        return;
      case 'usage':
        this.usage.push(record);
        this.bumpIdCounter(record.id);
        return;
    }
  }

  private bumpIdCounter(id: string): void {
    const n = Number(id.slice(2));
    if (Number.isSafeInteger(n) && n >= this.nextIdNumber) this.nextIdNumber = n + 1;
  }
}
