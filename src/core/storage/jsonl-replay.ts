/**
 * Reading a JSONL session file back: the header, then each chained commit line, told apart as a
 * torn tail (a suffix lost to a crash: reported, to be cut away) or corruption (refused, naming
 * the line). Nothing bad is ever skipped.
 */
import { StorageError } from './errors';
import type { FileOps } from './file-ops';
import { damagedNewlineAt, decodeCommitAt, headerCrc, LINE_PREFIX_BYTES, looksWhole, storedCrcOf } from './line-codec';
import { LINE_CRC, MAX_COMMIT_BYTES, STORAGE_VERSION, type SessionHeader } from './records';
import type { CommitSink, TornTail } from './storage';

/**
 * The file goes into one allocation up to this size (entries keep their payloads as views into what
 * was read, so every chunk stays in memory anyway): one allocation instead of one per 16 MiB,
 * each of which counted as external memory and could start a full collection mid-replay.
 */
const READ_CHUNK_BYTES = 1024 * 1024 * 1024;
/**
 * That allocation is filled this much at a time, as the lines reach its end: a tail no commit
 * could be (a gigabyte of zeros) is given up on once it runs past MAX_TORN_LINE_BYTES, without
 * the rest of it being read first.
 */
const READ_PIECE_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface ScanResult {
  readonly header: SessionHeader;
  readonly commitLines: number;
  readonly goodBytes: number;
  readonly lastCrc: number;
  readonly tornTail: TornTail | null;
}

/** The chain as far as it has been verified. */
interface Chain {
  crc: number;
  goodBytes: number;
  lineNo: number;
  commitLines: number;
}

interface BadLine {
  readonly line: number;
  readonly offset: number;
  readonly reason: string;
}

/** Reads the file in chunks, line by line: header, then chained commit lines. */
export function replayJsonl(ops: FileOps, fd: number, path: string, onCommit: CommitSink): ScanResult {
  const totalBytes = ops.fstatSize(fd);
  const reader = lineReader(ops, fd, totalBytes);
  const first = reader.next();
  if (first === null || !first.terminated) {
    throw new StorageError('corrupt', `${path}: line 1: the header line is missing or incomplete`, { path, line: 1 });
  }
  const header = parseHeader(first.bytes, path);
  const chain: Chain = { crc: headerCrc(first.bytes), goodBytes: first.bytes.length + 1, lineNo: 1, commitLines: 0 };
  for (let at = reader.nextAt(); at !== null; at = reader.nextAt()) {
    chain.lineNo++;
    // A whole line longer than any commit tole writes is not tole's, whatever its checksum says:
    // refused here as by the worker's check (verify-aside.ts), so that no open takes it in.
    const decoded = !at.terminated
      ? ({ ok: false, reason: unterminatedReason(at.end - at.start) } as const)
      : at.end - at.start > MAX_LINE_BYTES
        ? ({ ok: false, reason: `a line of ${at.end - at.start} bytes, longer than any commit` } as const)
        : decodeCommitAt(at.chunk, at.start, at.end, chain.crc);
    if (!decoded.ok) {
      const line: RawLine = {
        bytes: at.chunk.subarray(at.start, at.end),
        offset: at.offset,
        terminated: at.terminated,
      };
      const bad = { line: chain.lineNo, offset: line.offset, reason: chainReason(decoded.reason, chain.lineNo) };
      assertOnlyTornAfter(ops, fd, totalBytes, line, bad, chain, path);
      assertNotRepeated(ops, fd, line, bad, path);
      const tornTail = {
        line: bad.line,
        offset: bad.offset,
        bytes: totalBytes - bad.offset,
        reason: bad.reason,
        repaired: false,
      };
      return { header, commitLines: chain.commitLines, goodBytes: chain.goodBytes, lastCrc: chain.crc, tornTail };
    }
    onCommit(decoded.commit, chain.lineNo, at.end - at.start + 1);
    chain.crc = decoded.crc;
    chain.goodBytes = at.offset + at.end - at.start + 1;
    chain.commitLines++;
  }
  return { header, commitLines: chain.commitLines, goodBytes: chain.goodBytes, lastCrc: chain.crc, tornTail: null };
}

