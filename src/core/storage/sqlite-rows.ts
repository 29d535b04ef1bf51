import { StorageError } from './errors';
import { commitRecords, type Commit, type StoredRecord } from './records';

/**
 * The SQLite layout of a session: the same logical content as a JSONL file. Entries and usage
 * rows are append-only; registers are cells, overwritten per key and removed on delete, so a
 * dead register takes no space. `commit_no` groups the rows of one commit, so that replay hands
 * the store the same transactions that were appended. `meta` holds the header and the versions.
 */
export const SQLITE_SCHEMA = 1;
export const SQLITE_FORMAT = 'tole-session';

export const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE entries (
  seq INTEGER PRIMARY KEY, commit_no INTEGER NOT NULL, id TEXT NOT NULL UNIQUE, parent_id TEXT,
  type TEXT NOT NULL, timestamp NUMERIC NOT NULL, payload TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE registers (
  namespace TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL UNIQUE, commit_no INTEGER NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (namespace, key)
) WITHOUT ROWID;
CREATE TABLE usage_ledger (
  seq INTEGER PRIMARY KEY, commit_no INTEGER NOT NULL, id TEXT NOT NULL UNIQUE, entry_id TEXT, usage TEXT NOT NULL
);
CREATE TRIGGER entries_are_immutable BEFORE UPDATE ON entries BEGIN SELECT RAISE(ABORT, 'entries are immutable'); END;
CREATE TRIGGER usage_is_append_only BEFORE UPDATE ON usage_ledger BEGIN SELECT RAISE(ABORT, 'usage rows are append-only'); END;
`;

/** Every row in seq order: [kind 0|1|2, seq, commit_no, a, b, c, d, json]. */
export const REPLAY_SQL = `
SELECT 0, seq, commit_no, id, parent_id, type, timestamp, payload FROM entries
UNION ALL SELECT 1, seq, commit_no, namespace, key, NULL, NULL, value FROM registers
UNION ALL SELECT 2, seq, commit_no, id, entry_id, NULL, NULL, usage FROM usage_ledger
ORDER BY 2`;

export type ReplayRow = [0 | 1 | 2, number, number, string, string | null, string | null, number | null, string];

/** One record as the statements take it; `json` is the payload, value or usage as JSON text. */
export type RecordRow =
  | {
      readonly kind: 'entry';
      readonly seq: number;
      readonly id: string;
      readonly parentId: string | null;
      readonly type: string;
      readonly timestamp: number;
      readonly json: string;
    }
  | {
      readonly kind: 'set';
      readonly seq: number;
      readonly namespace: string;
      readonly key: string;
      readonly json: string;
    }
  | { readonly kind: 'delete'; readonly seq: number; readonly namespace: string; readonly key: string }
  | {
      readonly kind: 'usage';
      readonly seq: number;
      readonly id: string;
      readonly entryId: string | null;
      readonly json: string;
    };

const FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  entry: new Set(['kind', 'seq', 'timestamp', 'id', 'parentId', 'type', 'payload']),
  set: new Set(['kind', 'op', 'seq', 'namespace', 'key', 'value']),
  delete: new Set(['kind', 'op', 'seq', 'namespace', 'key']),
  usage: new Set(['kind', 'seq', 'id', 'entryId', 'usage']),
};

/** The rows of a commit, or an 'invalid-commit' error when a record does not fit the columns. */
export function rowsOf(commit: Commit, path: string): RecordRow[] {
  return commitRecords(commit).map((record) => {
    try {
      const row = rowOf(record);
      for (const field in record) {
        if (!FIELDS[row.kind]!.has(field))
          throw refused(`field "${field}" of a ${record.kind} record has no column in the SQLite backend`);
      }
      if (!Number.isSafeInteger(row.seq)) throw refused(`seq ${String(row.seq)} is not an integer`);
      return row;
    } catch (error) {
      throw new StorageError('invalid-commit', (error as Error).message, { path, cause: error });
    }
  });
}

function rowOf(record: StoredRecord): RecordRow {
  switch (record.kind) {
    case 'entry':
      if (typeof record.timestamp !== 'number') throw refused(`entry ${record.id} has no numeric timestamp`);
      return {
        kind: 'entry',
        seq: record.seq,
        id: text(record.id),
        parentId: textOrNull(record.parentId),
        type: text(record.type),
        timestamp: record.timestamp,
        json: json(record.payload, 'entry payload'),
      };
    case 'register':
      if (record.op === 'delete')
        return { kind: 'delete', seq: record.seq, namespace: text(record.namespace), key: text(record.key) };
      return {
        kind: 'set',
        seq: record.seq,
        namespace: text(record.namespace),
        key: text(record.key),
        json: json(record.value, 'register value'),
      };
    case 'usage':
      return {
        kind: 'usage',
        seq: record.seq,
        id: text(record.id),
        entryId: textOrNull(record.entryId),
        json: json(record.usage, 'usage row'),
      };
    default:
      throw refused(`unknown record kind "${String((record as { kind: unknown }).kind)}"`);
  }
}

/** A replayed row as the record that was appended. Throws on a value that is not JSON. */
export function recordOfRow(row: ReplayRow): StoredRecord {
  const [kind, seq, , a, b, c, d, body] = row;
  const value: unknown = JSON.parse(body);
  if (kind === 0) return { kind: 'entry', seq, timestamp: d!, id: a, parentId: b, type: c!, payload: value };
  if (kind === 1) return { kind: 'register', op: 'set', seq, namespace: a, key: b!, value };
  return { kind: 'usage', seq, id: a, entryId: b, usage: value };
}

/** About the bytes a row stores: its JSON text and the short columns. */
export function rowBytes(row: RecordRow): number {
  return 48 + (row.kind === 'delete' ? row.namespace.length + row.key.length : row.json.length);
}

function json(value: unknown, what: string): string {
  const encoded = value === undefined ? undefined : JSON.stringify(value);
  if (encoded === undefined) throw refused(`${what} is missing`);
  return encoded;
}

/** Text columns hold UTF-8: a lone surrogate would not come back as it went in. */
function text(value: unknown): string {
  if (typeof value !== 'string') throw refused(`expected a string, found ${typeof value}`);
  if (/\p{Cs}/u.test(value)) throw refused(`"${value}" is not valid Unicode (a lone surrogate)`);
  return value;
}

function textOrNull(value: unknown): string | null {
  return value === null ? null : text(value);
}

function refused(why: string): Error {
  return new Error(`not committed: ${why}`);
}
