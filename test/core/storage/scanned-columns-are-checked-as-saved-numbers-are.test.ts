/**
 * The first open's column scan hands its entry columns to the store as they are, not packed into a
 * saved index's numbers and unpacked again. restoreState must check them exactly as it checks the
 * numbers: the store built from the scan's columns is the one built from the same state saved as
 * numbers, and columns no saved index could hold (a parent not before its child, a seq that does
 * not increase, a type, timestamp or payload range out of bounds, an id not below the next id or
 * given twice, a column of another length) are refused, leaving the open to replay line by line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/clock';
import { RegisterState } from '../../../src/core/registers/register-state';
import { scanColumns } from '../../../src/core/storage/column-scan';
import { headerCrc } from '../../../src/core/storage/line-codec';
import type { UsageRecord } from '../../../src/core/storage/records';
import type { SavedIndex } from '../../../src/core/storage/session-index';
import { SessionStore } from '../../../src/core/storage/session-store';
import { type EntryColumns, restoreState, snapshotState } from '../../../src/core/storage/store-snapshot';
import { ENTRY_TYPES } from '../../../src/core/tree/entry-types';
import { TreeIndex } from '../../../src/core/tree/tree-index';
import { append, emptyStore, fastOps, fixedClock, usageRow } from '../../tui/session-fixture';

/** A session tole wrote (prompts, answers, tool results, a usage row), scanned whole. */
function scanned(): { file: Buffer; scan: SavedIndex; path: string } {
  const store = emptyStore(fastOps);
  for (let i = 0; i < 12; i++) {
    append(store, 'user', { text: `question ${i}` } as never);
    const answer = append(store, 'assistant', {
      text: `answer ${i}`,
      toolCalls: [],
      model: 'm',
      finishReason: 'stop',
    } as never);
    if (i % 4 === 0) usageRow(store, answer, {});
  }
  const path = store.path;
  store.close();
  const file = readFileSync(path);
  const headerEnd = file.indexOf(0x0a);
  const scan = scanColumns(file, headerEnd + 1, headerCrc(file.subarray(0, headerEnd)), (from) =>
    file.indexOf(0x0a, from),
  );
  if (scan === null || scan.columns === undefined) throw new Error('the scan took no line');
  expect(scan.bytes).toBe(file.length);
  expect(scan.numbers).toHaveLength(0);
  return { file, scan, path };
}

function parts(): { tree: TreeIndex; registers: RegisterState; usage: UsageRecord[] } {
  return { tree: new TreeIndex(), registers: new RegisterState(), usage: [] };
}

/** The tree as plain rows: what each entry is and where its payload lies. */
function rowsOf(tree: TreeIndex): unknown[] {
  return [...tree.all()].map((e) => [e.id, e.parentId, e.seq, e.timestamp, e.type, JSON.stringify(e.payload)]);
}

function copy(columns: EntryColumns): {
  parentAt: Int32Array;
  seqs: Float64Array;
  timestamps: Float64Array;
  types: Uint8Array;
  starts: Float64Array;
  stops: Float64Array;
} {
  return {
    parentAt: columns.parentAt.slice(),
    seqs: columns.seqs.slice(),
    timestamps: columns.timestamps.slice(),
    types: columns.types.slice(),
    starts: columns.starts.slice(),
    stops: columns.stops.slice(),
  };
}

