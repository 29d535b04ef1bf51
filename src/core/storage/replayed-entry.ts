/**
 * An entry read back from a session file whose payload is still the bytes there, parsed on first
 * read and dropped back to bytes when too many are parsed at once (or on `dropPayloads`).
 */
import { StorageError } from './errors';

const UNPARSED: unique symbol = Symbol('unparsed');

/**
 * An entry read back from the file, its payload still the bytes there. Its fields, payload
 * included, are own enumerable properties in the order `JSON.parse` gives them, so spreading it,
 * `JSON.stringify` and deep equality see the same object eager parsing would have made. The
 * payload is a getter shared by every instance (so they share one hidden class): parsed on first
 * read, and kept until dropped.
 */
export class ReplayedEntry {
  declare readonly kind: 'entry';
  declare readonly seq: number;
  declare readonly timestamp: number;
  declare readonly id: string;
  declare readonly parentId: string | null;
  declare readonly type: string;
  declare readonly payload: unknown;
  #bytes: Buffer;
  #start: number;
  #end: number;
  #value: unknown = UNPARSED;

  constructor(
    seq: number,
    timestamp: number,
    id: string,
    parentId: string | null,
    type: string,
    bytes: Buffer,
    start: number,
    end: number,
  ) {
    const self = this as { -readonly [K in 'kind' | 'seq' | 'timestamp' | 'id' | 'parentId' | 'type']: unknown };
    self.kind = 'entry';
    self.seq = seq;
    self.timestamp = timestamp;
    self.id = id;
    self.parentId = parentId;
    self.type = type;
    Object.defineProperty(this, 'payload', ReplayedEntry.payloadProperty);
    this.#bytes = bytes;
    this.#start = start;
    this.#end = end;
  }

  static readonly payloadProperty: PropertyDescriptor = {
    get(this: ReplayedEntry): unknown {
      return this.#payload();
    },
    enumerable: true,
    configurable: true,
  };

  #payload(): unknown {
    if (this.#value === UNPARSED) {
      this.#value = this.#parse();
      noteParsed(this, this.#end - this.#start);
    }
    return this.#value;
  }

  #parse(): unknown {
    try {
      return JSON.parse(this.#bytes.toString('utf8', this.#start, this.#end));
    } catch (error) {
      throw payloadNotJson(this.#bytes, this.#start, this.id, error);
    }
  }

  /** The payload, parsed for this one read when it is still bytes: not kept, not counted in the budget. */
  static passingPayload(entry: ReplayedEntry): unknown {
    return entry.#value === UNPARSED ? entry.#parse() : entry.#value;
  }

  /** Where the payload's bytes are: the buffer the entry reads, and the range in it. */
  static rangeOf(entry: ReplayedEntry): readonly [Buffer, number, number] {
    return [entry.#bytes, entry.#start, entry.#end];
  }

  static isUnparsed(entry: ReplayedEntry): boolean {
    return entry.#value === UNPARSED;
  }

  static drop(entry: ReplayedEntry): number {
    entry.#value = UNPARSED;
    return entry.#end - entry.#start;
  }
}

/** The session file whose whole bytes a memory holds (`nameFile`), for the error below. */
const fileNames = new WeakMap<ArrayBufferLike, { readonly path: string; readonly offset: number }>();

/** `bytes` hold the whole session file at `path` (entries' payloads are ranges of it, or of parts of it). */
export function nameFile(bytes: Buffer, path: string): void {
  fileNames.set(bytes.buffer, { path, offset: bytes.byteOffset });
}

/**
 * A payload that is not JSON: its line's JSON was not checked at the open because a saved index
 * covered it (verify-aside.ts), and only a forged index or forged CRCs let such bytes through.
 * Named with its file and line and what to do; nothing in the file is touched.
 */
function payloadNotJson(bytes: Buffer, start: number, id: string, cause: unknown): StorageError {
  const file = fileNames.get(bytes.buffer);
  if (file === undefined)
    return new StorageError(
      'corrupt',
      `the payload of entry ${JSON.stringify(id)} is not JSON (a forged index or checksums); nothing was changed: move the session's .index aside and open it again, which checks every line`,
      { cause, ownRemedy: true },
    );
  const { path, offset } = file;
  const whole = Buffer.from(bytes.buffer, offset);
  const from = bytes.byteOffset - offset + start;
  let line = 1;
  for (let at = whole.indexOf(0x0a); at !== -1 && at < from; at = whole.indexOf(0x0a, at + 1)) line++;
  return new StorageError(
    'corrupt',
    `${path} line ${line}: the payload of entry ${JSON.stringify(id)} is not JSON, though its checksum and the saved index ${path}.index vouch for it (a forged index or checksums); nothing was changed: move ${path}.index aside and open the session again, which checks every line`,
    { path, line, cause, ownRemedy: true },
  );
}

/** Parsed payloads kept, oldest first; past the budget the oldest go back to bytes. */
let parsed: ReplayedEntry[] = [];
let parsedBytes = 0;
let parsedHead = 0;
/** Bytes of payload text kept parsed at once (their values take a few times this). */
const PARSED_PAYLOAD_BUDGET = 8 * 1024 * 1024;

function noteParsed(entry: ReplayedEntry, bytes: number): void {
  parsed.push(entry);
  parsedBytes += bytes;
  if (parsedBytes > PARSED_PAYLOAD_BUDGET) dropOldest(parsedBytes - PARSED_PAYLOAD_BUDGET / 2);
}

/** Sends parsed payloads back to their bytes, oldest first, until `bytes` of them went. */
function dropOldest(bytes: number): void {
  let dropped = 0;
  while (parsedHead < parsed.length && dropped < bytes) dropped += ReplayedEntry.drop(parsed[parsedHead++]!);
  parsedBytes -= dropped;
  if (parsedHead === parsed.length) {
    parsed = [];
    parsedHead = 0;
  } else if (parsedHead > 1024 && parsedHead * 2 > parsed.length) {
    parsed = parsed.slice(parsedHead);
    parsedHead = 0;
  }
}

/** Every parsed payload goes back to its bytes (each is parsed again when next read). */
export function dropPayloads(): void {
  dropOldest(Number.POSITIVE_INFINITY);
}

/** True when `record` is a replayed entry whose payload is not parsed now. */
export function payloadIsUnparsed(record: object): boolean {
  return record instanceof ReplayedEntry && ReplayedEntry.isUnparsed(record);
}

/**
 * `record`'s payload for a caller that reads it once and keeps only what it derives (find's text
 * of every entry): a payload still in its bytes is parsed and not kept, so reading 100,000 of them
 * neither pushes the payloads kept for the screen out of the budget nor leaves 8 MB of parsed
 * values to be copied by the young-generation collector and collected later.
 */
export function payloadReadOnce(record: { readonly payload: unknown }): unknown {
  return record instanceof ReplayedEntry ? ReplayedEntry.passingPayload(record) : record.payload;
}
