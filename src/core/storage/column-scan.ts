/**
 * The first open of a large session without a saved index: the longest run of lines, from the
 * first commit, whose records are written the way tole writes them is read into the columns a
 * saved index holds (store-snapshot.ts), with no object made for an entry or a register record.
 * The store then takes that state in as it takes a saved index's (entries built when read), and
 * the lines after the run replay as before. It is the same state a replay of those lines leaves:
 * a property test holds the two together on random and damaged files.
 *
 * What a replay checks of these lines is checked here, in its order, and the run stops before the
 * first line where anything is out of the ordinary (a seq that does not increase, an id written
 * twice, a parent not there, an unknown type, namespace or op, a shape not tole's): that line and
 * the rest replay record by record, so a problem is named in the same words as without the scan.
 * Strings are only searched for their end: the worker checks every line's frame, CRC chain and
 * strict JSON (verify-aside.ts) before the open keeps any of it, as for any two-thread replay.
 *
 * Register cells keep where their value lies until the run ends: most are overwritten (a lane's
 * leaf in every commit), and only the last value of each is built.
 */
import { familyOf } from '../registers/namespaces';
import { RegisterState } from '../registers/register-state';
import { ENTRY_TYPES } from '../tree/entry-types';
import { entryNumber, IdPlaces } from '../tree/id-places';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  jsonSkipper,
  NINE,
  OPEN_BRACKET,
  QUOTE,
  ZERO,
} from './json-skip';
import { frameCrc, LINE_PREFIX_BYTES } from './line-codec';
import type { UsageRecord } from './records';
import type { SavedIndex } from './session-index';
import * as written from './record-heads';
import { flatObjectLength, grown, plainAscii, sameBytes, startsWith } from './byte-spans';
import { shapeCode } from './answer-shape';

const { skipString, skipValue } = jsonSkipper(true);

/** Where the newline of the line starting at `start` is (waiting for the bytes to be read), or -1. */
export type NewlineFrom = (start: number) => number;

/** A register cell as the scan keeps it: its value as a range of the file until the run ends. */
interface LazyCell {
  from: number;
  to: number;
  seq: number;
  bytes: number;
}

const ASSISTANT = ENTRY_TYPES.indexOf('assistant');

/**
 * Reads the lines from `start` (the first commit line, chained from `headerCrc`) while every record is
 * tole's and a replay would take it. Returns the run as a saved index of the file's first
 * `bytes` bytes (its `lastCrc` the CRC stored on the run's last line), or null when the first
 * line already is not one.
 */
export function scanColumns(
  file: Buffer,
  start: number,
  headerCrc: number,
  newlineFrom: NewlineFrom,
): SavedIndex | null {
  return new ColumnScan(file).run(start, headerCrc, newlineFrom);
}

class ColumnScan {
  private ids: string[] = [];
  private readonly places = new IdPlaces();
  private parentAt = new Int32Array(1024);
  private seqs = new Float64Array(1024);
  private timestamps = new Float64Array(1024);
  private types = new Uint8Array(1024);
  private starts = new Float64Array(1024);
  private stops = new Float64Array(1024);
  /** Answers' shape codes (answer-shape.ts), read while the bytes are at hand: the first frame asks every answer's. */
  private shapes = new Uint8Array(1024);
  private readonly cells = new Map<string, Map<string, LazyCell>>();
  private readonly usage: UsageRecord[] = [];
  private deadBytes = 0;
  private seq = 0;
  private nextId = 1;
  /** Short strings read before (namespaces, keys, types): one string each. */
  private readonly interned: [Buffer, number, number, string][] = [];
  /** Where the value read last ended. */
  private cursor = 0;

  constructor(private readonly file: Buffer) {}

