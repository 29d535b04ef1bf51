import { existsSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StorageError } from './errors';
import { makeNameDurable } from './durable-name';
import { fsyncDirectory, nodeFileOps, type FileOps } from './file-ops';
import { acquireLock, type HeldLock } from './lock-file';
import { STORAGE_VERSION, type Commit, type SessionHeader } from './records';
import { loadSqliteDriver, type SqliteDatabase, type SqliteDriver } from './sqlite-driver';
import {
  REPLAY_SQL,
  SCHEMA_SQL,
  SQLITE_FORMAT,
  SQLITE_SCHEMA,
  recordOfRow,
  rowBytes,
  rowsOf,
  type RecordRow,
  type ReplayRow,
} from './sqlite-rows';
import type { CommitSink, OpenReport, Storage } from './storage';

interface SqliteOpenOptions {
  readonly readOnly?: boolean;
  readonly onCommit?: CommitSink;
  /** Unique per opener; written into the lock file. */
  readonly nonce: string;
  readonly nowMs: number;
  /** For the lock file only: SQLite does its own file I/O. */
  readonly ops?: FileOps;
  /** Injected by tests; else better-sqlite3, loaded on first use. */
  readonly driver?: SqliteDriver;
}

/** What a writer keeps between commits. */
interface Tail {
  lastSeq: number;
  commitNo: number;
  sizeBytes: number;
}

/**
 * The optional SQLite backend: one `.db` per session in WAL mode with `synchronous=FULL`, so a
 * commit is durable when its `BEGIN IMMEDIATE` transaction returns. SQLite's own locks let two
 * writers take turns; tole's contract is one writer per session, so the lock file is taken too.
 */
export class SqliteStorage implements Storage {
  private poisoned: Error | null = null;
  private readonly insert: Statements | null;

  private constructor(
    readonly path: string,
    private currentHeader: SessionHeader,
    readonly readOnly: boolean,
    readonly report: OpenReport,
    private db: SqliteDatabase | null,
    private lock: HeldLock | null,
    private readonly tail: Tail,
  ) {
    this.insert = db && !readOnly ? prepare(db) : null;
  }

  get header(): SessionHeader {
    return this.currentHeader;
  }

  /** Bytes of the records stored (JSON text and keys), not the size of the file's pages. */
  get sizeBytes(): number {
    return this.tail.sizeBytes;
  }

  /** Builds the database under a temp name, then renames it into place: a session never exists without its header. */
  static create(
    path: string,
    header: SessionHeader,
    options: Omit<SqliteOpenOptions, 'readOnly' | 'onCommit'>,
  ): SqliteStorage {
    const Driver = options.driver ?? loadSqliteDriver();
    const ops = options.ops ?? nodeFileOps;
    if (existsSync(path)) throw new StorageError('exists', `a session file already exists at ${path}`, { path });
    const lock = acquireLock(ops, path, options.nonce, options.nowMs, true);
    const temp = join(dirname(path), `.${basename(path)}.${options.nonce}.tmp`);
    try {
      // An empty file made first gives the database (and SQLite's -wal and -shm, which copy it) mode 0600.
      ops.closeSync(ops.openSync(temp, 'wx', 0o600));
      const db = new Driver(temp);
      try {
        configure(db);
        db.exec(SCHEMA_SQL);
        db.transaction(() => writeMeta(db, header, 0)).immediate();
      } finally {
        db.close(); // checkpoints the WAL into the file and fsyncs it
      }
      ops.renameSync(temp, path);
      fsyncDirectory(ops, dirname(path));
      const live = new Driver(path, { fileMustExist: true });
      configure(live);
      const report: OpenReport = { commitLines: 0, bytes: statSync(path).size, tornTail: null, lastSeq: 0 };
      return new SqliteStorage(path, header, false, report, live, lock, { lastSeq: 0, commitNo: 0, sizeBytes: 0 });
    } catch (error) {
      for (const leftover of [temp, `${temp}-wal`, `${temp}-shm`]) rmSync(leftover, { force: true });
      lock.release();
      throw error instanceof StorageError ? error : sqliteFailure(path, 'could not create the session', error);
    }
  }

