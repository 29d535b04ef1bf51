/**
 * The PostgreSQL schema sessions are shipped to, as forward-only numbered migrations. A migration
 * is never edited once released: a change is a new one with the next number. Everything lives in
 * the `tole` schema. The views are the documented way to query it (README, "Sharing sessions
 * with a team").
 */

interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sessions, records, entries, tool effects, usage, registers; cost and destructive-call views',
    sql: `
CREATE TABLE tole.sessions (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  cwd text NOT NULL,
  person text NOT NULL,
  host text NOT NULL,
  header jsonb NOT NULL,
  parent_session_id text,
  parent_entry_id text,
  first_prompt text,
  shipped_seq bigint NOT NULL DEFAULT 0,
  compacted_at_seq bigint,
  holder_host text,
  holder_pid integer,
  updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON COLUMN tole.sessions.shipped_seq IS 'the shipper''s cursor: every record with seq <= this is here, moved in the same transaction as the rows';
COMMENT ON COLUMN tole.sessions.holder_host IS 'the host whose tole had the session open at the last sync (null: nobody)';

CREATE TABLE tole.records (
  session_id text NOT NULL REFERENCES tole.sessions(id),
  seq bigint NOT NULL,
  commit_seq bigint NOT NULL,
  kind text NOT NULL,
  body jsonb NOT NULL,
  PRIMARY KEY (session_id, seq)
);
COMMENT ON TABLE tole.records IS 'every committed record as the session file holds it; commit_seq is the first seq of its commit';

CREATE TABLE tole.entries (
  session_id text NOT NULL REFERENCES tole.sessions(id),
  seq bigint NOT NULL,
  id text NOT NULL,
  parent_id text,
  type text NOT NULL,
  lane text,
  at timestamptz NOT NULL,
  payload jsonb NOT NULL,
  PRIMARY KEY (session_id, seq),
  UNIQUE (session_id, id)
);

CREATE TABLE tole.tool_effects (
  session_id text NOT NULL REFERENCES tole.sessions(id),
  intent_entry_id text NOT NULL,
  intent_seq bigint NOT NULL,
  call_id text NOT NULL,
  tool text NOT NULL,
  subject text NOT NULL,
  risk text NOT NULL,
  reason text,
  replay text,
  input jsonb,
  lane text,
  intent_at timestamptz NOT NULL,
  approved boolean,
  approved_by text,
  approval_rule text,
  approval_reason text,
  approval_entry_id text,
  outcome text,
  resumed_by text,
  duration_ms bigint,
  settlement_entry_id text,
  settled_at timestamptz,
  PRIMARY KEY (session_id, intent_entry_id)
);
COMMENT ON COLUMN tole.tool_effects.approved_by IS 'policy, rule, yes, user or session when approved; user, headless, hook or interrupted when not';
COMMENT ON COLUMN tole.tool_effects.resumed_by IS 'how a call a crash left open was settled: rerun, guard or never-replay';

CREATE TABLE tole.usage (
  session_id text NOT NULL REFERENCES tole.sessions(id),
  seq bigint NOT NULL,
  id text NOT NULL,
  entry_id text,
  model text NOT NULL,
  attempt integer,
  outcome text,
  input_tokens bigint NOT NULL,
  output_tokens bigint NOT NULL,
  cached_input_tokens bigint NOT NULL,
  cache_write_tokens bigint NOT NULL,
  cost_usd_micros bigint NOT NULL,
  priced boolean NOT NULL,
  latency_ms bigint,
  lane text,
  error text,
  at timestamptz NOT NULL,
  PRIMARY KEY (session_id, seq)
);

CREATE TABLE tole.registers (
  session_id text NOT NULL REFERENCES tole.sessions(id),
  namespace text NOT NULL,
  key text NOT NULL,
  seq bigint NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY (session_id, namespace, key)
);
COMMENT ON TABLE tole.registers IS 'the live register cells of each session as of its shipped_seq';

CREATE VIEW tole.cost_per_person_model_day AS
SELECT s.person, u.model, (u.at AT TIME ZONE 'UTC')::date AS day,
       sum(u.cost_usd_micros) / 1e6 AS cost_usd,
       sum(u.input_tokens) AS input_tokens, sum(u.output_tokens) AS output_tokens,
       count(*) AS attempts, bool_or(NOT u.priced AND u.input_tokens + u.output_tokens > 0) AS has_unpriced
FROM tole.usage u JOIN tole.sessions s ON s.id = u.session_id
GROUP BY s.person, u.model, (u.at AT TIME ZONE 'UTC')::date;

CREATE VIEW tole.destructive_calls AS
SELECT t.session_id, s.person, s.host, t.intent_at, t.tool, t.subject, t.reason,
       t.approved, t.approved_by, CASE WHEN t.approved_by = 'user' THEN s.person END AS approved_by_person,
       t.approval_reason, t.outcome, t.resumed_by, t.settled_at
FROM tole.tool_effects t JOIN tole.sessions s ON s.id = t.session_id
WHERE t.risk = 'Destructive';
`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Runs before any migration: the schema and the table that says which migrations ran. */
export const BOOTSTRAP_SQL = `
CREATE SCHEMA IF NOT EXISTS tole;
CREATE TABLE IF NOT EXISTS tole.schema_migrations (
  version integer PRIMARY KEY,
  description text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);`;

/** One number for every tole that migrates this database: they take turns. */
export const MIGRATION_LOCK_KEY = 7_412_017;
