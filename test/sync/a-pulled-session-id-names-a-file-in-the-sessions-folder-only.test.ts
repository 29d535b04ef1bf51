/**
 * `tole pull` (and `--resume ID --from`) writes the server's copy of a session to
 * `<sessions>/<id>.jsonl`, the id as the server holds it. The team server is shared: anyone who
 * can ship can put any id there. An id that is not one plain file name (`..`, a `/`, a leading dot
 * that would hide it or match tole's own temp names, a line break, a name too long for the
 * filesystem) is refused with what it is, and nothing is written anywhere. Real PostgreSQL.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { connect, type Db } from '../../src/core/sync/database';
import { pullSession } from '../../src/core/sync/pull';
import { shipSessions } from '../../src/core/sync/shipper';
import { listSessionFiles } from '../../src/cli/session-files';
import { POSTGRES_BIN, startPostgres, type PostgresServer } from '../support/postgres-server';
import { tempDir } from '../support/storage-fixtures';
import { writeTeamSession } from '../support/team-sessions';

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe.skipIf(POSTGRES_BIN === null)('a session id from the team server', () => {
  let server: PostgresServer;
  let db: Db;
  let shippedId: string;
  const temp = tempDir('tole-pull-id-');
  beforeAll(async () => {
    server = await startPostgres();
    db = await connect(server.createDatabase('pullid'));
    const path = writeTeamSession(temp.path, 2);
    await shipSessions(db, listSessionFiles(temp.path), { person: 'ada', host: 'laptop-1' });
    shippedId = listSessionFiles(temp.path).find((s) => s.path === path)!.header.id;
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await server?.destroy();
    temp.remove();
  });

  /** The shipped session again on the server under `id` (header and records), as a hostile ship would put it. */
  async function plant(id: string): Promise<void> {
    await db.query(
      `INSERT INTO tole.sessions (id, created_at, cwd, person, host, header, shipped_seq)
       SELECT $1, created_at, cwd, person, host, jsonb_set(header, '{id}', to_jsonb($1::text)), shipped_seq
       FROM tole.sessions WHERE id = $2`,
      [id, shippedId],
    );
    await db.query(
      `INSERT INTO tole.records (session_id, seq, commit_seq, kind, body)
       SELECT $1, seq, commit_seq, kind, body FROM tole.records WHERE session_id = $2`,
      [id, shippedId],
    );
  }

  const hostile: [string, string][] = [
    ['a parent folder', '../../escaped'],
    ['only dots', '..'],
    ['a folder', 'sub/inner'],
    ['a leading dot', '.hidden'],
    ["tole's own temp name", `.0123456789ab-${'1'.repeat(19)}-abcdef`],
    ['a line break', 'two\nlines'],
    ['a backslash', 'a\\b'],
    ['more bytes than a file name holds', 'x'.repeat(300)],
  ];
  for (const [what, id] of hostile) {
    it(`with ${what} is refused, and nothing is written`, async () => {
      await plant(id);
      const dir = tempDir('tole-pull-into-');
      try {
        const sessions = join(dir.path, 'sessions');
        mkdirSync(sessions);
        const pulled = pullSession(db, id, sessions, { clock: systemClock, random: seededRandom(3) });
        await expect(pulled).rejects.toThrow(/is not a session id tole can name a file by/);
        expect(filesUnder(dir.path)).toEqual(['sessions']);
        expect(existsSync(join(dir.path, '..', 'escaped.jsonl'))).toBe(false);
      } finally {
        dir.remove();
      }
    });
  }

  it('whose header names another id is refused, and nothing is written', async () => {
    await plant('1765000000000000001-abc123');
    await db.query(`UPDATE tole.sessions SET header = jsonb_set(header, '{id}', '"../../escaped"') WHERE id = $1`, [
      '1765000000000000001-abc123',
    ]);
    const dir = tempDir('tole-pull-into-');
    try {
      const pulled = pullSession(db, '1765000000000000001-abc123', dir.path, {
        clock: systemClock,
        random: seededRandom(5),
      });
      await expect(pulled).rejects.toThrow(/holds a header naming another session/);
      expect(filesUnder(dir.path)).toEqual([]);
    } finally {
      dir.remove();
    }
  });

  it('that is plain is pulled as before (the control)', async () => {
    await plant('1765000000000000000-abc123');
    const dir = tempDir('tole-pull-into-');
    try {
      const path = await pullSession(db, '1765000000000000000-abc123', dir.path, {
        clock: systemClock,
        random: seededRandom(4),
      });
      expect(path).toBe(join(dir.path, '1765000000000000000-abc123.jsonl'));
      expect(filesUnder(dir.path)).toEqual(['1765000000000000000-abc123.jsonl']);
    } finally {
      dir.remove();
    }
  });
});
