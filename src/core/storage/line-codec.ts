import { crc32 } from 'node:zlib';
import { decodeCommitBody, NOT_JSON } from './lazy-commit';
import type { Commit, SessionHeader } from './records';

/**
 * Every line after the header is `{"c":"<8 hex>","r":<commit>}`: the CRC-32 of the commit's
 * exact UTF-8 bytes, chained from the previous line's CRC (the header line seeds the chain).
 * The prefix has a fixed width, so a reader checks a line without re-serialising it.
 */
export const LINE_PREFIX_BYTES = 20;
const PREFIX_HEAD = '{"c":"';
const PREFIX_TAIL = '","r":';
const NEWLINE = 0x0a;
const CLOSE_BRACE = 0x7d;
const PREFIX_HEAD_BYTES = Buffer.from(PREFIX_HEAD, 'latin1');
const PREFIX_TAIL_BYTES = Buffer.from(PREFIX_TAIL, 'latin1');

export function headerCrc(headerLine: Buffer): number {
  return crc32(headerLine);
}

export function encodeHeader(header: SessionHeader): Buffer {
  return Buffer.from(`${JSON.stringify(header)}\n`, 'utf8');
}

interface EncodedLine {
  readonly bytes: Buffer;
  readonly crc: number;
}

/** Frames a commit; `json` is `JSON.stringify(commit)` when the caller already has it. */
export function encodeCommit(commit: Commit, previousCrc: number, json: string = JSON.stringify(commit)): EncodedLine {
  const bodyBytes = Buffer.byteLength(json, 'utf8');
  const bytes = Buffer.allocUnsafe(LINE_PREFIX_BYTES + bodyBytes + 2);
  bytes.write(json, LINE_PREFIX_BYTES, 'utf8');
  const crc = crc32(bytes.subarray(LINE_PREFIX_BYTES, LINE_PREFIX_BYTES + bodyBytes), previousCrc);
  // The prefix is written byte by byte: this runs on every commit, inside its latency.
  PREFIX_HEAD_BYTES.copy(bytes, 0);
  for (let i = 0; i < 8; i++) {
    const nibble = (crc >>> (28 - 4 * i)) & 0xf;
    bytes[6 + i] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble;
  }
  PREFIX_TAIL_BYTES.copy(bytes, 14);
  bytes[bytes.length - 2] = CLOSE_BRACE;
  bytes[bytes.length - 1] = NEWLINE;
  return { bytes, crc };
}

type DecodedLine =
  | { readonly ok: true; readonly commit: Commit; readonly crc: number }
  | { readonly ok: false; readonly reason: string };

/** Checks one line (without its newline) against the chain and reads its commit. */
function decodeCommit(line: Buffer, previousCrc: number): DecodedLine {
  return decodeCommitAt(line, 0, line.length, previousCrc);
}

/** `decodeCommit` of the line in `chunk[start, end)`, without a Buffer made for the line. */
export function decodeCommitAt(chunk: Buffer, start: number, end: number, previousCrc: number): DecodedLine {
  const stored = frameCrc(chunk, start, end);
  if (stored < 0) return { ok: false, reason: FRAME_PROBLEMS[stored]! };
  const crc = crc32(chunk.subarray(start + LINE_PREFIX_BYTES, end - 1), previousCrc);
  if (crc !== stored) return { ok: false, reason: `checksum mismatch (stored ${hex8(stored)}, computed ${hex8(crc)})` };
  // Checked to be JSON in full, but entry payloads stay as bytes until read (lazy-commit.ts).
  const commit = decodeCommitBody(chunk, start + LINE_PREFIX_BYTES, end - 1);
  if (commit === NOT_JSON) return { ok: false, reason: 'checksum matches but the commit is not JSON' };
  return { ok: true, commit, crc };
}

/** True when a line has the shape of a whole commit line, whatever the chain says. */
export function looksWhole(line: Buffer): boolean {
  if (frameCrc(line) < 0) return false;
  try {
    JSON.parse(line.toString('utf8', LINE_PREFIX_BYTES, line.length - 1));
    return true;
  } catch {
    return false;
  }
}

/** The checksum a whole-looking line claims, or null when the line has no valid frame. */
export function storedCrcOf(line: Buffer): number | null {
  const stored = frameCrc(line);
  return stored < 0 ? null : stored;
}

/**
 * A line that fails its check may still begin with a whole commit that chains correctly, whose
 * newline was damaged (a flipped bit turned it into another byte, merging two lines). Returns the
 * offset of that damaged byte, or -1. A torn write never produces this: it only loses a suffix.
 */
export function damagedNewlineAt(line: Buffer, previousCrc: number): number {
  for (let at = line.indexOf(PREFIX_HEAD_BYTES, 1); at !== -1; at = line.indexOf(PREFIX_HEAD_BYTES, at + 1)) {
    const newlineAt = at - 1;
    if (newlineAt < LINE_PREFIX_BYTES + 2 || line[newlineAt - 1] !== CLOSE_BRACE) continue;
    if (decodeCommit(line.subarray(0, newlineAt), previousCrc).ok) return newlineAt;
  }
  return -1;
}

const FRAME_PROBLEMS: Readonly<Record<number, string>> = {
  [-1]: 'line too short to be a commit',
  [-2]: 'line does not start with a checksum prefix',
  [-3]: 'line does not end with "}"',
  [-4]: 'checksum is not 8 lowercase hex digits',
};

/** The checksum a line's prefix claims, or a negative key of FRAME_PROBLEMS. Byte compares only: this runs per line. */
export function frameCrc(line: Buffer, start = 0, end = line.length): number {
  if (end - start < LINE_PREFIX_BYTES + 2) return -1;
  for (let i = 0; i < 6; i++) {
    if (line[start + i] !== PREFIX_HEAD_BYTES[i] || line[start + 14 + i] !== PREFIX_TAIL_BYTES[i]) return -2;
  }
  if (line[end - 1] !== CLOSE_BRACE) return -3;
  let crc = 0;
  for (let i = 6; i < 14; i++) {
    const c = line[start + i]!;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit < 0) return -4;
    crc = crc * 16 + digit;
  }
  return crc;
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}
