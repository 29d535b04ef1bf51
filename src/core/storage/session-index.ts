/**
 * A saved index beside a large JSONL session (`<file>.index`): the replayed state of the file's
 * first `bytes` bytes (what the tree, the registers and the usage ledger hold, each entry's
 * payload as a byte range of the file), so that an open replays only the lines after them.
 *
 * The JSONL file stays the only source of truth. The index is a cache: it is used only when its
 * own CRC holds, its MAC (HMAC-SHA256 under the user's key, kept outside the sessions folder)
 * says this user's tole wrote it (its values are derived from the file, so nothing in the file
 * could vouch for them short of a replay), it names the same header, and the line ending at its `bytes` is there with the
 * CRC it recorded (the CRC chain covers every byte before it, so a different prefix is a
 * different CRC); anything else, it is ignored and written again. Using it, the worker still
 * checks every byte's CRC and every line's frame before the open returns (verify-aside.ts), and
 * the strict JSON of every line after the index; the JSON of the lines it covers was checked when
 * a writable open wrote it, and the chain to its last line's CRC says they are the same bytes
 * (a payload that is not JSON all the same, which takes a forged index or forged CRCs, is named
 * when read: replayed-entry.ts). Any problem the check finds replays the file from its start on
 * one thread, without the index.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import type { FileOps } from './file-ops';
import type { EntryColumns } from './store-snapshot';

const INDEX_SUFFIX = '.index';
/**
 * The numbers are stored as this machine's doubles: an index from a machine of the other byte
 * order is not read. Version 3 keeps the entry ids as lines of text beside the JSON (version 2
 * had them in it: parsing 100,000 JSON strings took longer than splitting one text).
 */
const MAGIC = `tole-session-index 4 ${endianness()} `;
/** What every version's magic begins with: an older one carries no MAC. */
const MAGIC_FAMILY = 'tole-session-index ';
/** `MAGIC`, 8 hex digits of the CRC of what follows, a space, 64 of its HMAC-SHA256, a newline. */
const MAC_HEX = 64;
const PREFIX_BYTES = MAGIC.length + 9 + MAC_HEX + 1;
/**
 * Then the JSON part's length in bytes (10 digits) and a newline, the JSON, the entry ids (UTF-8,
 * one per line, no newline after the last; the JSON says how many bytes and ids), zeros to a
 * multiple of 8, and the numbers.
 */
const LENGTH_BYTES = 11;

/** Which prefix of the session file an index holds the state of. */
interface IndexMark {
  /** Bytes of the file covered: the header and whole commit lines, ending in a newline. */
  readonly bytes: number;
  /** The CRC stored on the last line covered (the header's when no commit line is). */
  readonly lastCrc: number;
  readonly commitLines: number;
  /** The CRC of the header line: a rewritten (compacted) file has another. */
  readonly headerCrc: number;
}

export interface SavedIndex extends IndexMark {
  /** The store's state after those lines (SessionStore's snapshot), unchecked until applied. */
  readonly state: unknown;
  /** Its columns of numbers, stored as doubles: no text to parse (empty when `columns` holds them). */
  readonly numbers: Float64Array;
  /**
   * The column scan's only (an index read from disk has none): the entries' columns as the scan
   * read them, handed to the store as they are instead of packed into `numbers`; restoreState
   * checks them as it checks the numbers.
   */
  readonly columns?: EntryColumns;
  /** The entries' ids, in the order added (unchecked until applied). */
  readonly ids: readonly string[];
  /**
   * The column scan's only (a saved index read from disk has none): for each entry in the order
   * added, `shapeCode` (answer-shape.ts) of an assistant entry's payload bytes, read while the scan
   * had them at hand; 0 for every other entry and where the bytes are not read as an answer's.
   */
  readonly answerShapes?: Uint8Array;
}

export function indexPathOf(sessionPath: string): string {
  return `${sessionPath}${INDEX_SUFFIX}`;
}

/** The user's key for the index's MAC (32 bytes), or null when it cannot be had: no index is then used or written. */
export type IndexKey = () => Buffer | null;