  run(from: number, headerCrc: number, newlineFrom: NewlineFrom): SavedIndex | null {
    const file = this.file;
    let start = from;
    let lines = 0;
    let lastCrc = headerCrc;
    while (start < file.length) {
      const end = newlineFrom(start);
      if (end === -1) break;
      const stored = frameCrc(file, start, end);
      if (stored < 0) break;
      // A line's state is kept only whole: a line with anything out of the ordinary is undone.
      const entries = this.ids.length;
      const usage = this.usage.length;
      const seq = this.seq;
      const nextId = this.nextId;
      const dead = this.deadBytes;
      this.undone = 0;
      if (!this.commit(start + LINE_PREFIX_BYTES, end - 1, end - start + 1)) {
        this.ids.length = entries;
        this.usage.length = usage;
        this.seq = seq;
        this.nextId = nextId;
        this.deadBytes = dead;
        if (!this.undoLine()) return null;
        break;
      }
      lines++;
      lastCrc = stored;
      start = end + 1;
    }
    if (lines === 0) return null;
    return { bytes: start, lastCrc, commitLines: lines, headerCrc, ...this.snapshot() };
  }

  /**
   * What the line being read changed in the register cells, to undo it (arrays kept from line to
   * line): per change, the cells, the key (the namespace for a new one), how it changed, and the
   * cell's four numbers before. The ids the line added stay in `places`: the scan ends after an undo.
   */
  private readonly undoCells: Map<string, LazyCell>[] = [];
  private readonly undoKeys: string[] = [];
  private readonly undoHow: number[] = [];
  private readonly undoNumbers: number[] = [];
  private undone = 0;

  private noteUndo(cells: Map<string, LazyCell>, key: string, how: number, before: LazyCell | null): void {
    const k = this.undone++;
    this.undoCells[k] = cells;
    this.undoKeys[k] = key;
    this.undoHow[k] = how;
    if (before !== null) {
      this.undoNumbers[k * 4] = before.from;
      this.undoNumbers[k * 4 + 1] = before.to;
      this.undoNumbers[k * 4 + 2] = before.seq;
      this.undoNumbers[k * 4 + 3] = before.bytes;
    }
  }

  /** Undoes the line's changes to the cells; false when that cannot keep the cells' order (a key was deleted). */
  private undoLine(): boolean {
    for (let k = this.undone - 1; k >= 0; k--) {
      const cells = this.undoCells[k]!;
      const key = this.undoKeys[k]!;
      const how = this.undoHow[k]!;
      if (how === DELETED) return false;
      if (how === NEW_NAMESPACE) this.cells.delete(key);
      else if (how === NEW_KEY) cells.delete(key);
      else {
        const cell = cells.get(key)!;
        cell.from = this.undoNumbers[k * 4]!;
        cell.to = this.undoNumbers[k * 4 + 1]!;
        cell.seq = this.undoNumbers[k * 4 + 2]!;
        cell.bytes = this.undoNumbers[k * 4 + 3]!;
      }
    }
    return true;
  }

  /** Reads the commit in `file[from, to)` (between the frame and its closing `}`); false when the scan stops before it. */
  private commit(from: number, to: number, lineBytes: number): boolean {
    const file = this.file;
    if (file[from] !== OPEN_BRACKET) return this.record(from, to) && this.cursor === to && this.apply(lineBytes);
    let i = from + 1;
    for (let first = true; ; first = false) {
      if (!this.record(i, to)) return false;
      i = this.cursor;
      // A lone record owns its whole line; inside a transaction a register's share is estimated.
      const lone = first && file[i] === CLOSE_BRACKET;
      if (!this.apply(lone ? lineBytes : -1)) return false;
      if (file[i] === COMMA && i < to) {
        i++;
        continue;
      }
      return file[i] === CLOSE_BRACKET && i + 1 === to;
    }
  }

  /** One record at `from`, read and checked; an entry or usage row applied, a register left for `apply`. */
  private record(from: number, to: number): boolean {
    const file = this.file;
    this.pending = null;
    if (startsWith(file, from, to, written.ENTRY_HEAD)) return this.entry(from + written.ENTRY_HEAD.length, to);
    if (startsWith(file, from, to, written.REGISTER_SEQ_HEAD))
      return this.register(from + written.REGISTER_SEQ_HEAD.length, to, true);
    if (startsWith(file, from, to, written.REGISTER_OP_HEAD))
      return this.register(from + written.REGISTER_OP_HEAD.length, to, false);
    if (startsWith(file, from, to, written.USAGE_HEAD)) return this.usageRow(from, to);
    return false;
  }

