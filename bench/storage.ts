/**
 * Session store benchmark: replay throughput beside a plain parse-into-Map of the same lines,
 * and commit latency beside a bare write + fdatasync of the same bytes, measured in one run.
 * Run alone with `node --import tsx bench/storage.ts`.
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { seededRandom, type Clock } from '../src/core/clock';
import { encodeCommit, encodeHeader, headerCrc } from '../src/core/storage/line-codec';
import { LINE_CRC, STORAGE_VERSION, type Commit, type SessionHeader } from '../src/core/storage/records';
import { SessionStore } from '../src/core/storage/session-store';

export interface Row {
  readonly name: string;
  readonly tole: number;
  readonly baseline: number;
  readonly unit: string;
  /** How many times worse tole is than the baseline (1 = as good). */
  readonly ratio: number;
  readonly target?: string;
}

const REPLAY_ENTRIES = 100_000;
const REPLAY_PAYLOAD_CHARS = 640;
const REPLAY_ROUNDS = 3;
const COMMITS = 2_000;

const clock: Clock = { nowMs: () => 1_700_000_000_000, nowNs: () => 1_700_000_000_000_000_000n };

export async function runStorageBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-'));
  try {
    return [...replayRows(dir), ...commitRows(dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- replay ------------------------------------------------------------------------------

/** ~100 MB: each line an entry of ~1 KB and the lane leaf it moves, as the turn loop writes them. */
export function writeReplayFile(path: string): number {
  const header: SessionHeader = {
    v: 1,
    kind: 'header',
    id: 'bench',
    storageVersion: STORAGE_VERSION,
    createdAt: 0,
    cwd: '/bench',
    lineCrc: LINE_CRC,
  };
  const headerBytes = encodeHeader(header);
  let crc = headerCrc(headerBytes.subarray(0, -1));
  const fd = openSync(path, 'w');
  let offset = writeSync(fd, headerBytes);
  const random = seededRandom(42);
  const filler = Array.from({ length: 64 }, (_, i) => `word${i} ünï ✓ `).join('');
  let batch: Buffer[] = [];
  for (let i = 1; i <= REPLAY_ENTRIES; i++) {
    const seq = i * 2 - 1;
    const start = Math.floor(random.float() * 200);
    const text = (filler + filler + filler).slice(start, start + REPLAY_PAYLOAD_CHARS);
    const commit: Commit = [
      {
        kind: 'entry',
        seq,
        timestamp: 1_700_000_000_000 + i,
        id: `e_${i}`,
        parentId: i === 1 ? null : `e_${i - 1}`,
        type: 'user',
        payload: { text },
      },
      { kind: 'register', op: 'set', seq: seq + 1, namespace: 'lane.leaf', key: 'main', value: `e_${i}` },
    ];
    const line = encodeCommit(commit, crc);
    crc = line.crc;
    batch.push(line.bytes);
    if (batch.length === 1000) {
      offset += writeSync(fd, Buffer.concat(batch), 0, undefined, offset);
      batch = [];
    }
  }
  if (batch.length > 0) writeSync(fd, Buffer.concat(batch), 0, undefined, offset);
  closeSync(fd);
  return statSync(path).size;
}

/** The floor: read the file, split it at newlines, JSON.parse each line into a Map. */
function baselineReplay(path: string): number {
  const bytes = readFileSync(path);
  const map = new Map<number, unknown>();
  let start = 0;
  let lineNo = 0;
  for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
    map.set(lineNo++, JSON.parse(bytes.toString('utf8', start, end)));
    start = end + 1;
  }
  return map.size;
}

function toleReplay(path: string): number {
  const store = SessionStore.open(path, { readOnly: true, clock, random: seededRandom(1) });
  const size = store.tree.size;
  store.close();
  return size;
}

function replayRows(dir: string): Row[] {
  const path = join(dir, 'replay.jsonl');
  const bytes = writeReplayFile(path);
  readFileSync(path); // warm the page cache, as both readers will find it
  const tole: number[] = [];
  const baseline: number[] = [];
  const toleCpu: number[] = [];
  const baselineCpu: number[] = [];
  for (let round = 0; round < REPLAY_ROUNDS; round++) {
    let cpu = process.cpuUsage();
    baseline.push(timeMs(() => baselineReplay(path)));
    baselineCpu.push(cpuMs(cpu));
    cpu = process.cpuUsage();
    tole.push(timeMs(() => toleReplay(path)));
    toleCpu.push(cpuMs(cpu));
  }
  const mbPerS = (ms: number): number => bytes / 1e6 / (ms / 1000);
  const toleMbs = mbPerS(median(tole));
  const baseMbs = mbPerS(median(baseline));
  const toleCpuMbs = mbPerS(median(toleCpu));
  const baseCpuMbs = mbPerS(median(baselineCpu));
  const name = `replay ${(bytes / 1e6).toFixed(0)} MB (${REPLAY_ENTRIES / 1000}k entries)`;
  return [
    { name, tole: toleMbs, baseline: baseMbs, unit: 'MB/s', ratio: baseMbs / toleMbs, target: '<= 0.67x' },
    // CPU time (every thread of the process, the collector's included) moves less than wall time on a busy machine.
    {
      name: `${name}, per CPU second`,
      tole: toleCpuMbs,
      baseline: baseCpuMbs,
      unit: 'MB/s',
      ratio: baseCpuMbs / toleCpuMbs,
      target: '<= 0.67x',
    },
  ];
}

// ---- commit latency ----------------------------------------------------------------------

function commitRows(dir: string): Row[] {
  const store = SessionStore.create(dir, { clock, random: seededRandom(7), cwd: '/bench' });
  const barePath = join(dir, 'bare.jsonl');
  const bareFd = openSync(barePath, 'a');
  const tole: number[] = [];
  const bare: number[] = [];
  const text = 'x'.repeat(200);
  let parent: string | null = null;
  const line = encodeCommit(
    { kind: 'entry', seq: 1, timestamp: 0, id: 'e_1', parentId: null, type: 'user', payload: { text } },
    0,
  ).bytes;
  try {
    // Interleaved one by one, so that both see the same disk and page-cache state.
    for (let i = 0; i < COMMITS; i++) {
      const id = store.newEntryId();
      const drafts = [
        { kind: 'entry', timestamp: clock.nowMs(), id, parentId: parent, type: 'user', payload: { text } },
      ] as const;
      let started = process.hrtime.bigint();
      store.commit(drafts);
      tole.push(Number(process.hrtime.bigint() - started) / 1000);
      parent = id;

      const bytes = Buffer.from(line);
      started = process.hrtime.bigint();
      writeSync(bareFd, bytes);
      fdatasyncSync(bareFd);
      bare.push(Number(process.hrtime.bigint() - started) / 1000);
    }
  } finally {
    closeSync(bareFd);
    store.close();
  }
  const lineBytes = Math.round((statSync(store.path).size - 200) / COMMITS);
  const rows: Row[] = [];
  for (const [label, q, target] of [
    ['p50', 0.5, '<= 1.2x'],
    ['p99', 0.99, undefined],
  ] as const) {
    const t = quantile(tole, q);
    const b = quantile(bare, q);
    rows.push({
      name: `commit ~${lineBytes} B ${label} (${COMMITS} commits)`,
      tole: t,
      baseline: b,
      unit: 'us',
      ratio: t / b,
      ...(target ? { target } : {}),
    });
  }
  return rows;
}

// ---- helpers -----------------------------------------------------------------------------

function timeMs(run: () => unknown): number {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function formatRows(rows: readonly Row[]): string {
  const header = ['benchmark', 'tole', 'baseline', 'unit', 'ratio', 'target'];
  const cells = rows.map((r) => [
    r.name,
    r.tole.toFixed(1),
    r.baseline.toFixed(1),
    r.unit,
    `${r.ratio.toFixed(2)}x`,
    r.target ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]): string =>
    c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runStorageBench();
  process.stdout.write(`${formatRows(rows)}\n`);
}
