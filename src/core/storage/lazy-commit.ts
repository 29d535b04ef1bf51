/**
 * Reading a commit's JSON without building its entry payloads. A replay needs every record's
 * envelope (kind, seq, ids, type: what the tree, the registers and the checks use) but the
 * payloads (the text of prompts, answers and tool output, nearly all of a session's bytes) only
 * when they are shown. So the commit is scanned once, byte by byte, and checked to be JSON as
 * strictly as `JSON.parse` checks it (json-skip.ts); an entry written the way tole writes it
 * (its keys in tole's order, plain envelope values) becomes a ReplayedEntry whose payload stays
 * as the bytes in the file until it is first read. Other records of known keys are built key by
 * key (values other than plain strings and integers parsed on their own).
 *
 * Anything else (a commit that is not an object or an array of objects, an unknown or escaped
 * key) is parsed whole by `JSON.parse`, so the records always equal what `JSON.parse` of the
 * line gives, key order included; a property test holds the two together.
 */
import { NS } from '../registers/namespaces';
import { ENTRY_TYPES } from '../tree/entry-types';
import {
  at,
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  jsonSkipper,
  NINE,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  skipSpace,
  ZERO,
} from './json-skip';
import type { Commit } from './records';
import { ReplayedEntry } from './replayed-entry';
import {
  ENTRY_HEAD,
  REGISTER_SEQ_HEAD,
  REGISTER_OP_HEAD,
  AFTER_SEQ_OP,
  AFTER_OP_SEQ,
  AFTER_TIMESTAMP,
  AFTER_ID,
  AFTER_PARENT,
  AFTER_TYPE,
  AFTER_PAYLOAD,
  AFTER_NAMESPACE,
  AFTER_KEY,
  AFTER_VALUE,
} from './record-heads';

const STRICT = jsonSkipper(false);
const TRUSTING = jsonSkipper(true);
/** The skipper of the commit being read: the trusting one reads text that a worker checks (verify-aside.ts). */
let skipString = STRICT.skipString;
let skipValue = STRICT.skipValue;

/** `JSON.parse` of the commit text would throw: the line is not JSON. */
export const NOT_JSON: unique symbol = Symbol('not JSON');
/** The scan gives up on this shape and the caller parses the text whole. */
const FALLBACK: unique symbol = Symbol('fallback');

/**
 * The commit in `line[start, end)` (a line between its checksum prefix and its closing `}`),
 * with entry payloads left unparsed, or NOT_JSON. `trusted`: another thread checks the text is
 * JSON (verify-aside.ts), so strings are only searched for their end; text that is not JSON may
 * then be read as something, and the caller keeps nothing unless that check passes.
 */
export function decodeCommitBody(
  line: Buffer,
  start = 0,
  end = line.length,
  trusted = false,
): Commit | typeof NOT_JSON {
  const skipper = trusted ? TRUSTING : STRICT;
  skipString = skipper.skipString;
  skipValue = skipper.skipValue;
  // Entries keep the whole read chunk and offsets into it, not a Buffer object each.
  const whole = wholeBufferOf(line);
  const offset = line.byteOffset - whole.byteOffset;
  let fast: Commit | typeof FALLBACK;
  try {
    fast = scanCommit(whole, offset + start, offset + end);
  } catch {
    fast = FALLBACK;
  }
  if (fast !== FALLBACK) return fast;
  try {
    return JSON.parse(line.toString('utf8', start, end)) as Commit;
  } catch {
    return NOT_JSON;
  }
}

let lastWhole: Buffer = Buffer.alloc(0);

function wholeBufferOf(line: Buffer): Buffer {
  if (lastWhole.buffer !== line.buffer) lastWhole = Buffer.from(line.buffer, 0, line.buffer.byteLength);
  return lastWhole;
}