  private entry(i: number, to: number): boolean {
    const file = this.file;
    const seq = this.integerAt(i, to);
    if (seq === null || seq <= this.seq || !startsWith(file, this.cursor, to, written.AFTER_TIMESTAMP)) return false;
    const timestamp = this.integerAt(this.cursor + written.AFTER_TIMESTAMP.length, to);
    if (timestamp === null || !startsWith(file, this.cursor, to, written.AFTER_ID)) return false;
    const id = this.stringAt(this.cursor + written.AFTER_ID.length, to, false);
    if (id === null || !startsWith(file, this.cursor, to, written.AFTER_PARENT)) return false;
    const at = this.ids.length;
    const parentFrom = this.cursor + written.AFTER_PARENT.length;
    let parent = -1;
    if (startsWith(file, parentFrom, to, written.NULL)) this.cursor = parentFrom + written.NULL.length;
    else {
      const parentId =
        at > 0 && this.sameAsLastId(parentFrom, to) ? this.ids[at - 1]! : this.stringAt(parentFrom, to, false);
      if (parentId === null) return false;
      parent = parentId === this.ids[at - 1] ? at - 1 : (this.places.get(parentId) ?? -2);
      if (parent === -2 || parent >= at) return false;
    }
    if (!startsWith(file, this.cursor, to, written.AFTER_TYPE)) return false;
    const typeFrom = this.cursor + written.AFTER_TYPE.length;
    let type = 0;
    while (type < written.QUOTED_TYPES.length && !startsWith(file, typeFrom, to, written.QUOTED_TYPES[type]!)) type++;
    if (type === written.QUOTED_TYPES.length) return false;
    this.cursor = typeFrom + written.QUOTED_TYPES[type]!.length;
    if (!startsWith(file, this.cursor, to, written.AFTER_PAYLOAD)) return false;
    const payloadFrom = this.cursor + written.AFTER_PAYLOAD.length;
    const payloadTo = skipValue(file, payloadFrom, to);
    if (payloadTo < 0 || file[payloadTo] !== CLOSE_BRACE || payloadTo >= to) return false;
    // Written twice: the replay names it.
    if (!this.places.add(id, at)) return false;
    this.cursor = payloadTo + 1;
    this.grow(at);
    this.ids.push(id);
    this.parentAt[at] = parent;
    this.seqs[at] = seq;
    this.timestamps[at] = timestamp;
    this.types[at] = type;
    this.starts[at] = payloadFrom;
    this.stops[at] = payloadTo;
    this.shapes[at] = type === ASSISTANT ? shapeCode(file, payloadFrom, payloadTo) : 0;
    this.seq = seq;
    this.bump(id);
    return true;
  }

  /** The register record read last, until `apply` applies it (none: null). */
  private pending: RegisterRead | null = null;
  private readonly read: RegisterRead = { set: true, seq: 0, namespace: '', key: '', from: -1, to: -1 };

  private register(i: number, to: number, seqFirst: boolean): boolean {
    const file = this.file;
    let seq: number | null;
    let set: boolean | null;
    if (seqFirst) {
      seq = this.integerAt(i, to);
      if (seq === null || !startsWith(file, this.cursor, to, written.AFTER_SEQ_OP)) return false;
      set = this.opAt(this.cursor + written.AFTER_SEQ_OP.length, to);
    } else {
      set = this.opAt(i, to);
      if (set === null || !startsWith(file, this.cursor, to, written.AFTER_OP_SEQ)) return false;
      seq = this.integerAt(this.cursor + written.AFTER_OP_SEQ.length, to);
    }
    if (seq === null || set === null || seq <= this.seq || !startsWith(file, this.cursor, to, written.AFTER_NAMESPACE))
      return false;
    const namespace = this.stringAt(this.cursor + written.AFTER_NAMESPACE.length, to, true);
    if (namespace === null || familyOf(namespace) === null || !startsWith(file, this.cursor, to, written.AFTER_KEY))
      return false;
    const key = this.stringAt(this.cursor + written.AFTER_KEY.length, to, true);
    if (key === null || key === '') return false;
    let from = -1;
    let valueTo = -1;
    if (file[this.cursor] === CLOSE_BRACE && this.cursor < to) this.cursor++;
    else {
      if (!startsWith(file, this.cursor, to, written.AFTER_VALUE)) return false;
      from = this.cursor + written.AFTER_VALUE.length;
      valueTo = skipValue(file, from, to);
      if (valueTo < 0 || file[valueTo] !== CLOSE_BRACE || valueTo >= to) return false;
      this.cursor = valueTo + 1;
    }
    const read = this.read;
    read.set = set;
    read.seq = seq;
    read.namespace = namespace;
    read.key = key;
    read.from = from;
    read.to = valueTo;
    this.pending = read;
    this.seq = seq;
    return true;
  }