describe("the column scan's columns, handed to the store as they are", () => {
  it('build the store the same state saved as numbers builds', () => {
    const { file, scan, path } = scanned();
    const fromColumns = parts();
    const counters = restoreState(fromColumns, scan.state, scan.ids, scan.columns!, file, scan.bytes);
    expect(counters).not.toBeNull();
    // The same state through the saved index's numbers (snapshotState of a line-by-line replay).
    const replayed = SessionStore.open(path, {
      clock: fixedClock(2_000_000_000_000),
      random: seededRandom(3),
      readOnly: true,
    });
    try {
      const saved = snapshotState(replayed, { seq: replayed.lastSeq, nextId: counters!.nextId }, file);
      // A one-thread replay keeps payloads parsed: pack its tree through the scanned one instead.
      const packed = saved ?? snapshotState(fromColumns, counters!, file);
      expect(packed).not.toBeNull();
      const fromNumbers = parts();
      expect(restoreState(fromNumbers, packed!.state, packed!.ids, packed!.numbers, file, scan.bytes)).toEqual(
        counters,
      );
      expect(rowsOf(fromColumns.tree)).toEqual(rowsOf(fromNumbers.tree));
      expect(rowsOf(fromColumns.tree)).toEqual(rowsOf(replayed.tree));
      expect(fromColumns.usage).toEqual(replayed.usage);
      expect(counters!.seq).toBe(replayed.lastSeq);
    } finally {
      replayed.close();
    }
  });

  type Columns = ReturnType<typeof copy>;
  const last = (c: Columns): number => c.seqs.length - 1;
  const attacks: [string, (c: Columns, ids: unknown[], nextId: number, bytes: number) => EntryColumns | void][] = [
    ['a parent at its own place', (c) => void (c.parentAt[5] = 5)],
    ['a parent after its child', (c) => void (c.parentAt[5] = 9)],
    ['a parent before the first place', (c) => void (c.parentAt[5] = -2)],
    ['a seq equal to the one before', (c) => void (c.seqs[6] = c.seqs[5]!)],
    ['a seq below the one before', (c) => void (c.seqs[6] = c.seqs[5]! - 1)],
    ['a seq of 0 first', (c) => void (c.seqs[0] = 0)],
    ['a seq not an integer', (c) => void (c.seqs[6] = c.seqs[6]! + 0.5)],
    ['a seq not a number', (c) => void (c.seqs[6] = Number.NaN)],
    ['a seq past the safe integers', (c) => void (c.seqs[last(c)] = 2 ** 53)],
    ['a type past the table', (c) => void (c.types[3] = ENTRY_TYPES.length)],
    ['a timestamp not an integer', (c) => void (c.timestamps[3] = 1.5)],
    ['a timestamp not finite', (c) => void (c.timestamps[3] = Number.POSITIVE_INFINITY)],
    ['a payload starting inside the one before', (c) => void (c.starts[4] = c.stops[3]! - 1)],
    ['an empty payload', (c) => void (c.stops[4] = c.starts[4]!)],
    ['a payload ending before it starts', (c) => void (c.stops[4] = c.starts[4]! - 1)],
    ['a payload past the scanned bytes', (c, _i, _n, bytes) => void (c.stops[last(c)] = bytes + 1)],
    ['a payload start not an integer', (c) => void (c.starts[4] = c.starts[4]! + 0.5)],
    ['a payload start before the file', (c) => void (c.starts[0] = -1)],
    ['an id not a string', (_c, ids) => void (ids[2] = 2)],
    ['an id given twice', (_c, ids) => void (ids[7] = ids[6])],
    ['an id not below the next id', (_c, ids, nextId) => void (ids[7] = `e_${nextId}`)],
    ['a column shorter than the ids', (c) => ({ ...c, seqs: c.seqs.subarray(0, last(c)) })],
    ['a column longer than the ids', (c) => ({ ...c, types: new Uint8Array(c.types.length + 1) })],
  ];

  it.each(attacks)('are refused with %s', (_name, attack) => {
    const { file, scan } = scanned();
    const state = scan.state as { nextId: number };
    // The unchanged columns are taken: each refusal below is the change's.
    expect(restoreState(parts(), scan.state, scan.ids, copy(scan.columns!), file, scan.bytes)).not.toBeNull();
    const columns = copy(scan.columns!);
    const ids = [...scan.ids] as unknown[];
    const changed = attack(columns, ids, state.nextId, scan.bytes) ?? columns;
    expect(restoreState(parts(), scan.state, ids, changed, file, scan.bytes)).toBeNull();
  });
});
