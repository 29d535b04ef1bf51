/**
 * The replayed state of a session (tree, registers, usage ledger, counters) as the saved index
 * holds it (session-index.ts), and back. Entries keep their payloads as byte ranges of the
 * session file, so the index holds only what the tree needs, column by column: ids, the distance
 * back to each parent, seq and timestamp steps, the type's number, and where the payload lies.
 *
 * `restoreState` checks that the state is one snapshotState could have made: every field's type
 * and range (ids unique, parents earlier, seqs increasing, payloads inside the indexed bytes, the
 * entry type table the same as this build's, ids below the next id), and any problem gives null,
 * the caller then replays the file from its start. It does not compare the state with the lines:
 * the ids, parents, types, seqs, timestamps, register cells and usage rows of the indexed prefix
 * come from the index alone. What pins them is the CRC chain: the index is used only when the
 * file's line ending at its `bytes` carries the CRC it recorded, so it was made from that very
 * prefix, by this code. That holds against damage and against an older or other file, not
 * against someone who can write the user's session directory: an index crafted with its own CRC
 * and the file's CRCs can show a state the file does not hold (the worker still checks every byte
 * of the JSONL itself, so a damaged file is refused as without the index).
 */
import type { RegisterCell, RegisterState } from '../registers/register-state';
import { ENTRY_TYPES, type AnyEntry } from '../tree/entry-types';
import { entryNumber } from '../tree/id-places';
import type { PayloadBytesReader, TreeIndex } from '../tree/tree-index';
import type { UsageRecord } from './records';
import { shapeInBytes, shapeOfCode } from './answer-shape';
import { ReplayedEntry } from './replayed-entry';

/** The state a SessionStore replays: what the index saves and restores. */
interface StoreParts {
  readonly tree: TreeIndex;
  readonly registers: RegisterState;
  readonly usage: UsageRecord[];
}

/** The store's counters: the last seq, and the number the next entry id takes. */
interface Counters {
  readonly seq: number;
  readonly nextId: number;
}

/**
 * The entries' numbers, in `numbers` (doubles, no text to parse), one column after another of
 * `id.length` each, in this order: how many entries back the parent is (0: a root); seq minus the
 * previous entry's (the first: its seq); the same for the timestamp; the type's index in
 * ENTRY_TYPES; the payload's start minus the previous payload's end (the first: its start); the
 * payload's length.
 */
const COLUMNS = 6;
const [UP, SEQ, TS, TYPE, FROM, LEN] = [0, 1, 2, 3, 4, 5];

/** What the index holds: the state as JSON, the entries' numbers, and their ids (as lines of text). */
interface Snapshot {
  readonly state: SavedState;
  readonly numbers: Float64Array;
  readonly ids: readonly string[];
}

interface SavedState {
  readonly v: 4;
  /** ENTRY_TYPES when saved: the TYPE column's numbers are places in it (another build may order it otherwise). */
  readonly types: readonly string[];
  readonly seq: number;
  readonly nextId: number;
  readonly deadBytes: number;
  readonly usage: UsageRecord[];
  /** Namespace, then its cells as [key, value, seq, bytes], both in insertion order. */
  readonly registers: [string, [string, unknown, number, number][]][];
}

const TYPE_NUMBER = new Map<string, number>(ENTRY_TYPES.map((type, i) => [type, i]));

/**
 * The state with every payload as a range of `file` (the whole session file, from its first
 * byte), or null when an entry's payload is not one (an entry not read lazily from this file).
 */
export function snapshotState(parts: StoreParts, counters: Counters, file: Buffer): Snapshot | null {
  const n = parts.tree.size;
  const ids: string[] = [];
  const numbers = new Float64Array(n * COLUMNS);
  const place = new Map<string, number>();
  let seq = 0;
  let ts = 0;
  let end = 0;
  for (const entry of parts.tree.all()) {
    if (!(entry instanceof ReplayedEntry)) return null;
    const [bytes, start, stop] = ReplayedEntry.rangeOf(entry);
    if (bytes.buffer !== file.buffer) return null;
    const from = start + bytes.byteOffset - file.byteOffset;
    const type = TYPE_NUMBER.get(entry.type);
    const parent = entry.parentId === null ? -1 : (place.get(entry.parentId) ?? -2);
    const at = ids.length;
    if (type === undefined || parent === -2 || from < 0 || stop - start <= 0 || at >= n) return null;
    place.set(entry.id, at);
    ids.push(entry.id);
    numbers[UP * n + at] = parent === -1 ? 0 : at - parent;
    numbers[SEQ * n + at] = entry.seq - seq;
    numbers[TS * n + at] = entry.timestamp - ts;
    numbers[TYPE * n + at] = type;
    numbers[FROM * n + at] = from - end;
    numbers[LEN * n + at] = stop - start;
    seq = entry.seq;
    ts = entry.timestamp;
    end = from + stop - start;
  }
  if (ids.length !== n) return null;
  const registers: SavedState['registers'] = [];
  for (const ns of parts.registers.namespaces()) {
    const cells: [string, unknown, number, number][] = [];
    for (const [key, cell] of parts.registers.entries(ns)) {
      // A set without a value would come back as null: such a session is not indexed.
      if (cell.value === undefined) return null;
      cells.push([key, cell.value, cell.seq, cell.bytes]);
    }
    registers.push([ns, cells]);
  }
  const state: SavedState = {
    v: 4,
    types: ENTRY_TYPES,
    seq: counters.seq,
    nextId: counters.nextId,
    deadBytes: parts.registers.deadBytes,
    usage: parts.usage,
    registers,
  };
  return { state, numbers, ids };
}

