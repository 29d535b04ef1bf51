import { basename, dirname, join } from 'node:path';
import { StorageError } from './errors';
import { fsyncDirectory, nodeFileOps, writeWhole, type FileOps } from './file-ops';
import { damagedNewlineAt, decodeCommit, encodeCommit, encodeHeader, headerCrc, looksWhole, storedCrcOf } from './line-codec';
import { acquireLock, type HeldLock } from './lock-file';
import { LINE_CRC, STORAGE_VERSION, type Commit, type SessionHeader } from './records';
import type { CommitSink, OpenReport, Storage, TornTail } from './storage';

const READ_CHUNK_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

export interface JsonlOpenOptions {
  readonly readOnly?: boolean;
  readonly ops?: FileOps;
  readonly onCommit?: CommitSink;
  /** Unique per opener; written into the lock file. */
  readonly nonce: string;
  readonly nowMs: number;
}

export class JsonlStorage implements Storage {
  private poisoned: Error | null = null;
  private closed = false;

  private constructor(
    readonly path: string,
    private currentHeader: SessionHeader,
    readonly readOnly: boolean,
    readonly report: OpenReport,
    private readonly ops: FileOps,
    private fd: number | null,
    private lock: HeldLock | null,
    private size: number,
    private lastCrc: number,
  ) {}

  get sizeBytes(): number {
    return this.size;
  }

  get header(): SessionHeader {
    return this.currentHeader;
  }

