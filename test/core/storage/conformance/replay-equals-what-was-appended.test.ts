import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/core/clock';
import type { StoredRecord } from '../../../../src/core/storage/records';
import { SessionStore } from '../../../../src/core/storage/session-store';
import { memoryTempDir, openStore, snapshot, steppingClock, testSeed } from '../../../support/storage-fixtures';
import { BACKENDS, commitsArb, createIn, Model, skipUnavailable } from './backends';
import { fcRuns } from '../../../support/fc-runs';

// Every case commits and replays with fsyncs: in memory, where an fsync waits on no disk.
const dir = memoryTempDir();
afterAll(() => dir.remove());

describe.each(BACKENDS)('%s backend: replay of a session', (backend) => {
  if (skipUnavailable(backend)) return;

  it('gives back exactly what was appended: entries, register sets and deletes, usage rows, the last seq', () => {
    const seed = testSeed(`${backend} replay`);
    fc.assert(
      fc.property(commitsArb, (sequence) => {
        const model = new Model();
        const store = createIn(dir.path, backend);
        for (const ops of sequence) store.commit(model.drafts(ops));
        const live = snapshot(store);
        store.close();
        const replayed = openStore(store.path);
        const state = snapshot(replayed);
        replayed.close();
        expect(state).toEqual(model.snapshot());
        expect(live).toEqual(state);
      }),
      { numRuns: fcRuns(0.6), seed },
    );
  });

  it('hands the store each commit as one transaction, in seq order', () => {
    const model = new Model();
    const store = createIn(dir.path, backend);
    const appended = [
      store.commit(
        model.drafts([
          { t: 'entry', parentPick: 0, root: true, text: 'one' },
          { t: 'set', ns: 'lane.leaf', key: 'main', value: 'e_1' },
        ]),
      ),
      store.commit(model.drafts([{ t: 'usage', model: 'm', inputTokens: 3 }])),
      store.commit(
        model.drafts([
          { t: 'entry', parentPick: 0, root: false, text: 'two' },
          { t: 'usage', model: 'm', inputTokens: 4 },
          { t: 'set', ns: 'fact.label', key: 'e_3', value: 'x' },
        ]),
      ),
    ];
    store.close();
    const seen: number[][] = [];
    const onReplay = (records: readonly StoredRecord[]): number => seen.push(records.map((r) => r.seq));
    SessionStore.open(store.path, {
      clock: steppingClock(),
      random: seededRandom(99),
      readOnly: true,
      onReplay,
    }).close();
    expect(seen).toEqual(appended.map((records) => records.map((r) => r.seq)));
  });
});
