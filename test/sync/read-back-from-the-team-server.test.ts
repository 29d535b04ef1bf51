/**
 * The built tole against a real PostgreSQL: `tole sync` from one machine's sessions directory,
 * then `tole sessions --from`, `tole export ID --from` and `tole -p ... --resume ID --from` from
 * another's (a second TOLE_HOME), with the config's sync section shipping after a headless turn.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../src/core/sync/database';
import { resumeFromServer } from '../../src/cli/team-read';
import { nameSession } from '../../src/core/session/session-name';
import { parseArgs } from '../../src/cli/args';
import { ensureBuilt, runBuiltTole } from '../support/built-tole';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { POSTGRES_BIN, startPostgres, type PostgresServer } from '../support/postgres-server';
import { openStore, tempDir } from '../support/storage-fixtures';
import { writeTeamSession } from '../support/team-sessions';
import { onlySessionFile, resultsFor } from '../support/agent-fixtures';

interface Machine {
  readonly home: string;
  readonly sessions: string;
  readonly workspace: string;
  tole(args: readonly string[], extraEnv?: NodeJS.ProcessEnv): ReturnType<typeof runBuiltTole>;
}

describe.skipIf(POSTGRES_BIN === null)('reading the team server back', () => {
  let server: PostgresServer;
  let chat: ChatServer;
  let url: string;
  let db: Db;
  const temp = tempDir('tole-team-');

  function machine(name: string, person: string, syncUrl?: string): Machine {
    const home = join(temp.path, name);
    const workspace = join(home, 'work');
    mkdirSync(join(home, 'tole', 'sessions'), { recursive: true });
    mkdirSync(workspace, { recursive: true });
    // The user's own config (trusted): a project config's sync and baseUrl wait for the folder's trust.
    mkdirSync(join(home, '.config', 'tole'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'tole', 'config.json'),
      JSON.stringify({ baseUrl: chat.url, model: 'm', sync: { url: syncUrl ?? url, person, timeoutMs: 5000 } }),
    );
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      TOLE_HOME: join(home, 'tole'),
      LANG: 'C.UTF-8',
      OPENAI_API_KEY: 'k',
    };
    return {
      home,
      sessions: join(home, 'tole', 'sessions'),
      workspace,
      tole: (args, extraEnv = {}) =>
        runBuiltTole(args, { cwd: workspace, env: { ...env, ...extraEnv }, timeoutMs: 30_000 }),
    };
  }

  beforeAll(async () => {
    ensureBuilt();
    [server, chat] = await Promise.all([startPostgres(), startChatServer({ defaultReply: { text: 'continued' } })]);
    url = server.createDatabase('team');
    db = await connect(url);
  }, 90_000);
  afterAll(async () => {
    await db?.end();
    await Promise.all([server?.destroy(), chat?.close()]);
    temp.remove();
  });

  it("tole sync ships a machine's sessions; another machine lists them, exports one and continues it headless, which syncs after the turn", async () => {
    const ada = machine('ada', 'ada');
    const path = writeTeamSession(ada.sessions, 4);
    const named = openStore(path);
    nameSession(named, 'ada release work');
    named.close();
    const original = openStore(path, { readOnly: true });
    const id = original.header.id;
    const lastSeq = original.lastSeq;
    original.close();

    const synced = await ada.tole(['sync']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stdout).toMatch(new RegExp(`shipped ${lastSeq} records of 1 session`));

    const bob = machine('bob', 'bob');
    const listed = await bob.tole(['sessions', '--from', url]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toMatch(/ada/);
    expect(listed.stdout).toContain('task 0');
    // The session's name (a register record, shipped like the others) is listed too.
    expect(listed.stdout.split('\n')[0]).toMatch(/open on +name +first prompt/);
    expect(listed.stdout).toMatch(/ada release work +task 0/);

    // --from without a URL takes the config's sync.url; a unique prefix of the id will do.
    const exported = await bob.tole(['export', id.slice(0, 22), '--from', '--format', 'json']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`pulled session ${id}`);
    expect(JSON.parse(exported.stdout).entries).toHaveLength(13);
    const pulled = join(bob.sessions, `${id}.jsonl`);
    const checked = await bob.tole(['check', pulled]);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);

    chat.push({ text: 'continued on bob' });
    const turn = await bob.tole(['-p', 'carry on', '--resume', id, '--from']);
    expect(turn.code, turn.stderr).toBe(0);
    expect(turn.stdout).toBe('continued on bob\n');
    expect(turn.stderr).not.toMatch(/sync .* failed/);
    const after = await db.query<{ shipped_seq: string; holder_host: string | null }>(
      'SELECT shipped_seq, holder_host FROM tole.sessions WHERE id = $1',
      [id],
    );
    const bobFile = openStore(pulled, { readOnly: true });
    expect(Number(after.rows[0]!.shipped_seq)).toBe(bobFile.lastSeq);
    bobFile.close();
    expect(Number(after.rows[0]!.shipped_seq)).toBeGreaterThan(lastSeq);
    expect(after.rows[0]!.holder_host).toBeNull();
    const prompts = await db.query(
      "SELECT payload->>'text' AS text FROM tole.entries WHERE session_id = $1 AND type = 'user' ORDER BY seq DESC LIMIT 1",
      [id],
    );
    expect(prompts.rows[0]).toEqual({ text: 'carry on' });
  });

  it('a pending write approved on one machine is not run on another on that approval, copied or pulled', async () => {
    const ada = machine('ada2', 'ada');
    const note = join(ada.workspace, 'note.txt');
    /** ada's turn writes the note on her allow rule, and tole is killed after the intent: the approved write is pending. */
    async function crashedWrite(): Promise<{ path: string; id: string }> {
      const before = new Set(readdirSync(ada.sessions));
      const write = { path: 'note.txt', content: 'written by ada\n' };
      chat.push({ toolCalls: [{ id: 'call_note', name: 'write_file', arguments: JSON.stringify(write) }] });
      const crashed = await ada.tole(['-p', 'write the note', '--allow', 'write_file:*'], {
        TOLE_CRASH_AT: 'after-intent',
      });
      expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
      const name = readdirSync(ada.sessions).find((f) => f.endsWith('.jsonl') && !before.has(f));
      expect(name).toBeDefined();
      return { path: join(ada.sessions, name!), id: name!.replace(/\.jsonl$/, '') };
    }
    function settlement(path: string): string {
      const store = openStore(path, { readOnly: true });
      try {
        const results = resultsFor(store, 'call_note');
        expect(results).toHaveLength(1);
        expect(results[0]!.payload.outcome).toBe('denied');
        return String(results[0]!.payload.content);
      } finally {
        store.close();
      }
    }

    // Copied into another tole home and resumed there headless: denied, with what to do.
    const copied = await crashedWrite();
    const gina = machine('gina', 'gina');
    const copy = join(gina.sessions, copied.path.split('/').at(-1)!);
    copyFileSync(copied.path, copy);
    const onCopy = await gina.tole(['-p', 'continue', '--resume', copy]);
    expect(onCopy.code, onCopy.stderr).toBe(0);
    expect(existsSync(note)).toBe(false);
    expect(settlement(copy)).toMatch(/was approved as .*ada2\/tole, not here \(.*gina\/tole\).*interactive tole/s);

    // Shipped to the team server and pulled by another machine: the same.
    const shipped = await crashedWrite();
    expect((await ada.tole(['sync'])).code).toBe(0);
    const hal = machine('hal', 'hal');
    const onPull = await hal.tole(['-p', 'continue', '--resume', shipped.id, '--from']);
    expect(onPull.code, onPull.stderr).toBe(0);
    expect(existsSync(note)).toBe(false);
    expect(settlement(onlySessionFile(hal.sessions))).toMatch(/was approved as .*ada2\/tole, not here \(.*hal\/tole\)/);
  });

  it('a session another machine holds opens read-only (the screen) and is refused to a headless turn', async () => {
    const carol = machine('carol', 'carol');
    const path = writeTeamSession(carol.sessions, 2);
    const store = openStore(path, { readOnly: true });
    const id = store.header.id;
    store.close();
    expect((await carol.tole(['sync'])).code).toBe(0);
    await db.query("UPDATE tole.sessions SET holder_host = 'carols-laptop', holder_pid = 4242 WHERE id = $1", [id]);

    const dave = machine('dave', 'dave');
    const refused = await dave.tole(['-p', 'take over', '--resume', id, '--from']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pid 4242 on carols-laptop has this session open');

    const forScreen = await resumeFromServer(
      parseArgs(['--resume', id, '--from', url]),
      {},
      {},
      dave.sessions,
      dave.workspace,
    );
    expect(forScreen.args.readOnly).toBe(true);
    expect(forScreen.notices.join('\n')).toMatch(
      /pid 4242 on carols-laptop has this session open: showing the server's copy read-only/,
    );
    expect(existsSync(forScreen.args.resume!)).toBe(true);
  });

  it('a headless turn whose sync fails still succeeds, and says the session is safe locally', async () => {
    const erin = machine('erin', 'erin', 'postgres://tole@127.0.0.1:1/none');
    chat.push({ text: 'fine' });
    const run = await erin.tole(['-p', 'hello']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('fine\n');
    expect(run.stderr).toMatch(
      /sync to postgres:\/\/tole@127\.0\.0\.1:1\/none failed: cannot reach PostgreSQL .* \(the session is safe in .*sessions; the next sync ships it\)/,
    );
    expect(readdirSync(erin.sessions).filter((f) => f.endsWith('.jsonl'))).toHaveLength(1);
  });

  it('says what is wrong with a sync URL, and never shows its password', async () => {
    const frank = machine('frank', 'frank');
    const bad = await frank.tole(['sync', '--to', 'mysql://x@y/z']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a PostgreSQL URL');
    const refused = await frank.tole(['sync', '--to', 'postgres://tole:s3cret@127.0.0.1:1/none']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cannot reach PostgreSQL at postgres://tole:***@127.0.0.1:1/none');
    expect(refused.stderr).not.toContain('s3cret');
  });
});
