/**
 * Sync benchmark, against a real local PostgreSQL (fsync on, as a team's server would run):
 * - records shipped per second by `shipSessions` (records, entries, tool effects, usage, live
 *   registers, cursor, in transactions of 2,000 records), beside a bare multi-row INSERT of the
 *   same record bodies in the same batches into a table keyed the same way;
 * - commit latency while the background sync runs (the full-screen tole's SyncLoop starting
 *   `tole sync` child processes, every 200 ms while commits come), beside the same commits with
 *   sync off, in alternating blocks so that both see the same disk.
 * Run alone with `node --import tsx bench/sync.ts` (after `npm run build`).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { seededRandom, type Clock } from '../src/core/clock';
import { SessionStore } from '../src/core/storage/session-store';
import { connect } from '../src/core/sync/database';
import { shipSessions } from '../src/core/sync/shipper';
import { SyncLoop } from '../src/core/sync/sync-loop';
import { listSessionFiles } from '../src/cli/session-files';
import { runChildSync } from '../src/cli/background-sync';
import { POSTGRES_BIN, startPostgres } from '../test/support/postgres-server';
import { addTurn } from '../test/support/team-sessions';
import { formatRows, type Row } from './storage';

const TURNS = 1500;
const BATCH = 2000;
const COMMIT_BLOCKS = 8;
const COMMITS_PER_BLOCK = 250;
const TOLE_JS = join(import.meta.dirname, '..', 'dist', 'tole.js');

export async function runSyncBench(): Promise<Row[]> {
  if (POSTGRES_BIN === null) throw new Error('no PostgreSQL server binaries installed (postgresql-15)');
  if (!existsSync(TOLE_JS)) throw new Error('dist/tole.js is missing: npm run build');
  const server = await startPostgres({ durable: true });
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-sync-'));
  try {
    return [
      ...(await shipRows(server.createDatabase('ship'), join(dir, 'ship'))),
      ...(await commitRows(server.createDatabase('commits'), join(dir, 'commits'))),
    ];
  } finally {
    await server.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

let clockMs = 1_700_000_000_000;
const clock: Clock = { nowMs: () => clockMs++, nowNs: () => BigInt(clockMs++) * 1_000_000n };

async function shipRows(url: string, dir: string): Promise<Row[]> {
  mkdirSync(dir, { recursive: true });
  const store = SessionStore.create(dir, { clock, random: seededRandom(11), cwd: '/bench' });
  for (let i = 0; i < TURNS; i++) {
    addTurn(store, {
      prompt: `task ${i} ${'x'.repeat(200)}`,
      ...(i % 3 === 1
        ? { tool: { name: 'write_file', subject: `src/${i}.ts`, risk: 'Write', by: 'yes', approved: true } as const }
        : {}),
    });
  }
  const records = store.lastSeq;
  store.close();
  const db = await connect(url);
  try {
    // Baseline: the same record bodies, the same batches, one bare INSERT each.
    const bodies: { seq: number; body: unknown }[] = [];
    const replay = SessionStore.open(store.path, {
      clock,
      random: seededRandom(1),
      readOnly: true,
      onReplay: (rs) => rs.forEach((r) => bodies.push({ seq: r.seq, body: r })),
    });
    replay.close();
    await db.query('CREATE TABLE bare (session_id text, seq bigint, body jsonb, PRIMARY KEY (session_id, seq))');
    let started = process.hrtime.bigint();
    for (let i = 0; i < bodies.length; i += BATCH) {
      await db.transaction(() =>
        db.query(
          'INSERT INTO bare SELECT $1, x.seq, x.body FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, body jsonb)',
          ['s', JSON.stringify(bodies.slice(i, i + BATCH))],
        ),
      );
    }
    const bareS = Number(process.hrtime.bigint() - started) / 1e9;
    started = process.hrtime.bigint();
    const report = await shipSessions(db, listSessionFiles(dir), {
      person: 'bench',
      host: 'bench',
      batchRecords: BATCH,
    });
    const toleS = Number(process.hrtime.bigint() - started) / 1e9;
    if (report.records !== records) throw new Error(`shipped ${report.records} of ${records} records`);
    return [
      {
        name: `records shipped to local PostgreSQL (${records} records, ${BATCH}/transaction)`,
        tole: records / toleS,
        baseline: records / bareS,
        unit: 'rec/s',
        ratio: toleS / bareS,
      },
    ];
  } finally {
    await db.end();
  }
}

async function commitRows(url: string, dir: string): Promise<Row[]> {
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions, { recursive: true });
  const store = SessionStore.create(sessions, { clock, random: seededRandom(7), cwd: '/bench' });
  const env = { ...process.env, TOLE_HOME: dir, TOLE_SYNC_URL: url };
  let syncs = 0;
  const loop = new SyncLoop({
    delayMs: 200,
    run: async () => (await runChildSync(process.execPath, [TOLE_JS, 'sync'], env, dir), void syncs++),
  });
  const on: number[] = [];
  const off: number[] = [];
  const text = 'x'.repeat(200);
  let parent: string | null = null;
  const unsubscribe = store.onCommit(() => loop.poke());
  try {
    for (let block = 0; block < COMMIT_BLOCKS; block++) {
      const syncing = block % 2 === 1;
      const into = syncing ? on : off;
      for (let i = 0; i < COMMITS_PER_BLOCK; i++) {
        const id = store.newEntryId();
        const drafts = [
          { kind: 'entry', timestamp: clock.nowMs(), id, parentId: parent, type: 'user', payload: { text } },
          { kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'main', value: id },
        ] as const;
        const started = process.hrtime.bigint();
        store.commit(drafts);
        into.push(Number(process.hrtime.bigint() - started) / 1000);
        parent = id;
        // A turn's pace: a commit, then the event loop free (for the sync's timers and child when on).
        await new Promise((r) => setImmediate(r));
      }
      if (!syncing) continue;
      // Let the last sync of the block finish, so that the next "off" block is truly off.
      await settled(loop);
      await new Promise((r) => setTimeout(r, 300));
      await settled(loop);
    }
  } finally {
    unsubscribe();
    loop.stop();
    store.close();
  }
  if (syncs === 0) throw new Error(`no sync ran: ${JSON.stringify(loop.current)}`);
  const rows: Row[] = [];
  for (const [label, q] of [
    ['p50', 0.5],
    ['p99', 0.99],
  ] as const) {
    const t = quantile(on, q);
    const b = quantile(off, q);
    rows.push({
      name: `commit ${label} with background sync on vs off (${on.length} commits each, ${syncs} syncs)`,
      tole: t,
      baseline: b,
      unit: 'us',
      ratio: t / b,
      ...(label === 'p50' ? { target: '≈ 1x (noise)' } : {}),
    });
  }
  return rows;
}

async function settled(loop: SyncLoop): Promise<void> {
  const running = (): boolean => loop.current.kind === 'running';
  while (running()) await new Promise((r) => setTimeout(r, 20));
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runSyncBench();
  process.stdout.write(`${formatRows(rows)}\n`);
}