  /** Opens and replays a session database; read-only takes no lock and never writes. */
  static open(path: string, options: SqliteOpenOptions): SqliteStorage {
    const Driver = options.driver ?? loadSqliteDriver();
    if (!existsSync(path)) throw new StorageError('not-found', `no session file at ${path}`, { path });
    const readOnly = options.readOnly ?? false;
    const lock = readOnly ? null : acquireLock(options.ops ?? nodeFileOps, path, options.nonce, options.nowMs);
    let db: SqliteDatabase | null = null;
    try {
      // A read-only open may leave an empty -wal and the -shm index behind: SQLite needs them to read a WAL database.
      db = new Driver(path, { readonly: readOnly, fileMustExist: true });
      const meta = readMeta(db, path);
      if (!readOnly) {
        configure(db);
        makeNameDurable(options.ops ?? nodeFileOps, path);
      }
      const scan = replay(db, path, options.onCommit ?? (() => {}));
      const lastSeq = Math.max(meta.lastSeq, scan.lastSeq);
      const report: OpenReport = { commitLines: scan.commits, bytes: statSync(path).size, tornTail: null, lastSeq };
      return new SqliteStorage(path, meta.header, readOnly, report, db, lock, {
        lastSeq,
        commitNo: scan.lastCommitNo,
        sizeBytes: scan.bytes,
      });
    } catch (error) {
      db?.close();
      lock?.release();
      throw error instanceof StorageError ? error : sqliteFailure(path, 'could not open the session', error);
    }
  }

  append(commit: Commit): void {
    const statements = this.writable();
    this.lock?.check();
    const rows = rowsOf(commit, this.path);
    assertIncreasing(rows, this.tail.lastSeq, this.path);
    const commitNo = this.tail.commitNo + 1;
    const lastSeq = rows[rows.length - 1]!.seq;
    this.run(() => {
      for (const row of rows) statements.write(row, commitNo);
      statements.setMeta.run(String(lastSeq), 'lastSeq');
    });
    this.tail.lastSeq = lastSeq;
    this.tail.commitNo = commitNo;
    for (const row of rows) this.tail.sizeBytes += rowBytes(row);
  }

  /** Storage compaction: replaces every row with `commits`, under `header`, in one transaction. */
  rewrite(commits: readonly Commit[], header: SessionHeader = this.currentHeader): void {
    const statements = this.writable();
    this.lock?.check();
    const all = commits.map((commit) => rowsOf(commit, this.path));
    let lastSeq = 0;
    for (const rows of all) {
      assertIncreasing(rows, lastSeq, this.path);
      lastSeq = rows[rows.length - 1]!.seq;
    }
    lastSeq = Math.max(lastSeq, header.compactedAtSeq ?? 0);
    this.run(() => {
      this.db!.exec('DELETE FROM entries; DELETE FROM registers; DELETE FROM usage_ledger;');
      all.forEach((rows, i) => rows.forEach((row) => statements.write(row, i + 1)));
      writeMeta(this.db!, header, lastSeq);
    });
    this.currentHeader = header;
    this.tail.lastSeq = lastSeq;
    this.tail.commitNo = all.length;
    this.tail.sizeBytes = all.reduce((sum, rows) => rows.reduce((s, row) => s + rowBytes(row), sum), 0);
  }

  close(): void {
    this.db?.close();
    this.db = null;
    this.lock?.release();
    this.lock = null;
  }

  private writable(): Statements {
    if (this.db === null)
      throw new StorageError('read-only', `session ${this.path} is closed: nothing can be written`, {
        path: this.path,
      });
    if (this.readOnly || this.insert === null) {
      throw new StorageError('read-only', `session ${this.path} is open read-only: nothing can be written`, {
        path: this.path,
      });
    }
    if (this.poisoned)
      throw new StorageError('poisoned', `an earlier write failed on ${this.path}: reopen the session to continue`, {
        path: this.path,
      });
    return this.insert;
  }

