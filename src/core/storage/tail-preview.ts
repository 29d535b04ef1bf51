/**
 * What the end of a large session file says, read before the file is checked: the head it names
 * and that head's path as far back as the last bytes hold it. The screen draws a provisional
 * frame from it while the open checks the whole file (cli/provisional-frame.ts); nothing here is
 * trusted, kept or acted on, and the open refuses or repairs the file exactly as without it.
 *
 * Only lines that hold together are used: each whole line after the first of the tail must carry
 * a frame, a CRC chained from the CRC stored on the line before it, and strict JSON. Any line that
 * does not (a torn tail included) means no preview: the open will say what is wrong.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { HEAD_KEY, type LaneHead, NS } from '../registers/namespaces';
import { type AnyEntry, isEntryType } from '../tree/entry-types';
import { frameCrc, headerCrc, LINE_PREFIX_BYTES } from './line-codec';

/** The last bytes read: enough for a screen's worth of entries in any common session. */
export const TAIL_PREVIEW_BYTES = 256 * 1024;
/** The header line is looked for in this many bytes. */
const HEADER_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface TailPreview {
  readonly sessionId: string;
  /** The head the last lane-head record of the tail names; null when the tail sets none. */
  readonly head: LaneHead | null;
  /** The head's path, oldest first, from the first of its entries the tail holds. */
  readonly path: readonly AnyEntry[];
}

/** The preview of the session file at `path`, or null when its header or tail do not hold together. Never throws. */
export function readTailPreview(path: string, tailBytes = TAIL_PREVIEW_BYTES): TailPreview | null {
  let fd: number | null = null;
  try {
    // Never blocking on open (a FIFO put in the file's place), and nothing read but a file.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const size = stat.size;
    const head = readAt(fd, 0, Math.min(HEADER_BYTES, size));
    const headerEnd = head.indexOf(NEWLINE);
    if (headerEnd === -1) return null;
    const header = JSON.parse(head.toString('utf8', 0, headerEnd)) as { kind?: unknown; id?: unknown };
    if (header.kind !== 'header' || typeof header.id !== 'string') return null;
    const from = Math.max(headerEnd + 1, size - tailBytes);
    const tail = readAt(fd, from, size - from);
    // The tail begins at the first commit (chained from the header) or mid-file (its first whole line only seeds the chain).
    const seed = from === headerEnd + 1 ? headerCrc(head.subarray(0, headerEnd)) : null;
    return previewOf(tail, seed, header.id);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, bytes, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return bytes.subarray(0, got);
}

interface TailRecord {
  readonly kind?: unknown;
  readonly id?: unknown;
  readonly parentId?: unknown;
  readonly type?: unknown;
  readonly namespace?: unknown;
  readonly key?: unknown;
  readonly op?: unknown;
  readonly value?: unknown;
}

/**
 * The preview from `tail`'s lines: those after the first newline when `seed` is null (the first of
 * them only seeds the chain), all of them from its start otherwise. Null when a line fails.
 */
export function previewOf(tail: Buffer, seed: number | null, sessionId: string): TailPreview | null {
  let start = 0;
  let previous = seed;
  if (seed === null) {
    start = tail.indexOf(NEWLINE) + 1;
    if (start === 0) return null;
  }
  const entries = new Map<string, AnyEntry>();
  let head: LaneHead | null = null;
  for (let end = tail.indexOf(NEWLINE, start); end !== -1; start = end + 1, end = tail.indexOf(NEWLINE, start)) {
    const stored = frameCrc(tail, start, end);
    if (stored < 0) return null;
    if (previous === null) {
      previous = stored;
      continue;
    }
    if (crc32(tail.subarray(start + LINE_PREFIX_BYTES, end - 1), previous) !== stored) return null;
    previous = stored;
    const commit = JSON.parse(tail.toString('utf8', start + LINE_PREFIX_BYTES, end - 1)) as TailRecord | TailRecord[];
    for (const record of Array.isArray(commit) ? commit : [commit]) {
      if (record === null || typeof record !== 'object') return null;
      // An entry of a type this tole does not draw ends the path there (the open will refuse it).
      if (
        record.kind === 'entry' &&
        typeof record.id === 'string' &&
        typeof record.type === 'string' &&
        isEntryType(record.type)
      )
        entries.set(record.id, record as unknown as AnyEntry);
      else if (record.kind === 'register' && record.namespace === NS.laneHead && record.key === HEAD_KEY)
        head = record.op === 'set' ? laneHeadOf(record.value) : null;
    }
  }
  // A torn last line (no newline) is left to the open, which copies it aside and says so.
  if (start < tail.length) return null;
  return { sessionId, head, path: head === null ? [] : pathIn(entries, head.entryId) };
}

function laneHeadOf(value: unknown): LaneHead | null {
  const v = value as { lane?: unknown; entryId?: unknown } | null;
  if (v === null || typeof v !== 'object' || typeof v.lane !== 'string') return null;
  if (v.entryId !== null && typeof v.entryId !== 'string') return null;
  return { lane: v.lane, entryId: v.entryId };
}

/** The path to `headId` through the entries the tail holds, oldest first. */
function pathIn(entries: ReadonlyMap<string, AnyEntry>, headId: string | null): AnyEntry[] {
  const path: AnyEntry[] = [];
  const seen = new Set<string>();
  let cursor = headId === null ? undefined : entries.get(headId);
  while (cursor && !seen.has(cursor.id)) {
    seen.add(cursor.id);
    path.push(cursor);
    cursor = typeof cursor.parentId === 'string' ? entries.get(cursor.parentId) : undefined;
  }
  return path.reverse();
}
