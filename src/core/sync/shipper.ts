/**
 * Ships committed records to PostgreSQL exactly once. The server keeps each session's cursor
 * (`sessions.shipped_seq`) and moves it in the same transaction as the rows it covers, under a
 * row lock: a crash or a dropped connection anywhere leaves either the whole batch and its cursor
 * or neither, and the next run starts from the cursor. Rows are keyed by (session id, seq) and
 * inserted with ON CONFLICT DO NOTHING besides, so nothing can be doubled. Commits are never split
 * across batches. The local file is only ever read.
 */
import type { FileOps } from '../storage/file-ops';
import { isStorageError } from '../storage/errors';
import type { SessionHeader } from '../storage/records';
import type { Db } from './database';
import { postgresTable } from './postgres-table';
import { fingerprintOf, type ShipCache } from './ship-cache';
import { readLocalSession, type LocalSession, type ShipCommit } from './local-session';
import type { RecordRow, ShipIdentity, TeamTable } from './team-table';

export type { ShipIdentity } from './team-table';

interface ShipOptions extends ShipIdentity {
  /** Records per transaction (whole commits; at least one commit). */
  readonly batchRecords?: number;
  /** Called after each committed batch (the fault tests kill the shipper around these). */
  readonly onBatch?: (sessionId: string, shippedSeq: number) => void;
  /** Skips files unchanged since the last sync to this server. */
  readonly cache?: ShipCache;
  /** How the session files are read (the fault simulator's disk); the real file system's when absent. */
  readonly ops?: FileOps;
}

interface SessionShipResult {
  readonly id: string;
  readonly path: string;
  readonly records: number;
  readonly shippedSeq: number;
  /** Not read: unchanged since the last sync, which left the server's cursor where it is. */
  readonly unchanged?: boolean;
  /** Set when the file could not be read as a session (it is skipped, and said so). */
  readonly problem?: string;
}

export interface ShipReport {
  readonly sessions: readonly SessionShipResult[];
  readonly records: number;
}

interface SessionFile {
  readonly path: string;
  readonly header: SessionHeader;
}

/**
 * Ships every file in turn. Two files with one id (a session and its converted copy) ship as
 * one: the one that went further first, so the other finds nothing above the cursor.
 */
export async function shipSessions(db: Db, files: readonly SessionFile[], options: ShipOptions): Promise<ShipReport> {
  return shipToTable(postgresTable(db), files, options);
}

/** `shipSessions` to any TeamTable (the simulator's in memory). */
export async function shipToTable(
  db: TeamTable,
  files: readonly SessionFile[],
  options: ShipOptions,
): Promise<ShipReport> {
  const results: SessionShipResult[] = [];
  for (const file of files) results.push(await shipSession(db, file, options));
  options.cache?.save();
  return { sessions: results, records: results.reduce((n, r) => n + r.records, 0) };
}

async function shipSession(db: TeamTable, file: SessionFile, options: ShipOptions): Promise<SessionShipResult> {
  const { path } = file;
  const cursor = await db.cursor(file.header.id);
  if (options.cache?.unchanged(path, cursor))
    return { id: file.header.id, path, records: 0, shippedSeq: cursor, unchanged: true };
  const fingerprint = options.cache ? fingerprintOf(path) : '';
  let local: LocalSession;
  try {
    local = readLocalSession(path, cursor, options.ops);
  } catch (error) {
    if (!isStorageError(error)) throw error;
    return { id: file.header.id, path, records: 0, shippedSeq: cursor, problem: error.message };
  }
  const id = local.header.id;
  const diverged = await divergence(db, local);
  if (diverged) return { id, path, records: 0, shippedSeq: cursor, problem: diverged };
  let shipped = 0;
  let shippedSeq = cursor;
  const commits = local.commits.filter((c) => c.lastSeq > cursor);
  // Records missing below the file's last seq: everything goes in one transaction with the
  // register fix-up, so that no cursor is ever stored past a gap that is not yet reconciled.
  const batchRecords = local.gap ? Infinity : (options.batchRecords ?? 2000);
  let batch: ShipCommit[] = [];
  let batchSize = 0;
  const flush = async (last: boolean): Promise<void> => {
    if (batch.length === 0) return;
    const result = await shipBatch(db, local, batch, options, last && local.gap);
    shipped += result.records;
    shippedSeq = result.shippedSeq;
    options.onBatch?.(id, shippedSeq);
    batch = [];
    batchSize = 0;
  };
  for (const commit of commits) {
    batch.push(commit);
    batchSize += commit.records.length;
    if (batchSize >= batchRecords) await flush(false);
  }
  await flush(true);
  if (commits.length === 0) shippedSeq = await settleSession(db, local, options);
  options.cache?.record(path, fingerprint, shippedSeq);
  return { id, path, records: shipped, shippedSeq };
}

/**
 * Another machine continued this session from a pulled copy while this file went on too: both
 * hold records above the same seq, and they differ. Nothing of this file is shipped then; it says
 * so, and how to go on.
 */
