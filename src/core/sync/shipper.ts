/**
 * Ships committed records to PostgreSQL exactly once. The server keeps each session's cursor
 * (`sessions.shipped_seq`) and moves it in the same transaction as the rows it covers, under a
 * row lock: a crash or a dropped connection anywhere leaves either the whole batch and its cursor
 * or neither, and the next run starts from the cursor. Rows are keyed by (session id, seq) and
 * inserted with ON CONFLICT DO NOTHING besides, so nothing can be doubled. Commits are never split
 * across batches. The local file is only ever read.
 */
import { isStorageError } from '../storage/errors';
import type { SessionHeader } from '../storage/records';
import type { Db } from './database';
import { fingerprintOf, type ShipCache } from './ship-cache';
import { readLocalSession, type LiveCell, type LocalSession, type ShipCommit } from './local-session';

export interface ShipIdentity {
  /** Who the sessions are from, for the cost views (config sync.person, else the login name). */
  readonly person: string;
  readonly host: string;
}

export interface ShipOptions extends ShipIdentity {
  /** Records per transaction (whole commits; at least one commit). */
  readonly batchRecords?: number;
  /** Called after each committed batch (the fault tests kill the shipper around these). */
  readonly onBatch?: (sessionId: string, shippedSeq: number) => void;
  /** Skips files unchanged since the last sync to this server. */
  readonly cache?: ShipCache;
}