  /** One `BEGIN IMMEDIATE` transaction; an I/O error leaves the outcome unknown and poisons the handle. */
  private run(body: () => void): void {
    try {
      this.db!.transaction(body).immediate();
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? '');
      if (/^SQLITE_(IOERR|CORRUPT|NOTADB|CANTOPEN)/.test(code)) {
        this.poisoned = error as Error;
        throw new StorageError(
          'poisoned',
          `not acknowledged: ${code} on ${this.path}; reopen the session before writing more (the commit may or may not be there)`,
          { path: this.path, cause: error },
        );
      }
      throw new StorageError(
        'not-committed',
        `not committed: ${code || (error as Error).message} while writing ${this.path}`,
        { path: this.path, cause: error },
      );
    }
  }
}

interface Statements {
  write(row: RecordRow, commitNo: number): void;
  readonly setMeta: { run(value: string, key: string): unknown };
}

function prepare(db: SqliteDatabase): Statements {
  const entry = db.prepare(
    'INSERT INTO entries (seq, commit_no, id, parent_id, type, timestamp, payload) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const set = db.prepare(
    'INSERT OR REPLACE INTO registers (namespace, key, seq, commit_no, value) VALUES (?, ?, ?, ?, ?)',
  );
  const del = db.prepare('DELETE FROM registers WHERE namespace = ? AND key = ?');
  const usage = db.prepare('INSERT INTO usage_ledger (seq, commit_no, id, entry_id, usage) VALUES (?, ?, ?, ?, ?)');
  const setMeta = db.prepare('UPDATE meta SET value = ? WHERE key = ?');
  return {
    setMeta,
    write(row, commitNo) {
      switch (row.kind) {
        case 'entry':
          entry.run(row.seq, commitNo, row.id, row.parentId, row.type, row.timestamp, row.json);
          return;
        case 'set':
          set.run(row.namespace, row.key, row.seq, commitNo, row.json);
          return;
        case 'delete':
          del.run(row.namespace, row.key);
          return;
        case 'usage':
          usage.run(row.seq, commitNo, row.id, row.entryId, row.json);
          return;
      }
    },
  };
}

function configure(db: SqliteDatabase): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`assert: journal_mode is ${String(mode)}, not wal`);
  db.pragma('synchronous = FULL');
  const synchronous = db.pragma('synchronous', { simple: true });
  if (synchronous !== 2) throw new Error(`assert: synchronous is ${String(synchronous)}, not FULL (2)`);
}

function writeMeta(db: SqliteDatabase, header: SessionHeader, lastSeq: number): void {
  const put = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  put.run('format', SQLITE_FORMAT);
  put.run('schema', String(SQLITE_SCHEMA));
  put.run('storageVersion', String(header.storageVersion));
  put.run('header', JSON.stringify(header));
  put.run('lastSeq', String(lastSeq));
}

interface Meta {
  readonly header: SessionHeader;
  readonly lastSeq: number;
}

/** The header and versions; a newer or unknown version is refused before anything else is read. */
function readMeta(db: SqliteDatabase, path: string): Meta {
  let rows: { key: string; value: string }[];
  try {
    rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
  } catch (error) {
    throw sqliteFailure(path, 'this is not a tole session database', error);
  }
  const meta = new Map(rows.map((row) => [row.key, row.value]));
  if (meta.get('format') !== SQLITE_FORMAT)
    throw new StorageError('corrupt', `${path}: not a tole session database (no "${SQLITE_FORMAT}" format mark)`, {
      path,
    });
  const version = Number(meta.get('storageVersion'));
  if (version !== STORAGE_VERSION) {
    const newer = version > STORAGE_VERSION;
    throw new StorageError(
      'version',
      `${path}: storage version ${meta.get('storageVersion')} is ${newer ? 'newer than' : 'unknown to'} this tole (which reads version ${STORAGE_VERSION})${newer ? ': upgrade tole to open it' : ''}`,
      { path },
    );
  }
  if (meta.get('schema') !== String(SQLITE_SCHEMA)) {
    throw new StorageError(
      'version',
      `${path}: SQLite schema ${String(meta.get('schema'))} is not supported (this tole reads schema ${SQLITE_SCHEMA}): upgrade tole to open it`,
      { path },
    );
  }
  let header: SessionHeader;
  try {
    header = JSON.parse(meta.get('header') ?? '') as SessionHeader;
  } catch {
    throw new StorageError('corrupt', `${path}: the session header is not JSON`, { path });
  }
  if (header?.kind !== 'header' || typeof header.id !== 'string' || header.storageVersion !== version) {
    throw new StorageError(
      'corrupt',
      `${path}: not a tole session header, or its storage version disagrees with the database's`,
      { path },
    );
  }
  const lastSeq = Number(meta.get('lastSeq'));
  if (!Number.isSafeInteger(lastSeq) || lastSeq < 0)
    throw new StorageError('corrupt', `${path}: last seq "${meta.get('lastSeq')}" is not a seq`, { path });
  return { header, lastSeq };
}

