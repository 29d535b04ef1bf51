import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { sqliteUnavailableReason } from '../../src/core/storage/sqlite-driver';
import { convertSession } from '../../src/core/storage/convert';
import { connect, type Db } from '../../src/core/sync/database';
import { pullSession } from '../../src/core/sync/pull';
import { ShipCache } from '../../src/core/sync/ship-cache';
import { shipSessions } from '../../src/core/sync/shipper';
import { listSessionFiles } from '../../src/cli/session-files';
import { POSTGRES_BIN, startPostgres, type PostgresServer } from '../support/postgres-server';
import { openStore, snapshot, tempDir } from '../support/storage-fixtures';
import { addTurn, writeTeamSession } from '../support/team-sessions';

const who = { person: 'ada', host: 'laptop-1' };

async function count(db: Db, table: string, sessionId?: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM tole.${table}${sessionId ? ' WHERE session_id = $1' : ''}`,
    sessionId ? [sessionId] : [],
  );
  return Number(rows[0]!.n);
}

/** Records in a never-compacted file: one per seq. */
function recordsIn(path: string): number {
  const store = openStore(path, { readOnly: true });
  try {
    return store.lastSeq;
  } finally {
    store.close();
  }
}

/** Pulls the server's copy of the session in `path` and expects it to replay to the same state. */
async function expectServerCopyEquals(db: Db, path: string): Promise<void> {
  const original = openStore(path, { readOnly: true });
  const pulled = tempDir('tole-pulled-');
  try {
    const copyPath = await pullSession(db, original.header.id, pulled.path, {
      clock: systemClock,
      random: seededRandom(5),
    });
    const copy = openStore(copyPath, { readOnly: true });
    try {
      expect(snapshot(copy)).toEqual(snapshot(original));
    } finally {
      copy.close();
    }
    // The pulled file is sound for tole check too.
    const { checkSessionFile } = await import('../../src/core/storage/check');
    expect(checkSessionFile(copyPath).ok).toBe(true);
  } finally {
    original.close();
    pulled.remove();
  }
}

describe.skipIf(POSTGRES_BIN === null)('shipping sessions to PostgreSQL', () => {
  let server: PostgresServer;
  let db: Db;
  beforeAll(async () => {
    server = await startPostgres();
    db = await connect(server.createDatabase('ship'));
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await server?.destroy();
  });

  it('ships every record once: a second run ships nothing, new commits ship alone', async () => {
    const dir = tempDir();
    try {
      const a = writeTeamSession(dir.path, 6);
      const b = writeTeamSession(dir.path, 3, 'side');
      const first = await shipSessions(db, listSessionFiles(dir.path), who);
      expect(first.records).toBe(recordsIn(a) + recordsIn(b));
      expect(await count(db, 'records')).toBe(first.records);
      const again = await shipSessions(db, listSessionFiles(dir.path), who);
      expect(again.records).toBe(0);
      expect(await count(db, 'records')).toBe(first.records);

      const store = openStore(a);
      const before = store.lastSeq;
      addTurn(store, {
        prompt: 'one more',
        tool: { name: 'delete_path', subject: 'tmp', risk: 'Destructive', by: 'user', approved: true },
      });
      const added = store.lastSeq - before;
      store.close();
      const third = await shipSessions(db, listSessionFiles(dir.path), who);
      expect(third.records).toBe(added);
      await expectServerCopyEquals(db, a);
      await expectServerCopyEquals(db, b);
    } finally {
      dir.remove();
    }
  });

  it('with the cache, a sync reads only the files that changed since the last one', async () => {
    const dir = tempDir();
    try {
      const a = writeTeamSession(dir.path, 2);
      const b = writeTeamSession(dir.path, 2, 'side');
      const options = () => ({ ...who, cache: ShipCache.open(dir.path, 'postgres://tole@test/ship') });
      const first = await shipSessions(db, listSessionFiles(dir.path), options());
      expect(first.sessions.map((s) => s.unchanged ?? false)).toEqual([false, false]);
      const second = await shipSessions(db, listSessionFiles(dir.path), options());
      expect(second.sessions.map((s) => s.unchanged ?? false)).toEqual([true, true]);
      const store = openStore(b);
      addTurn(store, { prompt: 'changed' });
      store.close();
      const third = await shipSessions(db, listSessionFiles(dir.path), options());
      const byPath = new Map(third.sessions.map((s) => [s.path, s]));
      expect(byPath.get(a)!.unchanged).toBe(true);
      expect(byPath.get(b)!.unchanged).toBeUndefined();
      expect(byPath.get(b)!.records).toBeGreaterThan(0);
      await expectServerCopyEquals(db, b);
    } finally {
      dir.remove();
    }
  });

  it("a file that went on apart from the server's copy (continued on two machines) is not shipped, and says why", async () => {
    const here = tempDir();
    const there = tempDir();
    try {
      const path = writeTeamSession(here.path, 2);
      await shipSessions(db, listSessionFiles(here.path), who);
      const id = openStore(path, { readOnly: true });
      const sessionId = id.header.id;
      id.close();
      // Another machine pulls it, goes on, and ships.
      const copyPath = await pullSession(db, sessionId, there.path, { clock: systemClock, random: seededRandom(8) });
      const copy = openStore(copyPath);
      addTurn(copy, { prompt: 'on the other machine' });
      copy.close();
      expect((await shipSessions(db, listSessionFiles(there.path), who)).records).toBeGreaterThan(0);
      // This machine goes on too, from the same seq.
      const mine = openStore(path);
      addTurn(mine, {
        prompt: 'here',
        tool: { name: 'delete_path', subject: 'x', risk: 'Destructive', by: 'user', approved: true },
      });
      mine.close();
      const result = await shipSessions(db, listSessionFiles(here.path), who);
      expect(result.records).toBe(0);
      expect(result.sessions[0]!.problem).toMatch(
        /this file and the server hold different records at seq \d+ \(the session was continued on another machine too\): not shipped/,
      );
      await expectServerCopyEquals(db, copyPath);
    } finally {
      here.remove();
      there.remove();
    }
  });

  it('fills the query tables: entries with lanes, tool effects with approvals, usage, and the two views', async () => {
    const dir = tempDir();
    try {
      const path = writeTeamSession(dir.path, 6);
      const id = openStore(path, { readOnly: true });
      const sessionId = id.header.id;
      id.close();
      await shipSessions(db, listSessionFiles(dir.path), { person: 'grace', host: 'ci-7' });
      expect(await count(db, 'entries', sessionId)).toBeGreaterThan(12);
      const lanes = await db.query<{ lane: string | null }>(
        'SELECT DISTINCT lane FROM tole.entries WHERE session_id = $1',
        [sessionId],
      );
      expect(lanes.rows.map((r) => r.lane)).toEqual(['main']);
      const destructive = await db.query(
        'SELECT tool, subject, approved, approved_by, approved_by_person, outcome FROM tole.destructive_calls WHERE session_id = $1 ORDER BY intent_at',
        [sessionId],
      );
      // Turns 1 and 4 delete: turn 1 approved by the user, turn 4 denied.
      expect(destructive.rows).toEqual([
        {
          tool: 'delete_path',
          subject: 'build/1',
          approved: true,
          approved_by: 'user',
          approved_by_person: 'grace',
          outcome: 'ok',
        },
        {
          tool: 'delete_path',
          subject: 'build/4',
          approved: false,
          approved_by: 'user',
          approved_by_person: 'grace',
          outcome: 'denied',
        },
      ]);
      const writes = await db.query(
        'SELECT approved_by, outcome FROM tole.tool_effects WHERE session_id = $1 AND risk = $2',
        [sessionId, 'Write'],
      );
      expect(writes.rows).toEqual([
        { approved_by: 'yes', outcome: 'ok' },
        { approved_by: 'yes', outcome: 'ok' },
      ]);
      const cost = await db.query<{ cost_usd: string; attempts: string }>(
        "SELECT cost_usd, attempts FROM tole.cost_per_person_model_day WHERE person = 'grace' AND model = 'gpt-4.1-mini'",
      );
      expect(cost.rows).toHaveLength(1);
      expect(Number(cost.rows[0]!.cost_usd)).toBeCloseTo((6 * 1234) / 1e6, 9);
      expect(Number(cost.rows[0]!.attempts)).toBe(6);
    } finally {
      dir.remove();
    }
  });

  it('stays consistent when storage compaction dropped records that were never shipped', async () => {
    const dir = tempDir();
    try {
      const path = writeTeamSession(dir.path, 3);
      // A pending cell that the server sees set...
      let store = openStore(path);
      store.commit([
        { kind: 'register', op: 'set', namespace: 'pending.intent', key: 'call_gone', value: { tool: 'bash' } },
      ]);
      store.close();
      await shipSessions(db, listSessionFiles(dir.path), who);
      // ...then deleted, and compaction drops the delete before it was shipped.
      store = openStore(path);
      store.commit([{ kind: 'register', op: 'delete', namespace: 'pending.intent', key: 'call_gone' }]);
      for (let i = 0; i < 4; i++)
        addTurn(store, {
          prompt: `later ${i}`,
          tool: { name: 'write_file', subject: `f${i}`, risk: 'Write', by: 'yes', approved: true },
        });
      // One pending cell that is still live: it must be on the server too.
      store.commit([
        { kind: 'register', op: 'set', namespace: 'pending.intent', key: 'call_live', value: { tool: 'bash' } },
      ]);
      expect(store.compactStorage(true)).toBe(true);
      store.close();
      await shipSessions(db, listSessionFiles(dir.path), who);
      await expectServerCopyEquals(db, path);
      // And a commit after the compaction ships on top.
      const reopened = openStore(path);
      addTurn(reopened, { prompt: 'after compaction' });
      reopened.close();
      const after = await shipSessions(db, listSessionFiles(dir.path), who);
      expect(after.records).toBeGreaterThan(0);
      await expectServerCopyEquals(db, path);
    } finally {
      dir.remove();
    }
  });

  it.skipIf(sqliteUnavailableReason() !== null)(
    'a session converted to SQLite ships as the same session, nothing doubled',
    async () => {
      const dir = tempDir();
      try {
        const path = writeTeamSession(dir.path, 3);
        await shipSessions(db, listSessionFiles(dir.path), who);
        const store = openStore(path);
        addTurn(store, {
          prompt: 'before convert',
          tool: { name: 'delete_path', subject: 'x', risk: 'Destructive', by: 'user', approved: true },
        });
        store.close();
        const converted = convertSession(path, 'sqlite', { clock: systemClock, random: seededRandom(3) });
        const files = listSessionFiles(dir.path);
        expect(files).toHaveLength(2);
        const sqliteFirst = [...files].sort((x) => (x.path.endsWith('.db') ? -1 : 1));
        await shipSessions(db, sqliteFirst, who);
        const id = openStore(path, { readOnly: true });
        const sessionId = id.header.id;
        const lastSeq = id.lastSeq;
        id.close();
        const seqs = await db.query<{ n: string; d: string }>(
          'SELECT count(*) AS n, count(DISTINCT seq) AS d FROM tole.records WHERE session_id = $1',
          [sessionId],
        );
        expect(seqs.rows[0]!.n).toBe(seqs.rows[0]!.d);
        expect(
          Number(
            (await db.query('SELECT shipped_seq FROM tole.sessions WHERE id = $1', [sessionId])).rows[0]!.shipped_seq,
          ),
        ).toBe(lastSeq);
        await expectServerCopyEquals(db, converted.to);
        await expectServerCopyEquals(db, path);
      } finally {
        dir.remove();
      }
    },
  );

  it('refuses a database whose tole schema is newer, touching nothing', async () => {
    const url = server.createDatabase('newer');
    const first = await connect(url);
    await first.query("INSERT INTO tole.schema_migrations (version, description) VALUES (99, 'from a newer tole')");
    await first.end();
    await expect(connect(url)).rejects.toThrow(/schema is version 99, newer than this tole knows \(1\): upgrade tole/);
    const untouched = await connect(server.url('ship'));
    await untouched.end();
  });

  it('the migrations are applied once: a second connect changes nothing', async () => {
    const { rows } = await db.query<{ version: number }>('SELECT version FROM tole.schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual([1]);
    const again = await connect(server.url('ship'));
    const after = await again.query<{ version: number }>('SELECT version FROM tole.schema_migrations ORDER BY version');
    expect(after.rows.map((r) => r.version)).toEqual([1]);
    await again.end();
  });
});