function macOf(key: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

/**
 * The index beside `sessionPath`, or null when there is none, it is not a regular file of at most
 * `maxBytes` (the session file's size: an index is smaller than the file it indexes), or it is
 * damaged in any way. An index whose CRC holds but whose MAC is missing or not this `key`'s is
 * not used either: `unvouched` hears why, so that the open can set it aside and say so.
 */
export function readIndex(
  ops: FileOps,
  sessionPath: string,
  maxBytes: number,
  key: Buffer | null,
  unvouched: (reason: string) => void = () => {},
): SavedIndex | null {
  const path = indexPathOf(sessionPath);
  let text: Buffer;
  let fd: number | null = null;
  try {
    // Not a FIFO or a device: opening or reading those could block the open.
    if (ops.kindOf(path) !== 'file') return null;
    fd = ops.openSync(path, 'r');
    const size = ops.fstatSize(fd);
    if (size > maxBytes) return null;
    text = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = ops.readSync(fd, text, got, size - got, got);
      if (n === 0) return null;
      got += n;
    }
  } catch {
    return null;
  } finally {
    if (fd !== null) {
      try {
        ops.closeSync(fd);
      } catch {
        // Only read: nothing is lost.
      }
    }
  }
  if (text.length < PREFIX_BYTES + LENGTH_BYTES || text.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    const older = /^tole-session-index [0-3] /.test(text.toString('latin1', 0, MAGIC_FAMILY.length + 2));
    if (older) unvouched('it carries no MAC (an older tole wrote it)');
    return null;
  }
  if (text[PREFIX_BYTES - 1] !== 0x0a || text[PREFIX_BYTES + LENGTH_BYTES - 1] !== 0x0a) return null;
  if (text[MAGIC.length + 8] !== 0x20) return null;
  const stored = Number.parseInt(text.toString('latin1', MAGIC.length, MAGIC.length + 8), 16);
  const body = text.subarray(PREFIX_BYTES);
  if (!Number.isInteger(stored) || crc32(body) !== stored) return null;
  if (key === null) return null;
  const mac = Buffer.from(text.toString('latin1', MAGIC.length + 9, PREFIX_BYTES - 1), 'hex');
  if (mac.length !== MAC_HEX / 2 || !timingSafeEqual(mac, macOf(key, body))) {
    unvouched("its MAC does not match this user's key (it was not written by this user's tole)");
    return null;
  }
  const jsonBytes = Number(text.toString('latin1', PREFIX_BYTES, PREFIX_BYTES + LENGTH_BYTES - 1));
  const jsonStart = PREFIX_BYTES + LENGTH_BYTES;
  if (!Number.isSafeInteger(jsonBytes) || jsonBytes < 0 || jsonStart + jsonBytes > text.length) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8', jsonStart, jsonStart + jsonBytes));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const { bytes, lastCrc, commitLines, headerCrc, state, idBytes, idCount } = parsed as Record<string, unknown>;
  if (!isCount(bytes) || !isCount(lastCrc) || !isCount(commitLines) || !isCount(headerCrc)) return null;
  if (!isCount(idBytes) || !isCount(idCount)) return null;
  const idsStart = jsonStart + jsonBytes;
  const numbersStart = align8(idsStart + idBytes);
  if (numbersStart > text.length || (text.length - numbersStart) % 8 !== 0) return null;
  const ids = idCount === 0 ? [] : text.toString('utf8', idsStart, idsStart + idBytes).split('\n');
  if (ids.length !== idCount) return null;
  // A copy, aligned for the doubles (a read buffer may start anywhere in its memory).
  const numbers = new Float64Array((text.length - numbersStart) / 8);
  Buffer.from(numbers.buffer).set(text.subarray(numbersStart));
  return { bytes, lastCrc, commitLines, headerCrc, state, numbers, ids };
}

/**
 * The bytes covered by the index whose first bytes are `head`, when it names the header of CRC
 * `headerCrc`; else 0. Unchecked (the index's own CRC is not read here): only a hint for a check
 * begun before the open reads the index (early-check.ts), which keeps it only if the open earns it.
 */