/** A whole line at the end that claims the checksum of an earlier line is a copy of it (rare path: rescans). */
function assertNotRepeated(ops: FileOps, fd: number, line: RawLine, bad: BadLine, path: string): void {
  const stored = line.terminated ? storedCrcOf(line.bytes) : null;
  if (stored === null || !looksWhole(line.bytes)) return;
  const reader = lineReader(ops, fd, line.offset);
  reader.next(); // the header
  for (let lineNo = 2, earlier = reader.next(); earlier !== null; lineNo++, earlier = reader.next()) {
    if (storedCrcOf(earlier.bytes) === stored) {
      throw new StorageError(
        'corrupt',
        `${path}: line ${bad.line}: it repeats line ${lineNo}: the file is corrupt, not torn; nothing was changed`,
        { path, line: bad.line },
      );
    }
  }
}

function unterminatedReason(lineBytes: number): string {
  return lineBytes > MAX_TORN_LINE_BYTES
    ? 'a line longer than any commit, without a newline'
    : 'last line has no newline (torn write)';
}

function chainReason(reason: string, lineNo: number): string {
  return lineNo === 2 && reason.startsWith('checksum mismatch')
    ? `${reason}; the header (line 1) seeds this checksum, so either line may be damaged`
    : reason;
}

/**
 * A bad line is a torn tail only when it is the one partial final line a torn append can leave:
 * no larger than the largest commit line tole writes, nothing after it, and it does not hide a
 * whole commit (a damaged newline). Anything else is corruption, refused with its offset and size.
 */
function assertOnlyTornAfter(
  ops: FileOps,
  fd: number,
  totalBytes: number,
  line: RawLine,
  bad: BadLine,
  chain: Chain,
  path: string,
): void {
  const corrupt = (why: string): StorageError =>
    new StorageError(
      'corrupt',
      `${path}: line ${bad.line}: ${why}: the file is corrupt, not torn; nothing was changed`,
      { path, line: bad.line },
    );
  const tailBytes = totalBytes - bad.offset;
  const what = `${bad.reason}; the ${tailBytes} bytes from offset ${bad.offset} to the end`;
  if (tailBytes > MAX_TORN_LINE_BYTES) {
    throw corrupt(
      `${what} are more than the largest commit line tole writes (${MAX_TORN_LINE_BYTES} bytes), so no torn write left them`,
    );
  }
  const lineEnd = line.offset + line.bytes.length + (line.terminated ? 1 : 0);
  if (lineEnd < totalBytes) {
    throw corrupt(
      `${what} span ${linesIn(ops, fd, bad.offset, totalBytes)} lines, and a torn write leaves at most one partial line`,
    );
  }
  const damagedAt = damagedNewlineAt(line.bytes, chain.crc);
  if (damagedAt !== -1) {
    throw corrupt(
      `a whole commit ends at byte ${line.offset + damagedAt} where a newline should be, and more data follows it`,
    );
  }
}

/** The largest line a single append writes: the checksum prefix, the largest commit, `}` and the newline. */
export const MAX_TORN_LINE_BYTES = LINE_PREFIX_BYTES + MAX_COMMIT_BYTES + 2;
/** The longest commit line without its newline (the worker's check spells the same number out: LONGEST_LINE). */
export const MAX_LINE_BYTES = MAX_TORN_LINE_BYTES - 1;