async function divergence(db: TeamTable, local: LocalSession): Promise<string | null> {
  for (const record of local.atCursor) {
    if ((await db.recordMatches(local.header.id, record.seq, record)) !== false) continue;
    return `this file and the server hold different records at seq ${record.seq} (the session was continued on another machine too): not shipped; keep this file, move it away, and take the server's copy with tole --resume ${local.header.id} --from`;
  }
  return null;
}

async function shipBatch(
  db: TeamTable,
  local: LocalSession,
  batch: readonly ShipCommit[],
  options: ShipIdentity,
  reconcile: boolean,
): Promise<{ records: number; shippedSeq: number }> {
  const id = local.header.id;
  return db.transaction(async () => {
    const cursor = await db.lockSession(local, options);
    // Another shipper may have moved the cursor since this one read it: keep only what is above.
    const commits = batch.filter((c) => c.lastSeq > cursor);
    if (commits.length === 0) return { records: 0, shippedSeq: cursor };
    const above = <T extends { seq?: number; intent_seq?: number }>(rows: readonly T[]): T[] =>
      rows.filter((r) => (r.seq ?? r.intent_seq ?? Infinity) > cursor);
    const records: RecordRow[] = commits.flatMap((c) =>
      c.records
        .filter((r) => r.seq > cursor)
        .map((r) => ({ seq: r.seq, commit_seq: c.firstSeq, kind: r.kind, body: r })),
    );
    await db.insertRecords(id, records);
    const entries = above(commits.flatMap((c) => c.entries));
    if (entries.length > 0) await db.insertEntries(id, entries);
    await shipEffects(db, id, commits, cursor);
    const usage = above(commits.flatMap((c) => c.usage));
    if (usage.length > 0) await db.insertUsage(id, usage);
    await shipRegisters(
      db,
      id,
      records.map((r) => r.body),
    );
    const shippedSeq = commits[commits.length - 1]!.lastSeq;
    await db.setCursor(id, shippedSeq);
    if (reconcile) return { records: records.length, shippedSeq: await reconcileRegisters(db, local) };
    return { records: records.length, shippedSeq };
  });
}

async function shipEffects(db: TeamTable, id: string, commits: readonly ShipCommit[], cursor: number): Promise<void> {
  const intents = commits.flatMap((c) => c.intents).filter((r) => r.intent_seq > cursor);
  if (intents.length > 0) await db.insertIntents(id, intents);
  // The commits are above the cursor as wholes, so their approvals and settlements are too.
  const approvals = commits.flatMap((c) => c.approvals);
  if (approvals.length > 0) await db.applyApprovals(id, approvals);
  const settlements = commits.flatMap((c) => c.settlements);
  if (settlements.length > 0) await db.applySettlements(id, settlements);
}

/** Applies the batch's register records to the live cells: the last op per cell wins. */
async function shipRegisters(db: TeamTable, id: string, records: readonly unknown[]): Promise<void> {
  const last = new Map<
    string,
    { namespace: string; key: string; seq: number; op: 'set' | 'delete'; value?: unknown }
  >();
  for (const r of records as {
    kind: string;
    op?: 'set' | 'delete';
    namespace?: string;
    key?: string;
    seq: number;
    value?: unknown;
  }[]) {
    if (r.kind !== 'register') continue;
    last.set(JSON.stringify([r.namespace, r.key]), {
      namespace: r.namespace!,
      key: r.key!,
      seq: r.seq,
      op: r.op!,
      value: r.value,
    });
  }
  const sets = [...last.values()]
    .filter((c) => c.op === 'set')
    .map((c) => ({ namespace: c.namespace, key: c.key, seq: c.seq, value: c.value ?? null }));
  const deletes = [...last.values()]
    .filter((c) => c.op === 'delete')
    .map((c) => ({ namespace: c.namespace, key: c.key }));
  if (sets.length > 0) await db.upsertCells(id, sets);
  if (deletes.length > 0) await db.deleteCells(id, deletes);
}

/**
 * The last transaction of a sync: records who holds the session now, and, when records between
 * the cursor and the file's last seq are gone (storage compaction dropped overwritten register
 * lines before they were shipped, or a SQLite copy overwrote cells in place), makes the server's
 * live register cells the file's own and moves the cursor to the file's last seq.
 */
async function settleSession(db: TeamTable, local: LocalSession, options: ShipIdentity): Promise<number> {
  return db.transaction(async () => {
    const cursor = await db.lockSession(local, options);
    if (!local.gap || local.lastSeq <= cursor) return cursor;
    return reconcileRegisters(db, local);
  });
}

/** Inside a transaction holding the session's row: the server's cells become the file's, at its last seq. */
async function reconcileRegisters(db: TeamTable, local: LocalSession): Promise<number> {
  const id = local.header.id;
  await db.clearCells(id);
  if (local.liveRegisters.length > 0) await db.upsertCells(id, local.liveRegisters);
  await db.raiseCursor(id, local.lastSeq, local.header.compactedAtSeq ?? null);
  return local.lastSeq;
}