export function coveredBytesHint(head: Buffer, headerCrc: number): number {
  if (head.length < PREFIX_BYTES + LENGTH_BYTES || head.toString('latin1', 0, MAGIC.length) !== MAGIC) return 0;
  // writeIndex puts these four numbers first in the JSON part, in this order.
  const mark = /^\{"bytes":(\d{1,15}),"lastCrc":\d{1,10},"commitLines":\d{1,15},"headerCrc":(\d{1,10}),/.exec(
    head.toString('latin1', PREFIX_BYTES + LENGTH_BYTES, Math.min(head.length, PREFIX_BYTES + LENGTH_BYTES + 160)),
  );
  return mark !== null && Number(mark[2]) === headerCrc ? Number(mark[1]) : 0;
}

/** Enough of an index's first bytes for `coveredBytesHint`. */
export const HINT_BYTES = PREFIX_BYTES + LENGTH_BYTES + 160;

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/**
 * Writes the index beside `sessionPath` whole (a temporary file renamed into place), replacing
 * any older one; called under the session's lock, so the temporary file has one name, and one a
 * crash left behind is removed here. It is a cache: not synced, and a failure leaves only a
 * missing or older index (returns false). A crash mid-write leaves the temporary file and the
 * older index as they were; a power loss after the rename can leave a torn index, which the magic
 * and the CRC reject.
 */
export function writeIndex(ops: FileOps, sessionPath: string, index: SavedIndex, key: Buffer): boolean {
  const path = indexPathOf(sessionPath);
  const temp = `${path}.tmp`;
  let fd: number | null = null;
  try {
    if (ops.kindOf(temp) !== null) ops.unlinkSync(temp);
    const { numbers, ids, bytes, lastCrc, commitLines, headerCrc, state } = index;
    const idText = ids.join('\n');
    const idBlob = Buffer.from(idText, 'utf8');
    // An id with a newline, or one UTF-8 cannot carry (a lone surrogate), would come back as another: no index.
    if (idBlob.toString('utf8') !== idText || ids.some((id) => id.includes('\n'))) throw new Error('ids not kept');
    // The mark first, in this order: coveredBytesHint reads it from the first bytes.
    const json = Buffer.from(
      JSON.stringify({ bytes, lastCrc, commitLines, headerCrc, state, idBytes: idBlob.length, idCount: ids.length }),
      'utf8',
    );
    const jsonStart = PREFIX_BYTES + LENGTH_BYTES;
    const body = Buffer.alloc(align8(jsonStart + json.length + idBlob.length) - PREFIX_BYTES + numbers.byteLength);
    body.write(`${String(json.length).padStart(LENGTH_BYTES - 1, '0')}\n`, 0, 'latin1');
    json.copy(body, LENGTH_BYTES);
    idBlob.copy(body, LENGTH_BYTES + json.length);
    Buffer.from(numbers.buffer, numbers.byteOffset, numbers.byteLength).copy(body, body.length - numbers.byteLength);
    const crc = crc32(body).toString(16).padStart(8, '0');
    const head = Buffer.from(`${MAGIC}${crc} ${macOf(key, body).toString('hex')}\n`, 'latin1');
    fd = ops.openSync(temp, 'wx', 0o600);
    for (const [part, at] of [
      [head, 0],
      [body, head.length],
    ] as const) {
      let written = 0;
      while (written < part.length) {
        const n = ops.writeSync(fd, part, written, part.length - written, at + written);
        if (n <= 0) throw new Error('no progress');
        written += n;
      }
    }
    ops.closeSync(fd);
    fd = null;
    ops.renameSync(temp, path);
    return true;
  } catch {
    if (fd !== null) {
      try {
        ops.closeSync(fd);
      } catch {
        // Already failing: the index is only a cache.
      }
    }
    try {
      if (ops.kindOf(temp) !== null) ops.unlinkSync(temp);
    } catch {
      // Left behind: a stray temporary file, never read.
    }
    return false;
  }
}