interface Scan {
  readonly commits: number;
  readonly lastCommitNo: number;
  readonly lastSeq: number;
  readonly bytes: number;
}

/** Hands every commit to the sink in seq order, its rows grouped by commit number. */
function replay(db: SqliteDatabase, path: string, sink: CommitSink): Scan {
  const statement = db.prepare(REPLAY_SQL).raw(true);
  let group: ReturnType<typeof recordOfRow>[] = [];
  let groupNo = 0;
  let groupBytes = 0;
  let commits = 0;
  let lastSeq = 0;
  let bytes = 0;
  const flush = (): void => {
    if (group.length === 0) return;
    commits++;
    sink(group.length === 1 ? group[0]! : group, groupNo, groupBytes);
    group = [];
    groupBytes = 0;
  };
  for (const row of statement.iterate() as IterableIterator<ReplayRow>) {
    const commitNo = row[2];
    if (commitNo !== groupNo) {
      if (commitNo < groupNo)
        throw new StorageError(
          'corrupt',
          `${path}: commit ${commitNo} holds seq ${row[1]}, after seqs of commit ${groupNo}`,
          { path, line: commitNo },
        );
      flush();
      groupNo = commitNo;
    }
    try {
      group.push(recordOfRow(row));
    } catch {
      throw new StorageError('corrupt', `${path}: commit ${commitNo}: the row with seq ${row[1]} does not hold JSON`, {
        path,
        line: commitNo,
      });
    }
    const rowSize = 48 + row[7].length;
    groupBytes += rowSize;
    bytes += rowSize;
    lastSeq = row[1];
  }
  flush();
  return { commits, lastCommitNo: groupNo, lastSeq, bytes };
}

function assertIncreasing(rows: readonly RecordRow[], after: number, path: string): void {
  if (rows.length === 0) throw new StorageError('invalid-commit', 'not committed: an empty commit', { path });
  let previous = after;
  for (const row of rows) {
    if (row.seq <= previous)
      throw new StorageError('invalid-commit', `not committed: seq ${row.seq} does not increase (after ${previous})`, {
        path,
      });
    previous = row.seq;
  }
}

function sqliteFailure(path: string, what: string, error: unknown): StorageError {
  const code = String((error as { code?: unknown }).code ?? '');
  const message = (error as Error)?.message ?? String(error);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT') || /no such table/.test(message)) {
    return new StorageError('corrupt', `${path}: ${what}: ${message}`, { path, cause: error });
  }
  if (code === 'SQLITE_BUSY')
    return new StorageError('locked', `${path}: ${what}: the database is busy (${message})`, { path, cause: error });
  return new StorageError('not-committed', `${path}: ${what}: ${code ? `${code} ` : ''}${message}`, {
    path,
    cause: error,
  });
}

/** The header of a session database, or null when it is not one this tole reads (listing sessions). */
export function readSqliteHeader(path: string): SessionHeader | null {
  let db: SqliteDatabase | null = null;
  try {
    db = new (loadSqliteDriver())(path, { readonly: true, fileMustExist: true });
    return readMeta(db, path).header;
  } catch {
    return null;
  } finally {
    db?.close();
  }
}
