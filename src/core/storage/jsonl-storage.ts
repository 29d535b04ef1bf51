import { refuseSecondName } from './session-name';
import { basename, dirname, join } from 'node:path';
import { describeIoError, isStorageError, StorageError } from './errors';
import { makeNameDurable } from './durable-name';
import { fsyncDirectory, nodeFileOps, writeWhole, type FileOps } from './file-ops';
import { replayJsonl } from './jsonl-replay';
import { ASIDE_MAX_BYTES, ASIDE_MIN_BYTES } from './aside-bounds';
import { type AsideResult, replayJsonlAside, type ResumeFrom } from './jsonl-replay-aside';
import { encodeCommit, encodeHeader, headerCrc } from './line-codec';
import { saveTornBytes } from './torn-tail-copy';
import { acquireLock, type HeldLock } from './lock-file';
import { keyOrNull, noKey, setIndexAside } from './index-key-use';
import { type IndexKey, indexPathOf, readIndex, writeIndex } from './session-index';
import type { Commit, SessionHeader } from './records';
import type { CommitSink, OpenReport, Storage } from './storage';

export interface JsonlOpenOptions {
  readonly readOnly?: boolean;
  readonly ops?: FileOps;
  readonly onCommit?: CommitSink;
  /**
   * Drops every commit `onCommit` was given so far. With it, a large file is read while a worker
   * checks it (jsonl-replay-aside.ts), and the replay starts over on one thread when that check
   * or a commit fails; without it, the file is read and checked line by line.
   */
  readonly onRestart?: () => void;
  /** Files of at least this many bytes are checked aside (ASIDE_MIN_BYTES unless given). */
  readonly asideMinBytes?: number;
  /** False: that check runs on this thread, no worker started (AsideCheck's `worker`); true unless given. */
  readonly asideWorker?: boolean;
  /**
   * Takes in the state a saved index beside the file holds (session-index.ts), in place of
   * replaying the lines it covers; only with `onRestart`, which drops it again if the check fails.
   */
  readonly onSaved?: ResumeFrom['apply'];
  /**
   * The user's key for the saved index's MAC (session-index.ts), asked for only when an index is
   * read or written; without it no index is used or saved.
   */
  readonly indexKey?: IndexKey;
  /** Unique per opener; written into the lock file. */
  readonly nonce: string;
  readonly nowMs: number;
}

/** An index is written again after a writable open once this many bytes of lines replayed past it. */
const INDEX_STALE_BYTES = 1024 * 1024;

