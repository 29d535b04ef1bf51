import { existsSync, rmSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { tempDirWhereCalled } from './after-the-test';
import { seededRandom, type Clock } from '../../src/core/clock';
import type { FileOps } from '../../src/core/storage/file-ops';
import { headerCrc, LINE_PREFIX_BYTES } from '../../src/core/storage/line-codec';
import type { DraftRecord } from '../../src/core/storage/records';
import { SessionStore } from '../../src/core/storage/session-store';
import type { IndexKey } from '../../src/core/storage/session-index';

/** A clock that moves 1 ms per reading: deterministic, and never reads the wall clock. */
export function steppingClock(startMs = 1_700_000_000_000): Clock {
  let ms = startMs;
  return { nowMs: () => ms++, nowNs: () => BigInt(ms++) * 1_000_000n };
}

/** A temp directory that goes when the test or file that made it ends (tempDirWhereCalled); `remove` removes it sooner. */
export function tempDir(prefix = 'tole-store-'): { path: string; remove(): void } {
  const path = tempDirWhereCalled(prefix);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A temporary directory in memory where the machine has /dev/shm (else as tempDir): real files and
 * real system calls, but an fsync there waits on no disk. For a test that opens and repairs a
 * session hundreds of times to check what replay makes of its bytes, not what survives a crash.
 */
export function memoryTempDir(prefix = 'tole-store-'): { path: string; remove(): void } {
  if (!existsSync('/dev/shm')) return tempDir(prefix);
  const path = tempDirWhereCalled(prefix, '/dev/shm');
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

let opener = 1;

export function createStore(dir: string, ops?: FileOps): SessionStore {
  return SessionStore.create(dir, {
    clock: steppingClock(),
    random: seededRandom(opener++),
    cwd: '/work/project',
    ...(ops ? { ops } : {}),
  });
}

/** The key tests vouch for their saved indexes with (a user's tole keeps its own in $TOLE_HOME/index.key). */
export const TEST_INDEX_KEY = Buffer.alloc(32, 7);

export function openStore(
  path: string,
  options: { readOnly?: boolean; ops?: FileOps; asideMinBytes?: number; indexKey?: IndexKey } = {},
): SessionStore {
  return SessionStore.open(path, {
    clock: steppingClock(),
    random: seededRandom(opener++),
    indexKey: () => TEST_INDEX_KEY,
    ...options,
  });
}

/** Everything replay rebuilds, in a form `toEqual` compares (empty namespaces left out). */
export interface StoreSnapshot {
  readonly lastSeq: number;
  readonly entries: readonly unknown[];
  readonly usage: readonly unknown[];
  readonly registers: Readonly<Record<string, readonly [string, unknown, number][]>>;
}

export function snapshot(store: SessionStore): StoreSnapshot {
  return {
    lastSeq: store.lastSeq,
    entries: [...store.tree.all()].map((entry) => structuredClone(entry)),
    usage: store.usage.map((row) => structuredClone(row)),
    registers: registersOf(store),
  };
}

/**
 * `JSON.stringify(snapshot(store))` without the copies: an entry's or a row's JSON is the same
 * cloned or not (its own enumerable keys in order, a replayed payload read through its getter), and
 * the fault simulator compares states only as this text (the clones were 3% of its profile).
 */
export function snapshotText(store: SessionStore): string {
  return JSON.stringify({
    lastSeq: store.lastSeq,
    entries: [...store.tree.all()],
    usage: store.usage,
    registers: registersOf(store),
  });
}

function registersOf(store: SessionStore): StoreSnapshot['registers'] {
  const registers: Record<string, [string, unknown, number][]> = {};
  for (const namespace of [...store.registers.namespaces()].sort()) {
    const cells = store.registers
      .entries(namespace)
      .map(([key, cell]): [string, unknown, number] => [key, cell.value, cell.seq]);
    if (cells.length > 0) registers[namespace] = cells.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
  return registers;
}

export const UNICODE_SAMPLES = [
  'plain ascii',
  'héllo wörld',
  '日本語のテキスト',
  'emoji 🦀🧪👩‍👩‍👧',
  'rtl שלום مرحبا',
  'quote " backslash \\ newline \n tab \t',
  '\u0000 nul and \u2028 separator',
];

/** A user entry on `lane`, moving the lane's leaf, in one transaction. */
export function entryCommit(store: SessionStore, parentId: string | null, text: string, lane = 'main'): DraftRecord[] {
  const id = store.newEntryId();
  return [
    { kind: 'entry', timestamp: store.now(), id, parentId, type: 'user', payload: { text } },
    { kind: 'register', op: 'set', namespace: 'lane.leaf', key: lane, value: id },
  ];
}

/**
 * A session of several commits, single records and arrays, unicode payloads. Returns the file
 * path and the snapshot after each commit (`states[n]` = after n commits).
 */
export function buildSession(
  dir: string,
  options: { endWithArray?: boolean } = {},
): { path: string; states: StoreSnapshot[]; store: SessionStore } {
  const store = createStore(dir);
  const states: StoreSnapshot[] = [snapshot(store)];
  const step = (drafts: DraftRecord[]): void => {
    store.commit(drafts);
    states.push(snapshot(store));
  };
  let parent: string | null = null;
  for (const [i, text] of UNICODE_SAMPLES.entries()) {
    const drafts = entryCommit(store, parent, text);
    parent = (drafts[0] as { id: string }).id;
    step(drafts);
    if (i % 3 === 1)
      step([
        {
          kind: 'usage',
          id: store.newUsageId(),
          entryId: parent,
          usage: { model: 'gpt-5-mini', inputTokens: 10 * i, outputTokens: i },
        },
      ]);
    if (i % 3 === 2)
      step([{ kind: 'register', op: 'set', namespace: 'fact.label', key: parent, value: `label ${text}` }]);
  }
  step([
    {
      kind: 'register',
      op: 'set',
      namespace: 'pending.intent',
      key: 'call_1',
      value: { tool: 'bash', input: { cmd: 'ls é' } },
    },
  ]);
  step([{ kind: 'register', op: 'delete', namespace: 'pending.intent', key: 'call_1' }]);
  if (options.endWithArray) step(entryCommit(store, parent, 'the last commit: an array ✓'));
  else
    step([
      {
        kind: 'entry',
        timestamp: store.now(),
        id: store.newEntryId(),
        parentId: parent,
        type: 'notice',
        payload: { level: 'info', source: 'user', text: 'the last commit: one record ✓' },
      },
    ]);
  return { path: store.path, states, store };
}

/** Byte offsets where each line starts (index 0 = line 1), and the file length. */
export function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = bytes.indexOf(0x0a); i !== -1 && i + 1 < bytes.length; i = bytes.indexOf(0x0a, i + 1))
    starts.push(i + 1);
  return starts;
}

/** A seed from TOLE_TEST_SEED, else a fresh one; printed so that a failure can be replayed. */
export function testSeed(label: string): number {
  const fromEnv = process.env.TOLE_TEST_SEED;
  const seed = fromEnv ? Number(fromEnv) : Math.floor(Math.random() * 0x7fffffff);
  console.log(`${label}: seed ${seed} (rerun with TOLE_TEST_SEED=${seed})`);
  return seed;
}

/** The file's lines without their newlines. */
export function linesOf(bytes: Buffer): Buffer[] {
  const text = bytes.toString('latin1');
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => Buffer.from(line, 'latin1'));
}

/**
 * The file with commit line `lineNo` (1-based) replaced by `body` under a checksum that matches,
 * and every later line's checksum chained again: only a writer that meant it could make this.
 */
export function rechained(lines: Buffer[], lineNo: number, body: Buffer): Buffer {
  let crc = headerCrc(lines[0]!);
  const out: Buffer[] = [lines[0]!];
  for (let n = 2; n <= lines.length; n++) {
    const old = lines[n - 1]!;
    const commit = n === lineNo ? body : old.subarray(LINE_PREFIX_BYTES, old.length - 1);
    crc = crc32(commit, crc);
    out.push(
      Buffer.concat([Buffer.from(`{"c":"${crc.toString(16).padStart(8, '0')}","r":`), commit, Buffer.from('}')]),
    );
  }
  return Buffer.from(`${out.map((l) => l.toString('latin1')).join('\n')}\n`, 'latin1');
}