export interface SessionShipResult {
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

export interface SessionFile {
  readonly path: string;
  readonly header: SessionHeader;
}

/**
 * Ships every file in turn. Two files with one id (a session and its converted copy) ship as
 * one: the one that went further first, so the other finds nothing above the cursor.
 */
export async function shipSessions(db: Db, files: readonly SessionFile[], options: ShipOptions): Promise<ShipReport> {
  const results: SessionShipResult[] = [];
  for (const file of files) results.push(await shipSession(db, file, options));
  options.cache?.save();
  return { sessions: results, records: results.reduce((n, r) => n + r.records, 0) };
}

export async function shipSession(db: Db, file: SessionFile, options: ShipOptions): Promise<SessionShipResult> {
  const { path } = file;
  const cursor = await serverCursor(db, file.header.id);
  if (options.cache?.unchanged(path, cursor))
    return { id: file.header.id, path, records: 0, shippedSeq: cursor, unchanged: true };
  const fingerprint = fingerprintOf(path);
  let local: LocalSession;
  try {
    local = readLocalSession(path, cursor);
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
async function divergence(db: Db, local: LocalSession): Promise<string | null> {
  for (const record of local.atCursor) {
    const { rows } = await db.query<{ same: boolean }>(
      'SELECT body = $3::jsonb AS same FROM tole.records WHERE session_id = $1 AND seq = $2',
      [local.header.id, record.seq, JSON.stringify(record)],
    );
    if (rows.length === 0 || rows[0]!.same) continue;
    return `this file and the server hold different records at seq ${record.seq} (the session was continued on another machine too): not shipped; keep this file, move it away, and take the server's copy with tole --resume ${local.header.id} --from`;
  }
  return null;
}

async function serverCursor(db: Db, id: string): Promise<number> {
  const { rows } = await db.query<{ shipped_seq: string }>('SELECT shipped_seq FROM tole.sessions WHERE id = $1', [id]);
  return rows[0] ? Number(rows[0].shipped_seq) : 0;
}

/** Creates the session's row when it is new, refreshes who holds it, and locks it; returns the cursor. */
async function lockSession(db: Db, local: LocalSession, options: ShipIdentity): Promise<number> {
  const h = local.header;
  await db.query(
    `INSERT INTO tole.sessions (id, created_at, cwd, person, host, header, parent_session_id, parent_entry_id, first_prompt, holder_host, holder_pid)
     VALUES ($1, to_timestamp($2 / 1000.0), $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (id) DO UPDATE SET holder_host = EXCLUDED.holder_host, holder_pid = EXCLUDED.holder_pid,
       first_prompt = COALESCE(tole.sessions.first_prompt, EXCLUDED.first_prompt), updated_at = now()`,
    [
      h.id,
      h.createdAt,
      h.cwd,
      options.person,
      options.host,
      JSON.stringify(h),
      h.parent?.sessionId ?? null,
      h.parent?.entryId ?? null,
      local.firstPrompt,
      local.holder?.host ?? null,
      local.holder?.pid ?? null,
    ],
  );
  const { rows } = await db.query<{ shipped_seq: string }>(
    'SELECT shipped_seq FROM tole.sessions WHERE id = $1 FOR UPDATE',
    [h.id],
  );
  return Number(rows[0]!.shipped_seq);
}

async function shipBatch(
  db: Db,
  local: LocalSession,
  batch: readonly ShipCommit[],
  options: ShipIdentity,
  reconcile: boolean,
): Promise<{ records: number; shippedSeq: number }> {
  const id = local.header.id;
  return db.transaction(async () => {
    const cursor = await lockSession(db, local, options);
    // Another shipper may have moved the cursor since this one read it: keep only what is above.
    const commits = batch.filter((c) => c.lastSeq > cursor);
    if (commits.length === 0) return { records: 0, shippedSeq: cursor };
    const above = <T extends { seq?: number; intent_seq?: number }>(rows: readonly T[]): T[] =>
      rows.filter((r) => (r.seq ?? r.intent_seq ?? Infinity) > cursor);
    const records = commits.flatMap((c) =>
      c.records
        .filter((r) => r.seq > cursor)
        .map((r) => ({ seq: r.seq, commit_seq: c.firstSeq, kind: r.kind, body: r })),
    );
    await db.query(
      `INSERT INTO tole.records (session_id, seq, commit_seq, kind, body)
       SELECT $1, x.seq, x.commit_seq, x.kind, x.body FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, commit_seq bigint, kind text, body jsonb)
       ON CONFLICT DO NOTHING`,
      [id, JSON.stringify(records)],
    );
    const entries = above(commits.flatMap((c) => c.entries));
    if (entries.length > 0) {
      await db.query(
        `INSERT INTO tole.entries (session_id, seq, id, parent_id, type, lane, at, payload)
         SELECT $1, x.seq, x.id, x.parent_id, x.type, x.lane, to_timestamp(x.at_ms / 1000.0), x.payload
         FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, id text, parent_id text, type text, lane text, at_ms double precision, payload jsonb)
         ON CONFLICT DO NOTHING`,
        [id, JSON.stringify(entries)],
      );
    }
    await shipEffects(db, id, commits, cursor);
    const usage = above(commits.flatMap((c) => c.usage));
    if (usage.length > 0) {
      await db.query(
        `INSERT INTO tole.usage (session_id, seq, id, entry_id, model, attempt, outcome, input_tokens, output_tokens, cached_input_tokens, cache_write_tokens, cost_usd_micros, priced, latency_ms, lane, error, at)
         SELECT $1, x.seq, x.id, x.entry_id, x.model, x.attempt, x.outcome, x.input_tokens, x.output_tokens, x.cached_input_tokens, x.cache_write_tokens, x.cost_usd_micros, x.priced, x.latency_ms, x.lane, x.error, to_timestamp(x.at_ms / 1000.0)
         FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, id text, entry_id text, model text, attempt integer, outcome text, input_tokens bigint, output_tokens bigint,
           cached_input_tokens bigint, cache_write_tokens bigint, cost_usd_micros bigint, priced boolean, latency_ms bigint, lane text, error text, at_ms double precision)
         ON CONFLICT DO NOTHING`,
        [id, JSON.stringify(usage)],
      );
    }
    await shipRegisters(
      db,
      id,
      records.map((r) => r.body),
    );
    const shippedSeq = commits[commits.length - 1]!.lastSeq;
    await db.query('UPDATE tole.sessions SET shipped_seq = $2, updated_at = now() WHERE id = $1', [id, shippedSeq]);
    if (reconcile) return { records: records.length, shippedSeq: await reconcileRegisters(db, local) };
    return { records: records.length, shippedSeq };
  });
}

async function shipEffects(db: Db, id: string, commits: readonly ShipCommit[], cursor: number): Promise<void> {
  const intents = commits.flatMap((c) => c.intents).filter((r) => r.intent_seq > cursor);
  if (intents.length > 0) {
    await db.query(
      `INSERT INTO tole.tool_effects (session_id, intent_entry_id, intent_seq, call_id, tool, subject, risk, reason, replay, input, lane, intent_at, approved, approved_by, approval_rule, approval_reason)
       SELECT $1, x.intent_entry_id, x.intent_seq, x.call_id, x.tool, x.subject, x.risk, x.reason, x.replay, x.input, x.lane, to_timestamp(x.at_ms / 1000.0), x.approved, x.approved_by, x.approval_rule, x.approval_reason
       FROM jsonb_to_recordset($2::jsonb) AS x(intent_entry_id text, intent_seq bigint, call_id text, tool text, subject text, risk text, reason text, replay text, input jsonb, lane text,
         at_ms double precision, approved boolean, approved_by text, approval_rule text, approval_reason text)
       ON CONFLICT DO NOTHING`,
      [id, JSON.stringify(intents)],
    );
  }
  // The commits are above the cursor as wholes, so their approvals and settlements are too.
  const approvals = commits.flatMap((c) => c.approvals);
  if (approvals.length > 0) {
    await db.query(
      `UPDATE tole.tool_effects t SET approved = x.approved, approved_by = x.approved_by, approval_rule = x.approval_rule, approval_reason = x.approval_reason, approval_entry_id = x.approval_entry_id
       FROM jsonb_to_recordset($2::jsonb) AS x(intent_entry_id text, approval_entry_id text, approved boolean, approved_by text, approval_rule text, approval_reason text)
       WHERE t.session_id = $1 AND t.intent_entry_id = x.intent_entry_id`,
      [id, JSON.stringify(approvals)],
    );
  }
  const settlements = commits.flatMap((c) => c.settlements);
  if (settlements.length > 0) {
    await db.query(
      `UPDATE tole.tool_effects t SET outcome = x.outcome, resumed_by = x.resumed_by, duration_ms = x.duration_ms, settlement_entry_id = x.settlement_entry_id, settled_at = to_timestamp(x.at_ms / 1000.0)
       FROM jsonb_to_recordset($2::jsonb) AS x(intent_entry_id text, settlement_entry_id text, outcome text, resumed_by text, duration_ms bigint, at_ms double precision)
       WHERE t.session_id = $1 AND t.intent_entry_id = x.intent_entry_id`,
      [id, JSON.stringify(settlements)],
    );
  }
}

/** Applies the batch's register records to the live cells: the last op per cell wins. */
async function shipRegisters(db: Db, id: string, records: readonly unknown[]): Promise<void> {
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
  if (sets.length > 0) await upsertCells(db, id, sets);
  if (deletes.length > 0) {
    await db.query(
      `DELETE FROM tole.registers r USING jsonb_to_recordset($2::jsonb) AS x(namespace text, key text)
       WHERE r.session_id = $1 AND r.namespace = x.namespace AND r.key = x.key`,
      [id, JSON.stringify(deletes)],
    );
  }
}

async function upsertCells(db: Db, id: string, cells: readonly LiveCell[]): Promise<void> {
  await db.query(
    `INSERT INTO tole.registers (session_id, namespace, key, seq, value)
     SELECT $1, x.namespace, x.key, x.seq, COALESCE(x.value, 'null'::jsonb) FROM jsonb_to_recordset($2::jsonb) AS x(namespace text, key text, seq bigint, value jsonb)
     ON CONFLICT (session_id, namespace, key) DO UPDATE SET seq = EXCLUDED.seq, value = EXCLUDED.value`,
    [id, JSON.stringify(cells.map((c) => ({ ...c, value: c.value ?? null })))],
  );
}

/**
 * The last transaction of a sync: records who holds the session now, and, when records between
 * the cursor and the file's last seq are gone (storage compaction dropped overwritten register
 * lines before they were shipped, or a SQLite copy overwrote cells in place), makes the server's
 * live register cells the file's own and moves the cursor to the file's last seq.
 */
async function settleSession(db: Db, local: LocalSession, options: ShipIdentity): Promise<number> {
  return db.transaction(async () => {
    const cursor = await lockSession(db, local, options);
    if (!local.gap || local.lastSeq <= cursor) return cursor;
    return reconcileRegisters(db, local);
  });
}

/** Inside a transaction holding the session's row: the server's cells become the file's, at its last seq. */
async function reconcileRegisters(db: Db, local: LocalSession): Promise<number> {
  const id = local.header.id;
  await db.query('DELETE FROM tole.registers WHERE session_id = $1', [id]);
  if (local.liveRegisters.length > 0) await upsertCells(db, id, local.liveRegisters);
  await db.query(
    'UPDATE tole.sessions SET shipped_seq = greatest(shipped_seq, $2), compacted_at_seq = $3, updated_at = now() WHERE id = $1',
    [id, local.lastSeq, local.header.compactedAtSeq ?? null],
  );
  return local.lastSeq;
}
