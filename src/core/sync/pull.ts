/**
 * Read back: the team's sessions as the server holds them, and a session pulled into a local
 * file. A pulled file is written like a storage-compacted one (every entry and usage row, the
 * live register cells, the header's compactedAtSeq at the server's cursor), built under a temp
 * name, replayed to check it, then linked into place: a crash leaves no half-made file, an
 * existing file is never overwritten, and new commits continue above the shipped seqs.
 */
import { existsSync, linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomHex, type Clock, type Random } from '../clock';
import { createStorage } from '../storage/backends';
import { StorageError } from '../storage/errors';
import { fsyncDirectory, nodeFileOps } from '../storage/file-ops';
import type { SessionHeader, StoredRecord } from '../storage/records';
import { linkedTempNameOf } from '../storage/session-name';
import { SessionStore } from '../storage/session-store';
import { SyncError, type Db } from './database';

export interface TeamSession {
  readonly id: string;
  readonly createdAt: number;
  readonly person: string;
  readonly host: string;
  readonly cwd: string;
  readonly firstPrompt: string;
  /** What `/name` called it (its `fact.session` / `name` register, as shipped), or null. */
  readonly name: string | null;
  readonly entries: number;
  readonly costUsdMicros: number;
  readonly shippedSeq: number;
  readonly holder: { readonly host: string; readonly pid: number | null } | null;
}

interface SessionRow {
  id: string;
  created_ms: string;
  person: string;
  host: string;
  cwd: string;
  first_prompt: string | null;
  name: string | null;
  entries: string;
  cost: string | null;
  shipped_seq: string;
  holder_host: string | null;
  holder_pid: number | null;
}

const SESSION_COLUMNS = `s.id, (extract(epoch FROM s.created_at) * 1000)::bigint AS created_ms, s.person, s.host, s.cwd, s.first_prompt,
  (SELECT count(*) FROM tole.entries e WHERE e.session_id = s.id) AS entries,
  (SELECT sum(u.cost_usd_micros) FROM tole.usage u WHERE u.session_id = s.id) AS cost,
  (SELECT r.value #>> '{}' FROM tole.registers r
    WHERE r.session_id = s.id AND r.namespace = 'fact.session' AND r.key = 'name' AND jsonb_typeof(r.value) = 'string') AS name,
  s.shipped_seq, s.holder_host, s.holder_pid`;

function toTeamSession(row: SessionRow): TeamSession {
  return {
    id: row.id,
    createdAt: Number(row.created_ms),
    person: row.person,
    host: row.host,
    cwd: row.cwd,
    firstPrompt: row.first_prompt ?? '',
    name: row.name,
    entries: Number(row.entries),
    costUsdMicros: Number(row.cost ?? 0),
    shippedSeq: Number(row.shipped_seq),
    holder: row.holder_host ? { host: row.holder_host, pid: row.holder_pid } : null,
  };
}

/** Every session on the server, newest first. */
export async function listTeamSessions(db: Db): Promise<TeamSession[]> {
  const { rows } = await db.query<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM tole.sessions s ORDER BY s.id DESC`);
  return rows.map(toTeamSession);
}

/** The session whose id is `ref` or starts with it (unique), or a SyncError that says what to do. */
export async function findTeamSession(db: Db, ref: string): Promise<TeamSession> {
  const { rows } = await db.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM tole.sessions s WHERE s.id = $1 OR starts_with(s.id, $1) ORDER BY s.id LIMIT 3`,
    [ref],
  );
  const exact = rows.find((r) => r.id === ref);
  if (exact) return toTeamSession(exact);
  if (rows.length === 1) return toTeamSession(rows[0]!);
  if (rows.length === 0)
    throw new SyncError('not-found', `no session "${ref}" on the server; list them with tole sessions --from URL`);
  throw new SyncError(
    'not-found',
    `"${ref}" names more than one session on the server (${rows.map((r) => r.id).join(', ')}): give more of the id`,
  );
}

interface PullOptions {
  readonly clock: Clock;
  readonly random: Random;
}