function scanCommit(body: Buffer, start: number, end: number): Commit | typeof FALLBACK {
  let i = skipSpace(body, start, end);
  if (at(body, i, end) === OPEN_BRACE) {
    const record = scanRecord(body, i, end);
    if (record === FALLBACK || skipSpace(body, cursor, end) !== end) return FALLBACK;
    return record as Commit;
  }
  if (at(body, i, end) !== OPEN_BRACKET) return FALLBACK;
  const records: unknown[] = [];
  i = skipSpace(body, i + 1, end);
  for (;;) {
    if (at(body, i, end) !== OPEN_BRACE) return FALLBACK;
    const record = scanRecord(body, i, end);
    if (record === FALLBACK) return FALLBACK;
    records.push(record);
    i = skipSpace(body, cursor, end);
    if (at(body, i, end) === COMMA) {
      i = skipSpace(body, i + 1, end);
      continue;
    }
    if (at(body, i, end) !== CLOSE_BRACKET) return FALLBACK;
    break;
  }
  return skipSpace(body, i + 1, end) === end ? (records as Commit) : FALLBACK;
}

/** Where the last scan stopped (one past what it read). Module state: the scan never nests. */
let cursor = 0;

/** Where each key and value of the record being scanned lies: [keyStart, keyEnd, valueStart, valueEnd]. */
const MAX_KEYS = 16;
const spans = new Int32Array(MAX_KEYS * 4);

/** One object at `body[start]`: an entry written the way tole writes them keeps its payload as bytes. */
function scanRecord(body: Buffer, start: number, end: number): unknown {
  const asWritten = recordAsWritten(body, start, end);
  if (asWritten !== null) return asWritten;
  let i = skipSpace(body, start + 1, end);
  if (at(body, i, end) === CLOSE_BRACE) return FALLBACK;
  let keys = 0;
  for (;;) {
    if (at(body, i, end) !== QUOTE) return FALLBACK;
    const keyStart = i;
    i = skipString(body, i, end);
    if (i < 0) return FALLBACK;
    const keyEnd = i;
    i = skipSpace(body, i, end);
    if (at(body, i, end) !== COLON) return FALLBACK;
    const valueStart = skipSpace(body, i + 1, end);
    const valueEnd = skipValue(body, valueStart, end);
    if (valueEnd < 0) return FALLBACK;
    if (keys < MAX_KEYS) {
      spans[keys * 4] = keyStart;
      spans[keys * 4 + 1] = keyEnd;
      spans[keys * 4 + 2] = valueStart;
      spans[keys * 4 + 3] = valueEnd;
    }
    keys++;
    i = skipSpace(body, valueEnd, end);
    if (at(body, i, end) === COMMA) {
      i = skipSpace(body, i + 1, end);
      continue;
    }
    if (at(body, i, end) !== CLOSE_BRACE) return FALLBACK;
    break;
  }
  cursor = i + 1;
  if (keys > MAX_KEYS) return JSON.parse(body.toString('utf8', start, cursor));
  return (
    (keys === ENTRY_KEYS.length && replayedEntry(body)) ||
    flatRecord(body, keys) ||
    JSON.parse(body.toString('utf8', start, cursor))
  );
}

/** Key names of the records tole writes, by length: a record with other keys is parsed whole. */
const KNOWN_KEYS: (readonly [Buffer, string])[][] = [];
for (const key of [
  'kind',
  'seq',
  'op',
  'namespace',
  'key',
  'value',
  'id',
  'entryId',
  'usage',
  'timestamp',
  'parentId',
  'lane',
  'pc',
  'callId',
  'type',
  'payload',
]) {
  const quoted = Buffer.from(JSON.stringify(key), 'latin1');
  (KNOWN_KEYS[quoted.length] ??= []).push([quoted, key]);
}

function knownKey(body: Buffer, from: number, to: number): string | null {
  for (const [bytes, key] of KNOWN_KEYS[to - from] ?? []) if (sameBytes(body, from, bytes)) return key;
  return null;
}

/**
 * A record of known keys built key by key in the file's order, as `JSON.parse` builds it (a
 * repeated key keeps its first place and its last value there too). Null when a key is not known.
 */
