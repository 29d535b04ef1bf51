/**
 * Faults while shipping: the built `tole sync` killed with SIGKILL at random moments (many small
 * transactions, sessions growing between the kills), and the server stopped in the middle of a
 * sync. Afterwards one clean sync must leave the server holding every record exactly once: the
 * cursor at each file's last seq, one row per seq, and a pulled copy that replays to the same
 * state as the file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { connect, isSyncError, type Db } from '../../src/core/sync/database';
import { pullSession } from '../../src/core/sync/pull';
import { shipSessions } from '../../src/core/sync/shipper';
import { listSessionFiles } from '../../src/cli/session-files';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { POSTGRES_BIN, startPostgres, type PostgresServer } from '../support/postgres-server';
import { openStore, snapshot, tempDir } from '../support/storage-fixtures';
import { addTurn, writeTeamSession } from '../support/team-sessions';

/** Every local session is on the server whole and once. */
async function expectAllShippedOnce(db: Db, sessionsDir: string): Promise<void> {
  const pulled = tempDir('tole-pulled-');
  try {
    for (const file of listSessionFiles(sessionsDir)) {
      const local = openStore(file.path, { readOnly: true });
      try {
        const id = local.header.id;
        const { rows } = await db.query<{ shipped_seq: string; n: string; d: string; lo: string; hi: string }>(
          'SELECT s.shipped_seq, count(r.seq) AS n, count(DISTINCT r.seq) AS d, min(r.seq) AS lo, max(r.seq) AS hi FROM tole.sessions s JOIN tole.records r ON r.session_id = s.id WHERE s.id = $1 GROUP BY s.shipped_seq',
          [id],
        );
        expect(rows[0], id).toEqual({
          shipped_seq: String(local.lastSeq),
          n: String(local.lastSeq),
          d: String(local.lastSeq),
          lo: '1',
          hi: String(local.lastSeq),
        });
        const copy = openStore(
          await pullSession(db, id, pulled.path, { clock: systemClock, random: seededRandom(9) }),
          { readOnly: true },
        );
        expect(snapshot(copy)).toEqual(snapshot(local));
        copy.close();
      } finally {
        local.close();
      }
    }
  } finally {
    pulled.remove();
  }
}

describe.skipIf(POSTGRES_BIN === null)('the shipper under faults', () => {
  let server: PostgresServer;
  const temp = tempDir('tole-faults-');
  beforeAll(async () => {
    ensureBuilt();
    server = await startPostgres();
  }, 90_000);
  afterAll(async () => {
    await server?.destroy();
    temp.remove();
  });

  it('SIGKILL at random points loses nothing and doubles nothing', async () => {
    const seed = Number(process.env['TOLE_FAULT_SEED'] ?? Date.now() % 100_000);
    const random = seededRandom(seed);
    const url = server.createDatabase('kills');
    const home = join(temp.path, 'kills');
    const sessions = join(home, 'sessions');
    const cwd = join(home, 'work');
    mkdirSync(sessions, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    // The user's own config (trusted): a project config's sync waits for the folder's trust.
    mkdirSync(join(home, '.config', 'tole'), { recursive: true });
    writeFileSync(join(home, '.config', 'tole', 'config.json'), JSON.stringify({ sync: { url, batchRecords: 12 } }));
    const paths = [
      writeTeamSession(sessions, 30),
      writeTeamSession(sessions, 20, 'side'),
      writeTeamSession(sessions, 10),
    ];
    const env = { PATH: process.env.PATH, HOME: home, TOLE_HOME: home, LANG: 'C.UTF-8' };
    const syncOnce = (
      killAfterMs: number | null,
    ): Promise<{ code: number | null; signal: string | null; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [TOLE_JS, 'sync'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
        const timer = killAfterMs === null ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        child.on('close', (code, signal) => {
          if (timer) clearTimeout(timer);
          resolve({ code, signal, stderr });
        });
      });
    let killed = 0;
    // How long the last sync that ran to its end took: the kills land within that span, so they
    // land mid-way however fast this machine (and tole's start) is.
    let spanMs = 650;
    for (let round = 0; round < 8; round++) {
      // Kill anywhere from start-up to deep into the transactions.
      const started = Date.now();
      const run = await syncOnce(20 + Math.floor(random.float() * spanMs));
      if (run.signal === 'SIGKILL') killed++;
      else {
        expect(run.code, `seed ${seed}: ${run.stderr}`).toBe(0);
        spanMs = Math.max(40, Date.now() - started);
      }
      // The sessions go on between the kills.
      const store = openStore(paths[round % paths.length]!);
      addTurn(store, {
        prompt: `round ${round}`,
        tool: { name: 'delete_path', subject: `r${round}`, risk: 'Destructive', by: 'user', approved: true },
      });
      store.close();
    }
    const last = await syncOnce(null);
    expect(last.code, `seed ${seed}: ${last.stderr}`).toBe(0);
    expect(killed, `seed ${seed}: no run was killed mid-way`).toBeGreaterThan(0);
    const db = await connect(url);
    try {
      await expectAllShippedOnce(db, sessions);
      const calls = await db.query<{ n: string }>('SELECT count(*) AS n FROM tole.tool_effects WHERE outcome IS NULL');
      expect(calls.rows[0]!.n, `seed ${seed}: every shipped intent has its settlement`).toBe('0');
    } finally {
      await db.end();
    }
  }, 120_000);

  it('a server stopped mid-sync fails that sync; after a restart the next one completes it exactly', async () => {
    const url = server.createDatabase('stopped');
    const dir = join(temp.path, 'stopped');
    mkdirSync(dir, { recursive: true });
    writeTeamSession(dir, 40);
    writeTeamSession(dir, 15, 'side');
    const who = { person: 'ada', host: 'laptop', batchRecords: 25 };
    let db = await connect(url);
    let batches = 0;
    const failed = await shipSessions(db, listSessionFiles(dir), {
      ...who,
      onBatch: () => {
        batches++;
        if (batches === 3) void server.stop();
      },
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isSyncError(failed), String(failed)).toBe(true);
    expect(batches).toBeGreaterThanOrEqual(3);
    await db.end();
    await server.start();
    db = await connect(url);
    try {
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM tole.records');
      expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(3 * 25);
      await shipSessions(db, listSessionFiles(dir), who);
      await expectAllShippedOnce(db, dir);
    } finally {
      await db.end();
    }
  }, 60_000);
});