export class JsonlStorage implements Storage {
  private poisoned: Error | null = null;
  private closed = false;
  /** The whole file as the open read it, until the index is saved (only after a replay on two threads). */
  private replayed: { file: Buffer; indexedBytes: number } | null = null;
  /** Bytes of the file whose state the open took from the saved index instead of replaying them. */
  indexedBytes = 0;
  /** Which file the path named, and when it was last written, as this handle left them: checked before each write. */
  private fileId: string | null;
  private written: string | null;

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
    private readonly indexKey: IndexKey,
  ) {
    this.fileId = fd === null ? null : ops.fileIdOf(path);
    this.written = fd === null ? null : (ops.fstatWritten?.(fd) ?? null);
  }

  get sizeBytes(): number {
    return this.size;
  }

  get header(): SessionHeader {
    return this.currentHeader;
  }

  /** Creates a new session file holding only its header, durably, and takes its lock. */
  static create(
    path: string,
    header: SessionHeader,
    options: Omit<JsonlOpenOptions, 'readOnly' | 'onCommit'>,
  ): JsonlStorage {
    const ops = options.ops ?? nodeFileOps;
    if (ops.existsSync(path))
      throw new StorageError('invalid-commit', `a session file already exists at ${path}`, { path });
    const lock = acquireLock(ops, path, options.nonce, options.nowMs, true);
    const temp = join(dirname(path), `.${basename(path)}.${options.nonce}.tmp`);
    let tempMade = false;
    try {
      const bytes = encodeHeader(header);
      const tempFd = ops.openSync(temp, 'wx', 0o600);
      tempMade = true;
      try {
        writeWhole(ops, tempFd, bytes, 0);
        ops.fdatasyncSync(tempFd);
      } finally {
        ops.closeSync(tempFd);
      }
      ops.renameSync(temp, path);
      tempMade = false;
      fsyncDirectory(ops, dirname(path));
      const fd = ops.openSync(path, 'r+');
      const report: OpenReport = { commitLines: 0, bytes: bytes.length, tornTail: null };
      return new JsonlStorage(
        path,
        header,
        false,
        report,
        ops,
        fd,
        lock,
        bytes.length,
        headerCrc(bytes.subarray(0, -1)),
        options.indexKey ?? noKey,
      );
    } catch (error) {
      // A header that could not be written whole (a full disk) leaves no file behind it.
      if (tempMade) unlinkQuietly(ops, temp);
      lock.release();
      if (error instanceof StorageError) throw error;
      throw new StorageError('not-committed', `the session ${path} could not be created: ${describeIoError(error)}`, {
        path,
        cause: error,
      });
    }
  }

  /** Opens and replays a session file; repairs a torn tail unless read-only. */
  static open(path: string, options: JsonlOpenOptions): JsonlStorage {
    const ops = options.ops ?? nodeFileOps;
    if (!ops.existsSync(path)) throw new StorageError('not-found', `no session file at ${path}`, { path });
    const readOnly = options.readOnly ?? false;
    if (!readOnly) refuseSecondName(ops, path);
    const lock = readOnly ? null : acquireLock(ops, path, options.nonce, options.nowMs);
    let fd: number | null = null;
    try {
      fd = openSessionFile(ops, path, readOnly ? 'r' : 'r+');
      const sink = options.onCommit ?? (() => {});
      // The index is read only for a file the two-thread replay takes (the only one that uses it).
      const size = options.onRestart && options.onSaved ? ops.fstatSize(fd) : -1;
      const aside = size >= (options.asideMinBytes ?? ASIDE_MIN_BYTES) && size <= ASIDE_MAX_BYTES;
      const key = options.indexKey ?? noKey;
      let unvouched: string | null = null;
      const saved = aside
        ? readIndex(ops, path, size, keyOrNull(key), (reason) => {
            unvouched = reason;
          })
        : null;
      const resume = saved && options.onSaved ? { index: saved, apply: options.onSaved } : null;
      const scan: AsideResult = options.onRestart
        ? replayJsonlAside(
            ops,
            fd,
            path,
            sink,
            options.onRestart,
            options.asideMinBytes,
            undefined,
            resume,
            options.asideWorker ?? true,
            options.onSaved ?? null,
          )
        : replayJsonl(ops, fd, path, sink);
      let tornTail = scan.tornTail;
      if (tornTail && !readOnly) {
        // A torn tail left in place would swallow the next commit: cut it away durably first,
        // once its bytes are safe in a file beside the session.
        const savedTo = saveTornBytes(ops, fd, path, tornTail.offset, tornTail.bytes, options.nowMs, options.nonce);
        try {
          ops.ftruncateSync(fd, tornTail.offset);
          ops.fsyncSync(fd);
        } catch (error) {
          throw new StorageError(
            'not-committed',
            `the torn tail of ${path} (copied to ${savedTo}) could not be cut away: ${describeIoError(error)}; open it again`,
            { path, cause: error },
          );
        }
        tornTail = { ...tornTail, repaired: true, savedTo };
      }
      const report: OpenReport = {
        commitLines: scan.commitLines,
        bytes: scan.goodBytes,
        tornTail,
        ...(unvouched === null ? {} : { indexSetAside: setIndexAside(ops, path, unvouched, readOnly) }),
      };
      if (readOnly) {
        ops.closeSync(fd);
        fd = null;
      } else {
        makeNameDurable(ops, path);
      }
      const storage = new JsonlStorage(
        path,
        scan.header,
        readOnly,
        report,
        ops,
        fd,
        lock,
        scan.goodBytes,
        scan.lastCrc,
        key,
      );
      storage.indexedBytes = scan.indexedBytes ?? 0;
      if (scan.file && !tornTail && !readOnly) {
        storage.replayed = { file: scan.file, indexedBytes: scan.indexedBytes ?? 0 };
      }
      return storage;
    } catch (error) {
      if (fd !== null) ops.closeSync(fd);
      lock?.release();
      throw error;
    }
  }

  append(commit: Commit, json?: string): void {
    const fd = this.writableFd();
    this.checkLock();
    this.checkSameFile(fd);
    const line = encodeCommit(commit, this.lastCrc, json);
    try {
      writeWhole(this.ops, fd, line.bytes, this.size);
    } catch (error) {
      this.undoPartialWrite(fd, error);
      throw new StorageError('not-committed', `not committed: ${describeIoError(error)} while writing ${this.path}`, {
        path: this.path,
        cause: error,
      });
    }
    try {
      this.ops.fdatasyncSync(fd);
    } catch (error) {
      // fsyncgate: a retried fsync can falsely succeed, so the handle is never used again.
      this.poisoned = error as Error;
      throw new StorageError(
        'poisoned',
        `not acknowledged: fdatasync failed (${describeIoError(error)}) on ${this.path}; reopen the session before writing more (the commit may or may not be there)`,
        { path: this.path, cause: error },
      );
    }
    this.size += line.bytes.length;
    this.lastCrc = line.crc;
    this.replayed = null;
    this.written = this.ops.fstatWritten?.(fd) ?? null;
  }

  /**
   * Storage compaction: writes `commits` under `header` to a temp file, fsyncs it, reads it back
   * and checks the chain, then renames it over the session file and fsyncs the directory.
   */
  rewrite(commits: readonly Commit[], header: SessionHeader = this.currentHeader): void {
    const fd = this.writableFd();
    this.checkLock();
    this.checkSameFile(fd);
    const dir = dirname(this.path);
    const temp = join(dir, `.${basename(this.path)}.compact.tmp`);
    const written = this.writeVerifiedTemp(temp, commits, header);
    try {
      this.ops.renameSync(temp, this.path);
    } catch (error) {
      this.ops.unlinkSync(temp);
      throw new StorageError(
        'not-committed',
        `compaction not done, the session file is unchanged: ${describeIoError(error)}`,
        { path: this.path, cause: error },
      );
    }
    this.fd = null;
    this.ops.closeSync(fd);
    try {
      fsyncDirectory(this.ops, dir);
      this.fd = this.ops.openSync(this.path, 'r+');
      this.fileId = this.ops.fileIdOf(this.path);
      this.written = this.ops.fstatWritten?.(this.fd) ?? null;
    } catch (error) {
      this.poisoned = error as Error;
      throw new StorageError(
        'poisoned',
        `compaction of ${this.path} could not be made durable (${describeIoError(error)}): reopen the session`,
        { path: this.path, cause: error },
      );
    }
    this.replayed = null;
    this.currentHeader = header;
    this.size = written.size;
    this.lastCrc = written.crc;
    // The index held the old file's state (another header): it can never be used again.
    try {
      if (this.ops.kindOf(indexPathOf(this.path)) !== null) this.ops.unlinkSync(indexPathOf(this.path));
    } catch {
      // Only a cache: the next open reads it, finds another header and ignores it.
    }
  }

  private writeVerifiedTemp(
    temp: string,
    commits: readonly Commit[],
    header: SessionHeader,
  ): { size: number; crc: number } {
    const headerBytes = encodeHeader(header);
    let crc = headerCrc(headerBytes.subarray(0, -1));
    let size = 0;
    // Made anew ('wx+' follows no symlink): a name planted there is never written through. One
    // left by a compaction a crash stopped is removed first (the name itself, not what it names).
    if (this.ops.fileIdOf(temp) !== null) this.ops.unlinkSync(temp);
    const tempFd = this.ops.openSync(temp, 'wx+', 0o600);
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
      const check = replayJsonl(this.ops, tempFd, temp, () => {});
      if (check.tornTail || check.commitLines !== commits.length || check.lastCrc !== crc) {
        throw new Error(
          `read back ${check.commitLines} of ${commits.length} commits${check.tornTail ? ` (${check.tornTail.reason})` : ''}`,
        );
      }
    } catch (error) {
      this.ops.closeSync(tempFd);
      this.ops.unlinkSync(temp);
      throw new StorageError(
        'not-committed',
        `compaction not done, the session file is unchanged: ${describeIoError(error)}`,
        { path: this.path, cause: error },
      );
    }
    this.ops.closeSync(tempFd);
    return { size, crc };
  }

  /**
   * Saves the state just replayed as the index beside the file (session-index.ts), when the open
   * was writable, replayed on two threads, and replayed at least INDEX_STALE_BYTES past the index
   * it found (or found none). `snapshot` gives the state with payloads as ranges of `file`, or
   * null when it cannot. Only right after the open: a commit since then makes it a no-op.
   */
  saveIndex(
    snapshot: (file: Buffer) => { state: unknown; numbers: Float64Array; ids: readonly string[] } | null,
  ): boolean {
    const replayed = this.replayed;
    this.replayed = null;
    if (replayed === null || this.closed || replayed.file.length !== this.size) return false;
    if (replayed.indexedBytes > 0 && this.size - replayed.indexedBytes < INDEX_STALE_BYTES) return false;
    const key = keyOrNull(this.indexKey);
    if (key === null) return false;
    const saved = snapshot(replayed.file);
    if (saved === null) return false;
    const headerEnd = replayed.file.indexOf(0x0a);
    return writeIndex(
      this.ops,
      this.path,
      {
        bytes: this.size,
        lastCrc: this.lastCrc,
        commitLines: this.report.commitLines,
        headerCrc: headerCrc(replayed.file.subarray(0, headerEnd)),
        ...saved,
      },
      key,
    );
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.fd !== null) this.ops.closeSync(this.fd);
    this.fd = null;
    this.lock?.release();
    this.lock = null;
  }

  /** A writer whose lock was taken from it stops for good: another tole may be writing the file. */
  private checkLock(): void {
    try {
      this.lock?.check();
    } catch (error) {
      this.poisoned = error as Error;
      throw error;
    }
  }

  /**
   * Refuses to write when the file changed behind this handle since its last commit: the path names
   * another file (renamed over, deleted), the file is not the size this handle left (cut, appended
   * to), or its time of last write moved (written in place, unless within tole's own write's clock
   * tick). Writing on would acknowledge commits no open reads back (another file, after a torn tail,
   * after a line that fails its checksum); so the handle stops, as when its lock is lost.
   */
  private checkSameFile(fd: number): void {
    const id = this.ops.fileIdOf(this.path);
    const size = id === this.fileId ? this.ops.fstatSize(fd) : this.size;
    const written = id === this.fileId && size === this.size ? (this.ops.fstatWritten?.(fd) ?? null) : this.written;
    if (id === this.fileId && size === this.size && written === this.written) return;
    const what =
      id === null
        ? `${this.path} was removed`
        : id !== this.fileId
          ? `${this.path} was replaced by another file`
          : size !== this.size
            ? `${this.path} is ${size} bytes, not the ${this.size} this tole wrote (${size < this.size ? 'cut' : 'written to'} by another process)`
            : `${this.path} was written to in place by another process (its size is the ${size} bytes this tole left, its time of last write is not)`;
    this.poisoned = new StorageError(
      'poisoned',
      `not committed: ${what} while this tole had it open, so what it writes from here would not be read back; nothing more is written from here. Close this tole and whatever else writes the file, then run tole check ${this.path} and open it again`,
      { path: this.path, ownRemedy: true },
    );
    throw this.poisoned;
  }

  private writableFd(): number {
    if (this.closed)
      throw new StorageError('read-only', `session ${this.path} is closed: nothing can be written`, {
        path: this.path,
      });
    if (this.readOnly || this.fd === null) {
      throw new StorageError('read-only', `session ${this.path} is open read-only: nothing can be written`, {
        path: this.path,
      });
    }
    if (this.poisoned) {
      // A lost lock or a file changed behind this handle says itself what to do.
      if (isStorageError(this.poisoned)) throw this.poisoned;
      throw new StorageError('poisoned', `an earlier fsync failed on ${this.path}: reopen the session to continue`, {
        path: this.path,
      });
    }
    return this.fd;
  }

  /** Cuts a partly written commit away, durably; if that fails, nothing more goes through this handle. */
  private undoPartialWrite(fd: number, cause: unknown): void {
    try {
      this.ops.ftruncateSync(fd, this.size);
      this.ops.fsyncSync(fd);
      this.written = this.ops.fstatWritten?.(fd) ?? null;
    } catch {
      this.poisoned = cause as Error;
    }
  }
}

function openSessionFile(ops: FileOps, path: string, flags: 'r' | 'r+'): number {
  try {
    return ops.openSync(path, flags);
  } catch (error) {
    throw new StorageError('unreadable', `${path}: cannot be read (${describeIoError(error)})`, { path, cause: error });
  }
}

function unlinkQuietly(ops: FileOps, path: string): void {
  try {
    ops.unlinkSync(path);
  } catch {
    // Gone already, or the disk refuses even this: the name holds no session either way.
  }
}