  /** Creates a new session file holding only its header, durably, and takes its lock. */
  static create(path: string, header: SessionHeader, options: Omit<JsonlOpenOptions, 'readOnly' | 'onCommit'>): JsonlStorage {
    const ops = options.ops ?? nodeFileOps;
    if (ops.existsSync(path)) throw new StorageError('invalid-commit', `a session file already exists at ${path}`, { path });
    const lock = acquireLock(ops, path, options.nonce, options.nowMs);
    try {
      const bytes = encodeHeader(header);
      const temp = join(dirname(path), `.${basename(path)}.${options.nonce}.tmp`);
      const tempFd = ops.openSync(temp, 'wx', 0o600);
      try {
        writeWhole(ops, tempFd, bytes, 0);
        ops.fdatasyncSync(tempFd);
      } finally {
        ops.closeSync(tempFd);
      }
      ops.renameSync(temp, path);
      fsyncDirectory(ops, dirname(path));
      const fd = ops.openSync(path, 'r+');
      const report: OpenReport = { commitLines: 0, bytes: bytes.length, tornTail: null };
      return new JsonlStorage(path, header, false, report, ops, fd, lock, bytes.length, headerCrc(bytes.subarray(0, -1)));
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Opens and replays a session file; repairs a torn tail unless read-only. */
  static open(path: string, options: JsonlOpenOptions): JsonlStorage {
    const ops = options.ops ?? nodeFileOps;
    if (!ops.existsSync(path)) throw new StorageError('not-found', `no session file at ${path}`, { path });
    const readOnly = options.readOnly ?? false;
    const lock = readOnly ? null : acquireLock(ops, path, options.nonce, options.nowMs);
    let fd: number | null = null;
    try {
      fd = ops.openSync(path, readOnly ? 'r' : 'r+');
      const scan = replay(ops, fd, path, options.onCommit ?? (() => {}));
      let tornTail = scan.tornTail;
      if (tornTail && !readOnly) {
        // A torn tail left in place would swallow the next commit: cut it away durably first.
        ops.ftruncateSync(fd, tornTail.offset);
        ops.fsyncSync(fd);
        tornTail = { ...tornTail, repaired: true };
      }
      const report: OpenReport = { commitLines: scan.commitLines, bytes: scan.goodBytes, tornTail };
      if (readOnly) {
        ops.closeSync(fd);
        fd = null;
      }
      return new JsonlStorage(path, scan.header, readOnly, report, ops, fd, lock, scan.goodBytes, scan.lastCrc);
    } catch (error) {
      if (fd !== null) ops.closeSync(fd);
      lock?.release();
      throw error;
    }
  }

  append(commit: Commit, json?: string): void {
    const fd = this.writableFd();
    const line = encodeCommit(commit, this.lastCrc, json);
    try {
      writeWhole(this.ops, fd, line.bytes, this.size);
    } catch (error) {
      this.undoPartialWrite(fd, error);
      throw new StorageError('not-committed', `not committed: ${describe(error)} while writing ${this.path}`, { path: this.path, cause: error });
    }
    try {
      this.ops.fdatasyncSync(fd);
    } catch (error) {
      // fsyncgate: a retried fsync can falsely succeed, so the handle is never used again.
      this.poisoned = error as Error;
      throw new StorageError(
        'poisoned',
        `not acknowledged: fdatasync failed (${describe(error)}) on ${this.path}; reopen the session before writing more (the commit may or may not be there)`,
        { path: this.path, cause: error },
      );
    }
    this.size += line.bytes.length;
    this.lastCrc = line.crc;
  }

  /**
   * Storage compaction: writes `commits` under `header` to a temp file, fsyncs it, reads it back
   * and checks the chain, then renames it over the session file and fsyncs the directory.
   */
  rewrite(commits: readonly Commit[], header: SessionHeader = this.currentHeader): void {
    const fd = this.writableFd();
    const dir = dirname(this.path);
    const temp = join(dir, `.${basename(this.path)}.compact.tmp`);
    const written = this.writeVerifiedTemp(temp, commits, header);
    try {
      this.ops.renameSync(temp, this.path);
    } catch (error) {
      this.ops.unlinkSync(temp);
      throw new StorageError('not-committed', `compaction not done, the session file is unchanged: ${describe(error)}`, { path: this.path, cause: error });
    }
    this.fd = null;
    this.ops.closeSync(fd);
    try {
      fsyncDirectory(this.ops, dir);
      this.fd = this.ops.openSync(this.path, 'r+');
    } catch (error) {
      this.poisoned = error as Error;
      throw new StorageError('poisoned', `compaction of ${this.path} could not be made durable (${describe(error)}): reopen the session`, { path: this.path, cause: error });
    }
    this.currentHeader = header;
    this.size = written.size;
    this.lastCrc = written.crc;
  }

  private writeVerifiedTemp(temp: string, commits: readonly Commit[], header: SessionHeader): { size: number; crc: number } {
    const headerBytes = encodeHeader(header);
    let crc = headerCrc(headerBytes.subarray(0, -1));
    let size = 0;
    const tempFd = this.ops.openSync(temp, 'w+', 0o600);
    try {
      writeWhole(this.ops, tempFd, headerBytes, 0);
      size = headerBytes.length;
      for (const commit of commits) {
        const line = encodeCommit(commit, crc);
        writeWhole(this.ops, tempFd, line.bytes, size);
        size += line.bytes.length;
        crc = line.crc;
      }
      this.ops.fdatasyncSync(tempFd);
      const check = replay(this.ops, tempFd, temp, () => {});
      if (check.tornTail || check.commitLines !== commits.length || check.lastCrc !== crc) {
        throw new Error(`read back ${check.commitLines} of ${commits.length} commits${check.tornTail ? ` (${check.tornTail.reason})` : ''}`);
      }
    } catch (error) {
      this.ops.closeSync(tempFd);
      this.ops.unlinkSync(temp);
      throw new StorageError('not-committed', `compaction not done, the session file is unchanged: ${describe(error)}`, { path: this.path, cause: error });
    }
    this.ops.closeSync(tempFd);
    return { size, crc };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.fd !== null) this.ops.closeSync(this.fd);
    this.fd = null;
    this.lock?.release();
    this.lock = null;
  }

  private writableFd(): number {
    if (this.closed) throw new StorageError('read-only', `session ${this.path} is closed: nothing can be written`, { path: this.path });
    if (this.readOnly || this.fd === null) {
      throw new StorageError('read-only', `session ${this.path} is open read-only: nothing can be written`, { path: this.path });
    }
    if (this.poisoned) {
      throw new StorageError('poisoned', `an earlier fsync failed on ${this.path}: reopen the session to continue`, { path: this.path });
    }
    return this.fd;
  }

  private undoPartialWrite(fd: number, cause: unknown): void {
    try {
      this.ops.ftruncateSync(fd, this.size);
    } catch {
      this.poisoned = cause as Error;
    }
  }
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code} ${e.message}` : String(e?.message ?? error);
}

interface ScanResult {
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
function replay(ops: FileOps, fd: number, path: string, onCommit: CommitSink): ScanResult {
  const totalBytes = ops.fstatSize(fd);
  const reader = lineReader(ops, fd, totalBytes);
  const first = reader.next();
  if (first === null || !first.terminated) {
    throw new StorageError('corrupt', `${path}: line 1: the header line is missing or incomplete`, { path, line: 1 });
  }
  const header = parseHeader(first.bytes, path);
  const chain: Chain = { crc: headerCrc(first.bytes), goodBytes: first.bytes.length + 1, lineNo: 1, commitLines: 0 };
  for (let line = reader.next(); line !== null; line = reader.next()) {
    chain.lineNo++;
    const decoded = line.terminated ? decodeCommit(line.bytes, chain.crc) : ({ ok: false, reason: 'last line has no newline (torn write)' } as const);
    if (!decoded.ok) {
      const bad = { line: chain.lineNo, offset: line.offset, reason: chainReason(decoded.reason, chain.lineNo) };
      assertOnlyTornAfter(reader, line, bad, chain, path);
      assertNotRepeated(ops, fd, line, bad, path);
      const tornTail = { line: bad.line, offset: bad.offset, bytes: totalBytes - bad.offset, reason: bad.reason, repaired: false };
      return { header, commitLines: chain.commitLines, goodBytes: chain.goodBytes, lastCrc: chain.crc, tornTail };
    }
    onCommit(decoded.commit, chain.lineNo, line.bytes.length + 1);
    chain.crc = decoded.crc;
    chain.goodBytes = line.offset + line.bytes.length + 1;
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
      throw new StorageError('corrupt', `${path}: line ${bad.line}: it repeats line ${lineNo}: the file is corrupt, not torn; nothing was changed`, { path, line: bad.line });
    }
  }
}

function chainReason(reason: string, lineNo: number): string {
  return lineNo === 2 && reason.startsWith('checksum mismatch') ? `${reason}; the header (line 1) seeds this checksum, so either line may be damaged` : reason;
}

/**
 * A bad line is a torn tail only when nothing after it is a whole line and it does not hide a
 * whole commit (a damaged newline) or repeat an earlier line: a torn write only loses a suffix.
 */
function assertOnlyTornAfter(reader: LineReader, line: RawLine, bad: BadLine, chain: Chain, path: string): void {
  const corrupt = (why: string): StorageError =>
    new StorageError('corrupt', `${path}: line ${bad.line}: ${why}: the file is corrupt, not torn; nothing was changed`, { path, line: bad.line });
  const damagedAt = damagedNewlineAt(line.bytes, chain.crc);
  if (damagedAt !== -1) {
    throw corrupt(`a whole commit ends at byte ${line.offset + damagedAt} where a newline should be, and more data follows it`);
  }
  for (let next = reader.next(); next !== null; next = reader.next()) {
    if (next.terminated && looksWhole(next.bytes)) throw corrupt(`${bad.reason}, and whole lines follow it`);
  }
}

function parseHeader(bytes: Buffer, path: string): SessionHeader {
  let header: Partial<SessionHeader>;
  try {
    header = JSON.parse(bytes.toString('utf8')) as Partial<SessionHeader>;
  } catch {
    throw new StorageError('corrupt', `${path}: line 1: the header is not JSON; this is not a tole session file`, { path, line: 1 });
  }
  if (header?.kind !== 'header' || typeof header.id !== 'string') {
    throw new StorageError('corrupt', `${path}: line 1: not a tole session header`, { path, line: 1 });
  }
  if (typeof header.storageVersion !== 'number') {
    throw new StorageError('corrupt', `${path}: line 1: the header has no storage version; this is not a tole session file`, { path, line: 1 });
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
    throw new StorageError('version', `${path}: line 1: line checksum format ${String(header.lineCrc)} is not supported (expected ${LINE_CRC})`, { path, line: 1 });
  }
  return header as SessionHeader;
}

interface RawLine {
  readonly bytes: Buffer;
  readonly offset: number;
  readonly terminated: boolean;
}

interface LineReader {
  next(): RawLine | null;
}

function lineReader(ops: FileOps, fd: number, totalBytes: number): LineReader {
  let buffer = Buffer.alloc(0);
  let bufferStart = 0; // file offset of buffer[0]
  let cursor = 0; // index into buffer
  let readOffset = 0;
  const fill = (): boolean => {
    if (readOffset >= totalBytes) return false;
    // The unread rest of the buffer moves to the front of the next one; the chunk is read in place.
    const rest = buffer.length - cursor;
    const next = Buffer.allocUnsafe(rest + Math.min(READ_CHUNK_BYTES, totalBytes - readOffset));
    buffer.copy(next, 0, cursor);
    let got = 0;
    while (rest + got < next.length) {
      const n = ops.readSync(fd, next, rest + got, next.length - rest - got, readOffset + got);
      if (n === 0) break;
      got += n;
    }
    readOffset += got;
    bufferStart += cursor;
    buffer = next.subarray(0, rest + got);
    cursor = 0;
    return got > 0;
  };
  return {
    next(): RawLine | null {
      for (;;) {
        const end = buffer.indexOf(NEWLINE, cursor);
        if (end !== -1) {
          const line = { bytes: buffer.subarray(cursor, end), offset: bufferStart + cursor, terminated: true };
          cursor = end + 1;
          return line;
        }
        if (!fill()) {
          if (cursor >= buffer.length) return null;
          const line = { bytes: buffer.subarray(cursor), offset: bufferStart + cursor, terminated: false };
          cursor = buffer.length;
          return line;
        }
      }
    },
  };
}