function flatRecord(body: Buffer, keys: number): Record<string, unknown> | null {
  const record: Record<string, unknown> = {};
  for (let k = 0; k < keys; k++) {
    const key = knownKey(body, spans[k * 4]!, spans[k * 4 + 1]!);
    if (key === null) return null;
    record[key] = plainValue(body, spans[k * 4 + 2]!, spans[k * 4 + 3]!);
  }
  return record;
}

/** A value already checked to be JSON: plain strings, integers and small flat objects built here, the rest parsed. */
function plainValue(body: Buffer, from: number, to: number): unknown {
  const c = body[from];
  if (c === QUOTE) return plainString(body, from, to) ?? parseSlice(body, from, to);
  if (c === OPEN_BRACE) return smallObject(body, from, to) ?? parseSlice(body, from, to);
  // true, false and null (checked already: the first letter says which).
  if (c === 0x74) return true;
  if (c === 0x66) return false;
  if (c === 0x6e) return null;
  return plainInteger(body, from, to) ?? parseSlice(body, from, to);
}

function parseSlice(body: Buffer, from: number, to: number): unknown {
  return JSON.parse(body.toString('utf8', from, to));
}

/** An object of known keys and plain string or integer values (a lane head, a machine state); else undefined. */
function smallObject(body: Buffer, from: number, to: number): Record<string, unknown> | undefined {
  const object: Record<string, unknown> = {};
  let i = skipSpace(body, from + 1, to);
  if (at(body, i, to) === CLOSE_BRACE) return object;
  for (;;) {
    const keyEnd = skipString(body, i, to);
    if (keyEnd < 0) return undefined;
    const key = knownKey(body, i, keyEnd);
    if (key === null) return undefined;
    const valueStart = skipSpace(body, skipSpace(body, keyEnd, to) + 1, to);
    const valueEnd = skipValue(body, valueStart, to);
    if (valueEnd < 0) return undefined;
    const value = plainString(body, valueStart, valueEnd) ?? plainInteger(body, valueStart, valueEnd);
    if (value === null) return undefined;
    object[key] = value;
    i = skipSpace(body, valueEnd, to);
    if (at(body, i, to) === CLOSE_BRACE) return object;
    i = skipSpace(body, i + 1, to);
  }
}

/** The keys of an entry record, in the order tole writes them (kind and seq first, payload last). */
const ENTRY_KEYS = ['kind', 'seq', 'timestamp', 'id', 'parentId', 'type', 'payload'].map((key) =>
  Buffer.from(JSON.stringify(key), 'latin1'),
);
const ENTRY_KIND = Buffer.from('"entry"', 'latin1');
const NULL_BYTES = Buffer.from('null', 'latin1');

/**
 * The scanned record as a ReplayedEntry, when it has exactly the keys of an entry in tole's order
 * with plain values; null for anything else (which `JSON.parse` then reads whole).
 */
function replayedEntry(body: Buffer): ReplayedEntry | null {
  for (let k = 0; k < ENTRY_KEYS.length; k++) if (!spanIs(body, k * 4, ENTRY_KEYS[k]!)) return null;
  if (!spanIs(body, 2, ENTRY_KIND)) return null;
  const seq = plainInteger(body, spans[6]!, spans[7]!);
  const timestamp = plainInteger(body, spans[10]!, spans[11]!);
  const id = plainString(body, spans[14]!, spans[15]!);
  if (id === null) return null;
  const root = spanIs(body, 18, NULL_BYTES);
  const parentId = root ? null : plainString(body, spans[18]!, spans[19]!);
  const type = plainString(body, spans[22]!, spans[23]!);
  if (seq === null || timestamp === null || (!root && parentId === null) || type === null) return null;
  lastId = id;
  lastIdBytes = body;
  lastIdFrom = spans[14]!;
  lastIdTo = spans[15]!;
  return new ReplayedEntry(seq, timestamp, id, parentId, type, body, spans[26]!, spans[27]!);
}

function spanIs(body: Buffer, at: number, bytes: Buffer): boolean {
  return spans[at + 1]! - spans[at]! === bytes.length && sameBytes(body, spans[at]!, bytes);
}