/**
 * Why `id` cannot name a session file in the sessions folder, or null when it can. The server is
 * shared and takes any id a ship gives it: the id becomes `<dir>/<id>.jsonl`, so it must be one
 * plain file name: no folder (`/`, `\\`), no `.` first (`..`, a hidden file, tole's own temp
 * names), no control character, and short enough for a file name with tole's temp prefix.
 */
export function unnameableSessionId(id: string): string | null {
  if (id.length === 0) return 'it is empty';
  if (/[/\\]/.test(id)) return 'it holds a folder separator';
  if (id.startsWith('.')) return 'it starts with a dot';
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'it holds a control character (a line break, say)';
  if (Buffer.byteLength(id) > MAX_ID_BYTES) return `it is longer than ${MAX_ID_BYTES} bytes`;
  return null;
}

/** A file name holds 255 bytes; a pull's temp name adds 14 and the suffix 6 (`.jsonl`). */
const MAX_ID_BYTES = 200;

function refuseUnnameable(id: string, where: string): void {
  const why = unnameableSessionId(id);
  if (why !== null)
    throw new SyncError(
      'not-found',
      `${JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id)} (${where}) is not a session id tole can name a file by: ${why}; nothing was written. Someone shipped it to the team server by hand: read it there with tole export --from, or ask them to remove it`,
    );
}

/** Writes the server's copy of session `id` to `<dir>/<id>.jsonl`; returns its path. */
export async function pullSession(db: Db, id: string, dir: string, options: PullOptions): Promise<string> {
  refuseUnnameable(id, 'the session on the server');
  const target = join(dir, `${id}.jsonl`);
  if (existsSync(target))
    throw new StorageError(
      'exists',
      `${target} already exists: tole never overwrites a session file; open it, or move it away to pull the server's copy`,
      { path: target },
    );
  // One snapshot: the rows and the cursor as one transaction saw them.
  const { header, records } = await db.transaction(async () => {
    await db.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const s = await db.query<{ header: SessionHeader; shipped_seq: string }>(
      'SELECT header, shipped_seq FROM tole.sessions WHERE id = $1',
      [id],
    );
    if (!s.rows[0]) throw new SyncError('not-found', `no session "${id}" on the server`);
    const kept = await db.query<{ body: StoredRecord }>(
      `SELECT body FROM tole.records WHERE session_id = $1 AND kind IN ('entry', 'usage') ORDER BY seq`,
      [id],
    );
    const cells = await db.query<{ namespace: string; key: string; seq: string; value: unknown }>(
      'SELECT namespace, key, seq, value FROM tole.registers WHERE session_id = $1',
      [id],
    );
    const shippedSeq = Number(s.rows[0].shipped_seq);
    const all: StoredRecord[] = [
      ...kept.rows.map((r) => r.body),
      ...cells.rows.map(
        (c): StoredRecord => ({
          kind: 'register',
          op: 'set',
          seq: Number(c.seq),
          namespace: c.namespace,
          key: c.key,
          value: c.value,
        }),
      ),
    ].sort((a, b) => a.seq - b.seq);
    return { header: { ...s.rows[0].header, compactedAtSeq: shippedSeq }, records: all };
  });
  // The file's header names the session from then on (`tole -r ID`, the next ship): it must be the id pulled.
  if (header.id !== id)
    throw new SyncError(
      'not-found',
      `the session "${id}" on the server holds a header naming another session (${JSON.stringify(String(header.id).slice(0, 80))}); nothing was written. Someone shipped it to the team server by hand: ask them to remove it`,
    );
  const temp = linkedTempNameOf(target, options.random);
  try {
    const storage = createStorage('jsonl', temp, header, {
      nonce: randomHex(options.random, 8),
      nowMs: options.clock.nowMs(),
    });
    try {
      storage.rewrite(records, header);
    } finally {
      storage.close();
    }
    // Replayed before it is put in place: a copy that does not open is never left as a session.
    SessionStore.open(temp, { clock: options.clock, random: options.random, readOnly: true }).close();
    try {
      linkSync(temp, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new StorageError('exists', `${target} already exists: tole never overwrites a session file`, {
          path: target,
        });
      throw error;
    }
  } finally {
    rmSync(temp, { force: true });
  }
  fsyncDirectory(nodeFileOps, dir);
  return target;
}
