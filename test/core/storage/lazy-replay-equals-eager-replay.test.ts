import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { dropPayloads, payloadIsUnparsed } from '../../../src/core/storage/replayed-entry';
import { LINE_PREFIX_BYTES } from '../../../src/core/storage/line-codec';
import { commitRecords, type Commit, type DraftRecord, type StoredRecord } from '../../../src/core/storage/records';
import { ENTRY_TYPES } from '../../../src/core/tree/entry-types';
import { createStore, openStore, snapshot, tempDir, testSeed } from '../../support/storage-fixtures';
import { fcRuns } from '../../support/fc-runs';

const dir = tempDir();
afterAll(() => dir.remove());

/** The records of the file as the eager replay read them: `JSON.parse` of every commit line. */
function eagerRecords(path: string): StoredRecord[] {
  const lines = readFileSync(path, 'utf8').split('\n').slice(1, -1);
  return lines.flatMap((line) => commitRecords(JSON.parse(line.slice(LINE_PREFIX_BYTES, -1)) as Commit));
}

/** One step of a random session: a commit of one to three records. */
const text = fc.string({ unit: 'binary', maxLength: 40 });
const payload = fc.oneof(
  fc.record({ text, blocked: fc.option(text, { nil: undefined }) }),
  fc.jsonValue({ maxDepth: 3 }),
);
const step = fc.array(
  fc.oneof(
    fc.record({
      what: fc.constant('entry' as const),
      type: fc.constantFrom(...ENTRY_TYPES),
      parent: fc.nat(),
      payload,
    }),
    fc.record({
      what: fc.constant('set' as const),
      key: fc.constantFrom('main', 'side', 'x'),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
    fc.record({ what: fc.constant('delete' as const), key: fc.constantFrom('main', 'side', 'x') }),
    fc.record({ what: fc.constant('usage' as const), usage: fc.jsonValue({ maxDepth: 2 }) }),
  ),
  { minLength: 1, maxLength: 3 },
);

describe('a session replayed with lazy payloads', () => {
  const seed = testSeed('lazy replay');

  it('holds exactly what eager parsing of its lines gives, and what was committed, payloads read or not', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const store = createStore(dir.path);
        const ids: string[] = [];
        const live: StoredRecord[] = [];
        for (const records of steps) {
          const drafts: DraftRecord[] = [];
          const made: string[] = [];
          for (const r of records) {
            if (r.what === 'entry') {
              const id = store.newEntryId();
              const pool = [...ids, ...made];
              const parentId = pool.length === 0 || r.parent % 4 === 0 ? null : pool[r.parent % pool.length]!;
              drafts.push({ kind: 'entry', timestamp: store.now(), id, parentId, type: r.type, payload: r.payload });
              made.push(id);
            } else if (r.what === 'set') {
              drafts.push({ kind: 'register', op: 'set', namespace: 'fact.label', key: r.key, value: r.value });
            } else if (r.what === 'delete') {
              drafts.push({ kind: 'register', op: 'delete', namespace: 'fact.label', key: r.key });
            } else {
              drafts.push({ kind: 'usage', id: store.newUsageId(), entryId: ids.at(-1) ?? null, usage: r.usage });
            }
          }
          live.push(...store.commit(drafts));
          ids.push(...made);
        }
        const before = snapshot(store);
        const path = store.path;
        store.close();

        const reopened = openStore(path, { readOnly: true });
        const entries = [...reopened.tree.all()];
        expect(
          entries.every((e) => payloadIsUnparsed(e)),
          'no payload is parsed by opening',
        ).toBe(true);
        const eager = eagerRecords(path).filter((r) => r.kind === 'entry');
        const committed = live.filter((r) => r.kind === 'entry');
        // JSON text compares values and key order both; every payload is read here.
        expect(JSON.stringify(entries)).toBe(JSON.stringify(eager));
        expect(JSON.stringify(entries)).toBe(JSON.stringify(committed));
        expect(snapshot(reopened)).toEqual(before);
        dropPayloads();
        expect(entries.every((e) => payloadIsUnparsed(e))).toBe(true);
        expect(entries.map((e) => e.payload)).toEqual(committed.map((e) => (e as { payload: unknown }).payload));
        reopened.close();
      }),
      { seed, numRuns: fcRuns(0.25) },
    );
  });
});