  /**
   * RegisterState.apply of the register record read last, if it was one, its value left where it
   * lies; `lineBytes` is -1 inside a transaction (the record's share is then estimated).
   */
  private apply(lineBytes: number): boolean {
    const record = this.pending;
    if (record === null) return true;
    this.pending = null;
    const { set, seq, namespace, key, from, to } = record;
    const bytes = lineBytes >= 0 ? lineBytes : this.estimateBytes(namespace, key, set, from, to);
    let cells = this.cells.get(namespace);
    const previous = cells?.get(key);
    if (previous) this.deadBytes += previous.bytes;
    if (!set) {
      if (previous) {
        this.noteUndo(cells!, key, DELETED, previous);
        cells!.delete(key);
      }
      this.deadBytes += bytes;
      return true;
    }
    if (!cells) {
      cells = new Map();
      this.cells.set(namespace, cells);
      this.noteUndo(cells, namespace, NEW_NAMESPACE, null);
    }
    if (previous) {
      this.noteUndo(cells, key, CHANGED, previous);
      previous.from = from;
      previous.to = to;
      previous.seq = seq;
      previous.bytes = bytes;
    } else {
      cells.set(key, { from, to, seq, bytes });
      this.noteUndo(cells, key, NEW_KEY, null);
    }
    return true;
  }

  /** RegisterState.estimateBytes of the record, read from its bytes where they say it plainly. */
  private estimateBytes(namespace: string, key: string, set: boolean, from: number, to: number): number {
    const overhead = 72 + namespace.length + key.length;
    if (!set) return overhead;
    if (from < 0) return overhead + 16;
    const c = this.file[from];
    if (c === QUOTE && plainAscii(this.file, from + 1, to - 1)) return overhead + to - from;
    const flat = c === 0x7b ? flatObjectLength(this.file, from, to) : -1;
    if (flat >= 0) return overhead + flat;
    const value = this.valueOf(from, to);
    return RegisterState.estimateBytes({ kind: 'register', op: 'set', seq: 0, namespace, key, value });
  }

  private usageRow(from: number, to: number): boolean {
    const end = skipValue(this.file, from, to);
    if (end < 0) return false;
    let row: unknown;
    try {
      row = this.valueOf(from, end);
    } catch {
      return false;
    }
    const usage = row as Partial<UsageRecord>;
    if (!row || typeof row !== 'object' || usage.kind !== 'usage' || typeof usage.id !== 'string') return false;
    if (!Number.isSafeInteger(usage.seq) || usage.seq! <= this.seq) return false;
    this.cursor = end;
    this.usage.push(row as UsageRecord);
    this.seq = usage.seq!;
    this.bump(usage.id);
    return true;
  }

  /** SessionStore's bumpIdCounter (tole's own ids read without a string made for each: the same number). */
  private bump(id: string): void {
    const own = entryNumber(id);
    const n = own >= 0 ? own : Number(id.slice(2));
    if (Number.isSafeInteger(n) && n >= this.nextId) this.nextId = n + 1;
  }

  private valueOf(from: number, to: number): unknown {
    return JSON.parse(this.file.toString('utf8', from, to));
  }

  /** `"set"` (true) or `"delete"` (false) at `i`, or null. */
  private opAt(i: number, to: number): boolean | null {
    if (startsWith(this.file, i, to, written.SET)) {
      this.cursor = i + written.SET.length;
      return true;
    }
    if (startsWith(this.file, i, to, written.DELETE)) {
      this.cursor = i + written.DELETE.length;
      return false;
    }
    return null;
  }