/**
 * The entries' columns as the store keeps them, one place per entry in the order added: the
 * parent's place (-1: a root), seq, timestamp, the type's index in ENTRY_TYPES, and where the
 * payload lies in the file (`starts[at]` to `stops[at]`). A saved index's numbers are unpacked
 * into them; the column scan (column-scan.ts) hands over its own, and restoreState checks either
 * the same way (`checkColumns`).
 */
export interface EntryColumns {
  readonly parentAt: Int32Array;
  readonly seqs: Float64Array;
  readonly timestamps: Float64Array;
  readonly types: Uint8Array;
  readonly starts: Float64Array;
  readonly stops: Float64Array;
}

/**
 * Puts the saved `state` into the empty `parts`, payloads read from `file[0, indexedBytes)`, and
 * returns the counters. `entries` is the index's numbers, or the column scan's own columns (not
 * packed into numbers and unpacked again; checked all the same). Null when the state is not one
 * snapshotState could have made (parts may then hold some of it: the caller drops them).
 */
export function restoreState(
  parts: StoreParts,
  state: unknown,
  id: readonly unknown[],
  entries: Float64Array | EntryColumns,
  file: Buffer,
  indexedBytes: number,
  answerShapes?: Uint8Array,
): Counters | null {
  if (!state || typeof state !== 'object') return null;
  const saved = state as Partial<SavedState>;
  if (!sameTypes(saved.types)) return null;
  if (saved.v !== 4 || !isCount(saved.seq) || !isCount(saved.nextId) || !isCount(saved.deadBytes)) return null;
  if (!Array.isArray(saved.usage) || !Array.isArray(saved.registers)) return null;
  if (!Array.isArray(id)) return null;
  const n = id.length;
  // The entries are checked here, column by column, and built only when read (TreeIndex.addDeferred).
  const columns = entries instanceof Float64Array ? unpack(entries, n) : entries;
  if (columns === null || !sameLength(columns, n)) return null;
  const lastSeq = checkColumns(id, columns, indexedBytes, saved.nextId);
  if (lastSeq === null) return null;
  const { parentAt, seqs, timestamps, types, starts, stops } = columns;
  const ids = id as readonly string[];
  const typeAt = (at: number): string => ENTRY_TYPES[types[at]!]!;
  const make = (at: number): AnyEntry => {
    const up = parentAt[at]!;
    return new ReplayedEntry(
      seqs[at]!,
      timestamps[at]!,
      ids[at]!,
      up < 0 ? null : ids[up]!,
      typeAt(at),
      file,
      starts[at]!,
      stops[at]!,
    ) as unknown as AnyEntry;
  };
  // The column scan read each answer's shape while it had the bytes at hand: the same function of the same bytes.
  const shapes = answerShapes?.length === n ? answerShapes : null;
  const readPayload = <T>(at: number, read: PayloadBytesReader<T>): T =>
    shapes !== null && (read as unknown) === shapeInBytes && shapes[at] !== 0
      ? (shapeOfCode(shapes[at]!) as T)
      : read(file, starts[at]!, stops[at]!);
  if (!parts.tree.addDeferred({ ids, parentAt, typeAt, make, readPayload })) return null;
  if (lastSeq > saved.seq) return null;
  for (const row of saved.usage) {
    if (!row || typeof row !== 'object' || (row as UsageRecord).kind !== 'usage') return null;
    if (!isCount((row as UsageRecord).seq) || (row as UsageRecord).seq > saved.seq) return null;
    if (typeof (row as UsageRecord).id !== 'string' || !belowNextId((row as UsageRecord).id, saved.nextId)) return null;
    parts.usage.push(row);
  }
  for (const namespace of saved.registers) {
    if (!Array.isArray(namespace) || typeof namespace[0] !== 'string' || !Array.isArray(namespace[1])) return null;
    parts.registers.restore(namespace[0], null, null);
    for (const cell of namespace[1] as unknown[]) {
      if (!Array.isArray(cell) || cell.length !== 4 || typeof cell[0] !== 'string' || cell[0] === '') return null;
      if (!isCount(cell[2]) || cell[2] > saved.seq || !isCount(cell[3])) return null;
      const restored: RegisterCell = { value: cell[1], seq: cell[2], bytes: cell[3] };
      parts.registers.restore(namespace[0], cell[0], restored);
    }
  }
  parts.registers.deadBytes = saved.deadBytes;
  return { seq: saved.seq, nextId: saved.nextId };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The saved numbers (see COLUMNS) as the entries' columns, or null where one is not a count of the kind its column holds. */
function unpack(numbers: Float64Array, n: number): EntryColumns | null {
  if (numbers.length !== n * COLUMNS) return null;
  const parentAt = new Int32Array(n);
  const seqs = new Float64Array(n);
  const timestamps = new Float64Array(n);
  const starts = new Float64Array(n);
  const stops = new Float64Array(n);
  const types = new Uint8Array(n);
  let lastSeq = 0;
  let lastTs = 0;
  let end = 0;
  for (let i = 0; i < n; i++) {
    const back = numbers[UP * n + i]!;
    const step = numbers[SEQ * n + i]!;
    const type = numbers[TYPE * n + i]!;
    const gap = numbers[FROM * n + i]!;
    const length = numbers[LEN * n + i]!;
    const tsStep = numbers[TS * n + i]!;
    if (!isCount(back) || back > i || !isCount(step) || step === 0) return null;
    if (ENTRY_TYPES[type] === undefined || !Number.isSafeInteger(tsStep) || !isCount(gap) || !isCount(length))
      return null;
    const start = end + gap;
    lastSeq += step;
    lastTs += tsStep;
    end = start + length;
    parentAt[i] = back === 0 ? -1 : i - back;
    seqs[i] = lastSeq;
    timestamps[i] = lastTs;
    starts[i] = start;
    stops[i] = end;
    types[i] = type;
  }
  return { parentAt, seqs, timestamps, types, starts, stops };
}

function sameLength(columns: EntryColumns, n: number): boolean {
  const { parentAt, seqs, timestamps, types, starts, stops } = columns;
  return [parentAt, seqs, timestamps, types, starts, stops].every((column) => column.length === n);
}

/**
 * The last entry's seq (0: none), or null unless every entry is one snapshotState could have
 * saved: its id a string below the next id, its parent an earlier place or none, seqs increasing,
 * timestamps integers, a known type, and payloads non-empty, in file order, inside the indexed bytes.
 */
function checkColumns(
  id: readonly unknown[],
  columns: EntryColumns,
  indexedBytes: number,
  nextId: number,
): number | null {
  const { parentAt, seqs, timestamps, types, starts, stops } = columns;
  let lastSeq = 0;
  let end = 0;
  for (let i = 0; i < id.length; i++) {
    const entryId = id[i];
    const up = parentAt[i]!;
    const seq = seqs[i]!;
    const start = starts[i]!;
    const stop = stops[i]!;
    if (typeof entryId !== 'string' || up < -1 || up >= i || !Number.isSafeInteger(seq) || seq <= lastSeq) return null;
    if (types[i]! >= ENTRY_TYPES.length || !Number.isSafeInteger(timestamps[i]!)) return null;
    if (!Number.isSafeInteger(start) || start < end || !Number.isSafeInteger(stop) || stop <= start) return null;
    if (stop > indexedBytes || !belowNextId(entryId, nextId)) return null;
    lastSeq = seq;
    end = stop;
  }
  return lastSeq;
}

/** The saved entry type table is this build's, name for name. */
function sameTypes(types: unknown): boolean {
  return Array.isArray(types) && types.length === ENTRY_TYPES.length && ENTRY_TYPES.every((t, i) => types[i] === t);
}

/** The next id number is past this id's, as a replay would have left it (SessionStore's bumpIdCounter). */
function belowNextId(id: string, nextId: number): boolean {
  // tole's own ids read without a string made for each (the same number as below).
  const own = entryNumber(id);
  if (own >= 0) return own < nextId;
  const n = Number(id.slice(2));
  return !Number.isSafeInteger(n) || n < nextId;
}