/** Byte by byte: these are a few bytes each, shorter than a call into Buffer#compare. */
function sameBytes(body: Buffer, from: number, bytes: Buffer): boolean {
  for (let k = 0; k < bytes.length; k++) if (body[from + k] !== bytes[k]) return false;
  return true;
}

/** A JSON integer of up to 15 digits (exact as a double), or null for any other number or value. */
function plainInteger(body: Buffer, from: number, to: number): number | null {
  if (to - from > 15 || to === from) return null;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = body[i]!;
    if (c < ZERO || c > NINE) return null;
    n = n * 10 + (c - ZERO);
  }
  return body[from] === ZERO && to - from > 1 ? null : n;
}

/** Short strings every record repeats (kinds, types, namespaces, the main lane): one string each. */
const KNOWN_VALUES: (readonly [Buffer, string])[][] = [];
for (const value of [
  'entry',
  'register',
  'usage',
  'set',
  'delete',
  'main',
  'head',
  'state',
  ...ENTRY_TYPES,
  ...Object.values(NS),
]) {
  const quoted = Buffer.from(JSON.stringify(value), 'utf8');
  (KNOWN_VALUES[quoted.length] ??= []).push([quoted, value]);
}

/** The id of the entry read last, and where its bytes are: its child names it next. */
let lastId = '';
let lastIdBytes: Buffer = Buffer.alloc(0);
let lastIdFrom = 0;
let lastIdTo = 0;

function sameAsLastId(body: Buffer, from: number, to: number): boolean {
  if (to - from !== lastIdTo - lastIdFrom) return false;
  for (let k = 0; k < to - from; k++) if (body[from + k] !== lastIdBytes[lastIdFrom + k]) return false;
  return true;
}

/** A JSON string without escapes, as its text; null for anything else. */
function plainString(body: Buffer, from: number, to: number): string | null {
  if (body[from] !== QUOTE) return null;
  const known = KNOWN_VALUES[to - from];
  if (known !== undefined) {
    for (const [bytes, value] of known) if (sameBytes(body, from, bytes)) return value;
  }
  if (sameAsLastId(body, from, to)) return lastId;
  let ascii = true;
  for (let i = from + 1; i < to - 1; i++) {
    const c = body[i]!;
    if (c === BACKSLASH) return null;
    if (c >= 0x80) ascii = false;
  }
  return body.toString(ascii ? 'latin1' : 'utf8', from + 1, to - 1);
}

/**
 * An entry or register record exactly as tole writes it (its keys in tole's order, no spaces,
 * plain values) read straight through, without noting where each key and value lies first (the
 * general scan below); null for anything else, which the general scan then reads. Values are
 * checked by the same skipper, so what this accepts the general scan reads the same.
 */
function recordAsWritten(body: Buffer, start: number, end: number): unknown {
  if (startsWith(body, start, end, ENTRY_HEAD)) return entryAsWritten(body, start + ENTRY_HEAD.length, end);
  if (startsWith(body, start, end, REGISTER_SEQ_HEAD))
    return registerAsWritten(body, start + REGISTER_SEQ_HEAD.length, end, true);
  if (startsWith(body, start, end, REGISTER_OP_HEAD))
    return registerAsWritten(body, start + REGISTER_OP_HEAD.length, end, false);
  return null;
}

/** True when `bytes` stand at `body[at]`, wholly before `end` (the buffer goes on past it). */
function startsWith(body: Buffer, at: number, end: number, bytes: Buffer): boolean {
  return at + bytes.length <= end && sameBytes(body, at, bytes);
}

/** Where the value read last by `integerAt` or `stringAt` ended. */
let valueEnd = 0;

/** A plain integer at `i` followed by `,` or `}`, or null. */
function integerAt(body: Buffer, i: number, end: number): number | null {
  let to = i;
  while (to < end && body[to]! >= ZERO && body[to]! <= NINE) to++;
  const next = at(body, to, end);
  if (next !== COMMA && next !== CLOSE_BRACE) return null;
  valueEnd = to;
  return plainInteger(body, i, to);
}

