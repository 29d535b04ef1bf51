/** The team's tables in PostgreSQL (schema.ts): each TeamTable operation as one statement. */
import type { Db } from './database';
import type { TeamTable } from './team-table';

export function postgresTable(db: Db): TeamTable {
  return {
    transaction: (body) => db.transaction(body),
    async cursor(id) {
      const { rows } = await db.query<{ shipped_seq: string }>('SELECT shipped_seq FROM tole.sessions WHERE id = $1', [
        id,
      ]);
      return rows[0] ? Number(rows[0].shipped_seq) : 0;
    },
    async recordMatches(id, seq, record) {
      const { rows } = await db.query<{ same: boolean }>(
        'SELECT body = $3::jsonb AS same FROM tole.records WHERE session_id = $1 AND seq = $2',
        [id, seq, JSON.stringify(record)],
      );
      return rows.length === 0 ? null : rows[0]!.same;
    },
    async lockSession(local, options) {
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
    },
    async insertRecords(id, records) {
      await db.query(
        `INSERT INTO tole.records (session_id, seq, commit_seq, kind, body)
       SELECT $1, x.seq, x.commit_seq, x.kind, x.body FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, commit_seq bigint, kind text, body jsonb)
       ON CONFLICT DO NOTHING`,
        [id, JSON.stringify(records)],
      );
    },
    async insertEntries(id, entries) {
      await db.query(
        `INSERT INTO tole.entries (session_id, seq, id, parent_id, type, lane, at, payload)
         SELECT $1, x.seq, x.id, x.parent_id, x.type, x.lane, to_timestamp(x.at_ms / 1000.0), x.payload
         FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, id text, parent_id text, type text, lane text, at_ms double precision, payload jsonb)
         ON CONFLICT DO NOTHING`,
        [id, JSON.stringify(entries)],
      );
    },
    async insertIntents(id, intents) {
      await db.query(
        `INSERT INTO tole.tool_effects (session_id, intent_entry_id, intent_seq, call_id, tool, subject, risk, reason, replay, input, lane, intent_at, approved, approved_by, approval_rule, approval_reason)
       SELECT $1, x.intent_entry_id, x.intent_seq, x.call_id, x.tool, x.subject, x.risk, x.reason, x.replay, x.input, x.lane, to_timestamp(x.at_ms / 1000.0), x.approved, x.approved_by, x.approval_rule, x.approval_reason
       FROM jsonb_to_recordset($2::jsonb) AS x(intent_entry_id text, intent_seq bigint, call_id text, tool text, subject text, risk text, reason text, replay text, input jsonb, lane text,
         at_ms double precision, approved boolean, approved_by text, approval_rule text, approval_reason text)
       ON CONFLICT DO NOTHING`,
        [id, JSON.stringify(intents)],
      );
    },
    async applyApprovals(id, approvals) {
      await db.query(
        `UPDATE tole.tool_effects t SET approved = x.approved, approved_by = x.approved_by, approval_rule = x.approval_rule, approval_reason = x.approval_reason, approval_entry_id = x.approval_entry_id
       FROM jsonb_to_recordset($2::jsonb) AS x(intent_entry_id text, approval_entry_id text, approved boolean, approved_by text, approval_rule text, approval_reason text)
       WHERE t.session_id = $1 AND t.intent_entry_id = x.intent_entry_id`,
        [id, JSON.stringify(approvals)],
      );
    },
    async applySettlements(id, settlements) {
      await db.query(
        `UPDATE tole.tool_effects t SET outcome = x.outcome, resumed_by = x.resumed_by, duration_ms = x.duration_ms, settlement_entry_id = x.settlement_entry_id, settled_at = to_timestamp(x.at_ms / 1000.0)
       FROM jsonb_to_recordset($2::jsonb) AS x(intent_entry_id text, settlement_entry_id text, outcome text, resumed_by text, duration_ms bigint, at_ms double precision)
       WHERE t.session_id = $1 AND t.intent_entry_id = x.intent_entry_id`,
        [id, JSON.stringify(settlements)],
      );
    },
    async insertUsage(id, usage) {
      await db.query(
        `INSERT INTO tole.usage (session_id, seq, id, entry_id, model, attempt, outcome, input_tokens, output_tokens, cached_input_tokens, cache_write_tokens, cost_usd_micros, priced, latency_ms, lane, error, at)
         SELECT $1, x.seq, x.id, x.entry_id, x.model, x.attempt, x.outcome, x.input_tokens, x.output_tokens, x.cached_input_tokens, x.cache_write_tokens, x.cost_usd_micros, x.priced, x.latency_ms, x.lane, x.error, to_timestamp(x.at_ms / 1000.0)
         FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, id text, entry_id text, model text, attempt integer, outcome text, input_tokens bigint, output_tokens bigint,
           cached_input_tokens bigint, cache_write_tokens bigint, cost_usd_micros bigint, priced boolean, latency_ms bigint, lane text, error text, at_ms double precision)
         ON CONFLICT DO NOTHING`,
        [id, JSON.stringify(usage)],
      );
    },
    async upsertCells(id, cells) {
      await db.query(
        `INSERT INTO tole.registers (session_id, namespace, key, seq, value)
     SELECT $1, x.namespace, x.key, x.seq, COALESCE(x.value, 'null'::jsonb) FROM jsonb_to_recordset($2::jsonb) AS x(namespace text, key text, seq bigint, value jsonb)
     ON CONFLICT (session_id, namespace, key) DO UPDATE SET seq = EXCLUDED.seq, value = EXCLUDED.value`,
        [id, JSON.stringify(cells.map((c) => ({ ...c, value: c.value ?? null })))],
      );
    },
    async deleteCells(id, cells) {
      await db.query(
        `DELETE FROM tole.registers r USING jsonb_to_recordset($2::jsonb) AS x(namespace text, key text)
       WHERE r.session_id = $1 AND r.namespace = x.namespace AND r.key = x.key`,
        [id, JSON.stringify(cells)],
      );
    },
    async clearCells(id) {
      await db.query('DELETE FROM tole.registers WHERE session_id = $1', [id]);
    },
    async setCursor(id, seq) {
      await db.query('UPDATE tole.sessions SET shipped_seq = $2, updated_at = now() WHERE id = $1', [id, seq]);
    },
    async raiseCursor(id, seq, compactedAtSeq) {
      await db.query(
        'UPDATE tole.sessions SET shipped_seq = greatest(shipped_seq, $2), compacted_at_seq = $3, updated_at = now() WHERE id = $1',
        [id, seq, compactedAtSeq],
      );
    },
  };
}