/** Lines (terminated or not) in bytes [from, to) of the file: only called on a tail no larger than one commit. */
function linesIn(ops: FileOps, fd: number, from: number, to: number): number {
  const bytes = Buffer.allocUnsafe(to - from);
  let got = 0;
  while (got < bytes.length) {
    const n = ops.readSync(fd, bytes, got, bytes.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  let lines = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1 && at < got; at = bytes.indexOf(NEWLINE, at + 1)) lines++;
  return bytes[got - 1] === NEWLINE ? lines : lines + 1;
}

export function parseHeader(bytes: Buffer, path: string): SessionHeader {
  let header: Partial<SessionHeader>;
  try {
    header = JSON.parse(bytes.toString('utf8')) as Partial<SessionHeader>;
  } catch {
    throw new StorageError('corrupt', `${path}: line 1: the header is not JSON; this is not a tole session file`, {
      path,
      line: 1,
    });
  }
  if (header?.kind !== 'header' || typeof header.id !== 'string') {
    throw new StorageError('corrupt', `${path}: line 1: not a tole session header`, { path, line: 1 });
  }
  if (typeof header.storageVersion !== 'number') {
    throw new StorageError(
      'corrupt',
      `${path}: line 1: the header has no storage version; this is not a tole session file`,
      { path, line: 1 },
    );
  }
  if (header.storageVersion !== STORAGE_VERSION) {
    const newer = header.storageVersion > STORAGE_VERSION;
    throw new StorageError(
      'version',
      `${path}: line 1: storage version ${header.storageVersion} is ${newer ? 'newer than' : 'unknown to'} this tole (which reads version ${STORAGE_VERSION})${newer ? ': upgrade tole to open it' : ''}`,
      { path, line: 1 },
    );
  }
  if (header.lineCrc !== LINE_CRC) {
    throw new StorageError(
      'version',
      `${path}: line 1: line checksum format ${String(header.lineCrc)} is not supported (expected ${LINE_CRC})`,
      { path, line: 1 },
    );
  }
  return header as SessionHeader;
}

interface RawLine {
  readonly bytes: Buffer;
  readonly offset: number;
  readonly terminated: boolean;
}

/** Where the line just read lies in the chunk that holds it: one object, reused for every line. */
interface LineAt {
  chunk: Buffer;
  start: number;
  end: number;
  offset: number;
  terminated: boolean;
}

interface LineReader {
  next(): RawLine | null;
  /** The next line without a Buffer made for it (the hot path of a replay); the object is reused. */
  nextAt(): LineAt | null;
}

function lineReader(ops: FileOps, fd: number, totalBytes: number): LineReader {
  let space = Buffer.alloc(0); // the allocation being filled
  let buffer = space; // what has been read into it: space[0, buffer.length)
  let bufferStart = 0; // file offset of buffer[0]
  let cursor = 0; // index into buffer
  let readOffset = 0;
  const fill = (): boolean => {
    if (readOffset >= totalBytes) return false;
    if (buffer.length === space.length) {
      // Full: the unread rest of it moves to the front of a new allocation, for the next chunk.
      const rest = buffer.length - cursor;
      const next = Buffer.allocUnsafe(rest + Math.min(READ_CHUNK_BYTES, totalBytes - readOffset));
      buffer.copy(next, 0, cursor);
      bufferStart += cursor;
      cursor = 0;
      space = next;
      buffer = next.subarray(0, rest);
    }
    const filled = buffer.length;
    const want = Math.min(READ_PIECE_BYTES, space.length - filled);
    let got = 0;
    while (got < want) {
      const n = ops.readSync(fd, space, filled + got, want - got, readOffset + got);
      if (n === 0) break;
      got += n;
    }
    readOffset += got;
    buffer = space.subarray(0, filled + got);
    return got > 0;
  };
  const at: LineAt = { chunk: buffer, start: 0, end: 0, offset: 0, terminated: false };
  const nextAt = (): LineAt | null => {
    for (;;) {
      const end = buffer.indexOf(NEWLINE, cursor);
      at.chunk = buffer;
      at.start = cursor;
      at.offset = bufferStart + cursor;
      if (end !== -1) {
        at.end = end;
        at.terminated = true;
        cursor = end + 1;
        return at;
      }
      if (buffer.length - cursor > MAX_TORN_LINE_BYTES) {
        // No line tole writes is this long: stop here instead of reading the rest in search of a newline.
        at.end = cursor + MAX_TORN_LINE_BYTES + 1;
        at.terminated = false;
        cursor = buffer.length;
        readOffset = totalBytes;
        return at;
      }
      if (!fill()) {
        if (cursor >= buffer.length) return null;
        at.chunk = buffer;
        at.start = cursor;
        at.offset = bufferStart + cursor;
        at.end = buffer.length;
        at.terminated = false;
        cursor = buffer.length;
        return at;
      }
    }
  };
  return {
    nextAt,
    next(): RawLine | null {
      const line = nextAt();
      return (
        line && { bytes: line.chunk.subarray(line.start, line.end), offset: line.offset, terminated: line.terminated }
      );
    },
  };
}