/** A JSON string without escapes at `i`, as its text, or null. */
function stringAt(body: Buffer, i: number, end: number): string | null {
  if (at(body, i, end) !== QUOTE) return null;
  const to = skipString(body, i, end);
  if (to < 0) return null;
  valueEnd = to;
  return plainString(body, i, to);
}

function entryAsWritten(body: Buffer, i: number, end: number): ReplayedEntry | null {
  const seq = integerAt(body, i, end);
  if (seq === null || !startsWith(body, valueEnd, end, AFTER_TIMESTAMP)) return null;
  const timestamp = integerAt(body, valueEnd + AFTER_TIMESTAMP.length, end);
  if (timestamp === null || !startsWith(body, valueEnd, end, AFTER_ID)) return null;
  const idFrom = valueEnd + AFTER_ID.length;
  const id = stringAt(body, idFrom, end);
  if (id === null) return null;
  const idTo = valueEnd;
  if (!startsWith(body, valueEnd, end, AFTER_PARENT)) return null;
  const parentAt = valueEnd + AFTER_PARENT.length;
  let parentId: string | null = null;
  if (startsWith(body, parentAt, end, NULL_BYTES)) valueEnd = parentAt + NULL_BYTES.length;
  else if ((parentId = stringAt(body, parentAt, end)) === null) return null;
  if (!startsWith(body, valueEnd, end, AFTER_TYPE)) return null;
  const type = stringAt(body, valueEnd + AFTER_TYPE.length, end);
  if (type === null || !startsWith(body, valueEnd, end, AFTER_PAYLOAD)) return null;
  const payloadFrom = valueEnd + AFTER_PAYLOAD.length;
  const payloadTo = skipValue(body, payloadFrom, end);
  if (payloadTo < 0 || at(body, payloadTo, end) !== CLOSE_BRACE) return null;
  cursor = payloadTo + 1;
  lastId = id;
  lastIdBytes = body;
  lastIdFrom = idFrom;
  lastIdTo = idTo;
  return new ReplayedEntry(seq, timestamp, id, parentId, type, body, payloadFrom, payloadTo);
}

function registerAsWritten(body: Buffer, i: number, end: number, seqFirst: boolean): unknown {
  let seq: number | null;
  let op: string | null;
  if (seqFirst) {
    seq = integerAt(body, i, end);
    if (seq === null || !startsWith(body, valueEnd, end, AFTER_SEQ_OP)) return null;
    op = stringAt(body, valueEnd + AFTER_SEQ_OP.length, end);
  } else {
    op = stringAt(body, i, end);
    if (op === null || !startsWith(body, valueEnd, end, AFTER_OP_SEQ)) return null;
    seq = integerAt(body, valueEnd + AFTER_OP_SEQ.length, end);
  }
  if (seq === null || op === null || !startsWith(body, valueEnd, end, AFTER_NAMESPACE)) return null;
  const namespace = stringAt(body, valueEnd + AFTER_NAMESPACE.length, end);
  if (namespace === null || !startsWith(body, valueEnd, end, AFTER_KEY)) return null;
  const key = stringAt(body, valueEnd + AFTER_KEY.length, end);
  if (key === null) return null;
  if (at(body, valueEnd, end) === CLOSE_BRACE) {
    cursor = valueEnd + 1;
    return seqFirst ? { kind: 'register', seq, op, namespace, key } : { kind: 'register', op, seq, namespace, key };
  }
  if (!startsWith(body, valueEnd, end, AFTER_VALUE)) return null;
  const from = valueEnd + AFTER_VALUE.length;
  const to = skipValue(body, from, end);
  if (to < 0 || at(body, to, end) !== CLOSE_BRACE) return null;
  cursor = to + 1;
  const value = plainValue(body, from, to);
  return seqFirst
    ? { kind: 'register', seq, op, namespace, key, value }
    : { kind: 'register', op, seq, namespace, key, value };
}
