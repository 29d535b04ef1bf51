/**
 * SQLite backend beside JSONL: commit latency of the same records, and open + replay of the same
 * ~100k-entry session in both formats. In each row "tole" is SQLite and "baseline" is JSONL, so
 * the ratio is how many times slower SQLite is (below 1: faster).
 * Run alone with `node --import tsx bench/sqlite.ts` (needs better-sqlite3).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { seededRandom, type Clock } from '../src/core/clock';
import { convertSession } from '../src/core/storage/convert';
import { SessionStore } from '../src/core/storage/session-store';
import { sqliteUnavailableReason } from '../src/core/storage/sqlite-driver';
import { formatRows, writeReplayFile, type Row } from './storage';

const COMMITS = 2_000;
const REPLAY_ROUNDS = 3;

let tick = 1_700_000_000_000;
const clock: Clock = { nowMs: () => tick++, nowNs: () => BigInt(tick++) * 1_000_000n };

export async function runSqliteBench(): Promise<Row[]> {
  if (sqliteUnavailableReason() !== null) return [];
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-sqlite-'));
  try {
    return [...commitRows(dir), ...replayRows(dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The turn loop's usual commit: an entry and the lane leaf it moves, one transaction. */
function commitRows(dir: string): Row[] {
  const stores = { jsonl: create(dir, 'jsonl', 1), sqlite: create(dir, 'sqlite', 2) };
  const times = { jsonl: [] as number[], sqlite: [] as number[] };
  const text = 'x'.repeat(200);
  let parent: string | null = null;
  try {
    // Interleaved one by one, so that both see the same disk and page-cache state.
    for (let i = 0; i < COMMITS; i++) {
      const id = `e_${i + 1}`;
      const drafts = [
        { kind: 'entry', timestamp: 1_700_000_000_000 + i, id, parentId: parent, type: 'user', payload: { text } },
        { kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'main', value: id },
      ] as const;
      for (const backend of ['jsonl', 'sqlite'] as const) {
        const started = process.hrtime.bigint();
        stores[backend].commit(drafts);
        times[backend].push(Number(process.hrtime.bigint() - started) / 1000);
      }
      parent = id;
    }
  } finally {
    stores.jsonl.close();
    stores.sqlite.close();
  }
  return (
    [
      ['p50', 0.5],
      ['p99', 0.99],
    ] as const
  ).map(([label, q]) => {
    const sqlite = quantile(times.sqlite, q);
    const jsonl = quantile(times.jsonl, q);
    return {
      name: `commit entry + leaf ${label} (${COMMITS} commits)`,
      tole: sqlite,
      baseline: jsonl,
      unit: 'us',
      ratio: sqlite / jsonl,
    };
  });
}

/** The same session in both formats (the JSONL file converted), opened read-only and replayed. */
function replayRows(dir: string): Row[] {
  const jsonlPath = join(dir, 'replay.jsonl');
  writeReplayFile(jsonlPath);
  const converted = convertSession(jsonlPath, 'sqlite', { clock, random: seededRandom(3) });
  const entries = converted.entries;
  readFileSync(jsonlPath); // warm the page cache for both
  readFileSync(converted.to);
  const times = { jsonl: [] as number[], sqlite: [] as number[] };
  for (let round = 0; round < REPLAY_ROUNDS; round++) {
    times.jsonl.push(timeMs(() => replay(jsonlPath, entries)));
    times.sqlite.push(timeMs(() => replay(converted.to, entries)));
  }
  const mb = (path: string): string => (statSync(path).size / 1e6).toFixed(0);
  const sqlite = quantile(times.sqlite, 0.5);
  const jsonl = quantile(times.jsonl, 0.5);
  return [
    {
      name: `open + replay ${entries / 1000}k entries (jsonl ${mb(jsonlPath)} MB, db ${mb(converted.to)} MB)`,
      tole: sqlite,
      baseline: jsonl,
      unit: 'ms',
      ratio: sqlite / jsonl,
    },
  ];
}

function create(dir: string, backend: 'jsonl' | 'sqlite', seed: number): SessionStore {
  return SessionStore.create(dir, { clock, random: seededRandom(seed), cwd: '/bench', backend });
}

function replay(path: string, entries: number): void {
  const store = SessionStore.open(path, { readOnly: true, clock, random: seededRandom(1) });
  const size = store.tree.size;
  store.close();
  if (size !== entries) throw new Error(`assert: replayed ${size} entries of ${entries}`);
}

function timeMs(run: () => void): number {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const missing = sqliteUnavailableReason();
  if (missing !== null) {
    process.stderr.write(`bench/sqlite: skipped: ${missing}\n`);
  } else {
    const rows = await runSqliteBench();
    process.stdout.write(`SQLite ("tole") beside JSONL ("baseline"); ratio = sqlite / jsonl\n${formatRows(rows)}\n`);
  }
}