  /** A plain integer of up to 15 digits at `i`, followed by `,` or `}`, or null (as lazy-commit.ts reads one). */
  private integerAt(i: number, to: number): number | null {
    const file = this.file;
    let end = i;
    let n = 0;
    while (end < to && file[end]! >= ZERO && file[end]! <= NINE) n = n * 10 + (file[end++]! - ZERO);
    const next = end < to ? file[end] : -1;
    if ((next !== COMMA && next !== CLOSE_BRACE) || end === i || end - i > 15) return null;
    if (file[i] === ZERO && end - i > 1) return null;
    this.cursor = end;
    return n;
  }

  /** A JSON string without escapes at `i`, as its text, or null; `intern`: one string for the same bytes. */
  private stringAt(i: number, to: number, intern: boolean): string | null {
    const file = this.file;
    if (i >= to || file[i] !== QUOTE) return null;
    const end = skipString(file, i, to);
    if (end < 0 || end > to) return null;
    this.cursor = end;
    if (intern) {
      for (const [bytes, from, length, text] of this.interned) {
        if (length === end - i && sameBytes(file, i, bytes, from, length)) return text;
      }
    }
    let ascii = true;
    for (let k = i + 1; k < end - 1; k++) {
      const c = file[k]!;
      if (c === BACKSLASH) return null;
      if (c >= 0x80) ascii = false;
    }
    const text = file.toString(ascii ? 'latin1' : 'utf8', i + 1, end - 1);
    if (intern && this.interned.length < 64) this.interned.push([file, i, end - i, text]);
    return text;
  }

  /** The bytes at `from` are the last entry's id, quoted. */
  private sameAsLastId(from: number, to: number): boolean {
    const at = this.ids.length - 1;
    const id = this.ids[at]!;
    if (from + id.length + 2 > to || this.file[from] !== QUOTE || this.file[from + id.length + 1] !== QUOTE)
      return false;
    for (let k = 0; k < id.length; k++) {
      const c = id.charCodeAt(k);
      if (c >= 0x80 || this.file[from + 1 + k] !== c) return false;
    }
    this.cursor = from + id.length + 2;
    return true;
  }

  private grow(at: number): void {
    if (at < this.parentAt.length) return;
    const size = this.parentAt.length * 2;
    this.parentAt = grown(this.parentAt, new Int32Array(size));
    this.seqs = grown(this.seqs, new Float64Array(size));
    this.timestamps = grown(this.timestamps, new Float64Array(size));
    this.types = grown(this.types, new Uint8Array(size));
    this.starts = grown(this.starts, new Float64Array(size));
    this.stops = grown(this.stops, new Float64Array(size));
    this.shapes = grown(this.shapes, new Uint8Array(size));
  }

  /**
   * The run as a saved index's parts: the entries' columns handed over as they are (restoreState
   * checks them as it checks a saved index's numbers, which are left empty), register values
   * built now, the last of each cell only.
   */
  private snapshot(): Pick<SavedIndex, 'state' | 'numbers' | 'columns' | 'ids' | 'answerShapes'> {
    const n = this.ids.length;
    const columns = {
      parentAt: this.parentAt.subarray(0, n),
      seqs: this.seqs.subarray(0, n),
      timestamps: this.timestamps.subarray(0, n),
      types: this.types.subarray(0, n),
      starts: this.starts.subarray(0, n),
      stops: this.stops.subarray(0, n),
    };
    const registers: [string, [string, unknown, number, number][]][] = [];
    for (const [namespace, cells] of this.cells) {
      const kept: [string, unknown, number, number][] = [];
      for (const [key, cell] of cells) {
        kept.push([key, cell.from < 0 ? undefined : this.valueOf(cell.from, cell.to), cell.seq, cell.bytes]);
      }
      registers.push([namespace, kept]);
    }
    const state = {
      v: 4,
      types: ENTRY_TYPES,
      seq: this.seq,
      nextId: this.nextId,
      deadBytes: this.deadBytes,
      usage: this.usage,
      registers,
    };
    return { state, numbers: new Float64Array(0), columns, ids: this.ids, answerShapes: this.shapes.subarray(0, n) };
  }
}

type RegisterRead = { set: boolean; seq: number; namespace: string; key: string; from: number; to: number };

/** How a line changed a register cell (see ColumnScan's undo arrays). */
const [NEW_NAMESPACE, NEW_KEY, CHANGED, DELETED] = [0, 1, 2, 3];
