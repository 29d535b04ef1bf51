import { crc32 } from 'node:zlib';
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
const HEX = /^[0-9a-f]{8}$/;

export function headerCrc(headerLine: Buffer): number {
  return crc32(headerLine);
}

export function encodeHeader(header: SessionHeader): Buffer {
  return Buffer.from(`${JSON.stringify(header)}\n`, 'utf8');
}

export interface EncodedLine {
  readonly bytes: Buffer;
  readonly crc: number;
}

export function encodeCommit(commit: Commit, previousCrc: number): EncodedLine {
  const body = Buffer.from(JSON.stringify(commit), 'utf8');
  const crc = crc32(body, previousCrc);
  const prefix = `${PREFIX_HEAD}${crc.toString(16).padStart(8, '0')}${PREFIX_TAIL}`;
  const bytes = Buffer.allocUnsafe(LINE_PREFIX_BYTES + body.length + 2);
  bytes.write(prefix, 0, 'latin1');
  body.copy(bytes, LINE_PREFIX_BYTES);
  bytes[bytes.length - 2] = CLOSE_BRACE;
  bytes[bytes.length - 1] = NEWLINE;
  return { bytes, crc };
}

export type DecodedLine =
  | { readonly ok: true; readonly commit: Commit; readonly crc: number }
  | { readonly ok: false; readonly reason: string };

/** Checks one line (without its newline) against the chain and parses its commit. */
export function decodeCommit(line: Buffer, previousCrc: number): DecodedLine {
  const framed = frame(line);
  if (!framed.ok) return framed;
  const body = line.subarray(LINE_PREFIX_BYTES, line.length - 1);
  const crc = crc32(body, previousCrc);
  if (crc !== framed.storedCrc) {
    return { ok: false, reason: `checksum mismatch (stored ${framed.stored}, computed ${crc.toString(16).padStart(8, '0')})` };
  }
  try {
    return { ok: true, commit: JSON.parse(body.toString('utf8')) as Commit, crc };
  } catch {
    return { ok: false, reason: 'checksum matches but the commit is not JSON' };
  }
}

/** True when a line has the shape of a whole commit line, whatever the chain says. */
export function looksWhole(line: Buffer): boolean {
  const framed = frame(line);
  if (!framed.ok) return false;
  try {
    JSON.parse(line.toString('utf8', LINE_PREFIX_BYTES, line.length - 1));
    return true;
  } catch {
    return false;
  }
}

/** The checksum a whole-looking line claims, or null when the line has no valid frame. */
export function storedCrcOf(line: Buffer): number | null {
  const framed = frame(line);
  return framed.ok ? framed.storedCrc : null;
}

const PREFIX_HEAD_BYTES = Buffer.from(PREFIX_HEAD, 'latin1');

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

type Frame = { ok: true; stored: string; storedCrc: number } | { ok: false; reason: string };

function frame(line: Buffer): Frame {
  if (line.length < LINE_PREFIX_BYTES + 2) return { ok: false, reason: 'line too short to be a commit' };
  if (line.toString('latin1', 0, 6) !== PREFIX_HEAD || line.toString('latin1', 14, 20) !== PREFIX_TAIL) {
    return { ok: false, reason: 'line does not start with a checksum prefix' };
  }
  if (line[line.length - 1] !== CLOSE_BRACE) return { ok: false, reason: 'line does not end with "}"' };
  const stored = line.toString('latin1', 6, 14);
  if (!HEX.test(stored)) return { ok: false, reason: 'checksum is not 8 lowercase hex digits' };
  return { ok: true, stored, storedCrc: Number.parseInt(stored, 16) };
}
