/** The most tool output the model ever reads from one call, in UTF-8 bytes, marker included. */
export const MODEL_OUTPUT_CAP_BYTES = 32 * 1024;

/** Room kept for the elision marker; the longest marker is well under it. */
const MARKER_RESERVE_BYTES = 128;
/** A cut moves to the nearest line break when one is this close, so kept lines stay whole. */
const LINE_SNAP_BYTES = 1024;
const NEWLINE = 0x0a;

/**
 * Output already cut in the middle while it was captured: `head`, then `elidedBytes` bytes
 * (holding `elidedLines` line breaks) that were dropped, then `tail`.
 */
export interface ClippedOutput {
  readonly head: Uint8Array;
  readonly tail: Uint8Array;
  readonly elidedBytes: number;
  readonly elidedLines: number;
}

/**
 * `text` when it fits in `capBytes` UTF-8 bytes; otherwise its head and tail with the middle
 * replaced by a marker (`[... 1.2 MB elided: 31,002 lines ...]`). Never splits a character.
 */
export function capOutput(text: string, capBytes: number = MODEL_OUTPUT_CAP_BYTES): string {
  if (text.length <= capBytes / 3) return text; // a UTF-16 unit is at most 3 UTF-8 bytes
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= capBytes) return text;
  return capClippedOutput({ head: bytes, tail: new Uint8Array(0), elidedBytes: 0, elidedLines: 0 }, capBytes);
}

/** Like `capOutput`, for output whose middle was already dropped while it was captured. */
export function capClippedOutput(clipped: ClippedOutput, capBytes: number = MODEL_OUTPUT_CAP_BYTES): string {
  assert(capBytes > MARKER_RESERVE_BYTES * 2, `capBytes ${capBytes} leaves no room for content`);
  const gapAt = clipped.head.length;
  const hasGap = clipped.elidedBytes > 0;
  const bytes = clipped.tail.length === 0 ? clipped.head : Buffer.concat([clipped.head, clipped.tail]);
  if (!hasGap && bytes.length <= capBytes) return decode(bytes);
  if (hasGap && bytes.length <= capBytes - MARKER_RESERVE_BYTES) {
    return joinAroundMarker(
      decode(clipped.head),
      elisionMarker(clipped.elidedBytes, clipped.elidedLines),
      decode(clipped.tail),
    );
  }
  const [headLimit, tailFrom] = cutPoints(bytes.length, capBytes - MARKER_RESERVE_BYTES, hasGap ? gapAt : null);
  const headEnd = snapHeadEnd(bytes, headLimit);
  const tailStart = snapTailStart(bytes, tailFrom);
  const elided = bytes.subarray(headEnd, tailStart);
  const marker = elisionMarker(clipped.elidedBytes + elided.length, clipped.elidedLines + countNewlines(elided));
  const text = joinAroundMarker(decode(bytes.subarray(0, headEnd)), marker, decode(bytes.subarray(tailStart)));
  assert(Buffer.byteLength(text, 'utf8') <= capBytes, 'capped output exceeds its cap');
  return text;
}

function joinAroundMarker(head: string, marker: string, tail: string): string {
  const separator = head === '' || head.endsWith('\n') ? '' : '\n';
  return `${head}${separator}${marker}\n${tail}`;
}

/**
 * Where the kept head ends and the kept tail starts in `length` bytes (more than `budget`),
 * half the budget each; a gap already cut out must fall inside the elided middle.
 */
function cutPoints(length: number, budget: number, gapAt: number | null): [number, number] {
  assert(length > budget, 'nothing to cut');
  let headLimit = Math.floor(budget / 2);
  if (gapAt !== null && gapAt < headLimit) headLimit = gapAt;
  if (gapAt !== null && gapAt > length - (budget - headLimit)) headLimit = budget - (length - gapAt);
  return [headLimit, length - (budget - headLimit)];
}

/** `[... 1.2 MB elided: 31,002 lines ...]` */
function elisionMarker(elidedBytes: number, elidedLines: number): string {
  const marker = `[... ${formatBytes(elidedBytes)} elided: ${formatCount(elidedLines)} ${elidedLines === 1 ? 'line' : 'lines'} ...]`;
  assert(marker.length + 2 < MARKER_RESERVE_BYTES, 'elision marker longer than its reserve');
  return marker;
}

/** Decimal units, as a person reads them: `950 bytes`, `12.3 KB`, `1.2 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `31002` -> `31,002`, independent of the host's locale. */
export function formatCount(count: number): string {
  return String(Math.trunc(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) count += 1;
  return count;
}

/** The end of a head of at most `limit` bytes: just after a nearby line break, else on a character boundary. */
function snapHeadEnd(bytes: Uint8Array, limit: number): number {
  if (limit <= 0) return 0;
  if (limit >= bytes.length) return bytes.length;
  const lineEnd = bytes.lastIndexOf(NEWLINE, limit - 1);
  if (lineEnd !== -1 && limit - (lineEnd + 1) <= LINE_SNAP_BYTES) return lineEnd + 1;
  let end = limit;
  while (end > 0 && isContinuationByte(bytes[end])) end -= 1;
  return end;
}

/** The start of a tail beginning at or after `from`, snapped like `snapHeadEnd`. */
function snapTailStart(bytes: Uint8Array, from: number): number {
  if (from <= 0) return 0;
  if (from >= bytes.length) return bytes.length;
  if (bytes[from - 1] === NEWLINE) return from;
  const lineBreak = bytes.indexOf(NEWLINE, from);
  if (lineBreak !== -1 && lineBreak + 1 - from <= LINE_SNAP_BYTES) return lineBreak + 1;
  let start = from;
  while (start < bytes.length && isContinuationByte(bytes[start])) start += 1;
  return start;
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

function decode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`tole bug: ${message}`);
}
