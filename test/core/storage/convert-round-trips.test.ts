import { copyFileSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/clock';
import { convertedPath, convertSession } from '../../../src/core/storage/convert';
import {
  openStore,
  snapshot,
  steppingClock,
  memoryTempDir,
  testSeed,
  type StoreSnapshot,
} from '../../support/storage-fixtures';
import { commitsArb, createIn, Model, skipUnavailable } from './conformance/backends';
import { fcRuns } from '../../support/fc-runs';

// Every case commits and replays with fsyncs: in memory, where an fsync waits on no disk.
const dir = memoryTempDir();
afterAll(() => dir.remove());

let seed = 1;
const options = () => ({ clock: steppingClock(), random: seededRandom(seed++) });

/** What a session holds, read through SessionStore: header id and the replayed state. */
function content(path: string): { id: string; state: StoreSnapshot } {
  const store = openStore(path, { readOnly: true });
  try {
    return { id: store.header.id, state: snapshot(store) };
  } finally {
    store.close();
  }
}

/** jsonl -> sqlite -> jsonl (or the other way), each copy checked against the original. */
function roundTrip(path: string): void {
  const original = content(path);
  const bytes = readFileSync(path);
  const there = convertSession(path, path.endsWith('.db') ? 'jsonl' : 'sqlite', options());
  expect(readFileSync(path).equals(bytes)).toBe(true);
  expect(content(there.to)).toEqual(original);
  expect(there).toMatchObject({
    entries: original.state.entries.length,
    usageRows: original.state.usage.length,
    lastSeq: original.state.lastSeq,
  });
  renameSync(path, `${path}.original`);
  const back = convertSession(there.to, path.endsWith('.db') ? 'sqlite' : 'jsonl', options());
  expect(back.to).toBe(path);
  expect(content(path)).toEqual(original);
}

describe('tole convert', () => {
  if (skipUnavailable('sqlite')) return;

  it('names the copy after the source with the other extension', () => {
    expect(convertedPath('/s/1-abc.jsonl', 'sqlite')).toBe('/s/1-abc.db');
    expect(convertedPath('/s/1-abc.db', 'jsonl')).toBe('/s/1-abc.jsonl');
  });

  it('round-trips the demo session jsonl -> sqlite -> jsonl with the same header id, entries, registers, usage and seqs', () => {
    const path = join(dir.path, 'demo.jsonl');
    copyFileSync(join(import.meta.dirname, '..', '..', '..', 'examples', 'demo.jsonl'), path);
    expect(content(path).state.entries.length).toBeGreaterThan(10);
    roundTrip(path);
  });

  it('round-trips fuzzed sessions both ways, register deletes and overwrites included', () => {
    const runSeed = testSeed('convert round trip');
    let n = 0;
    fc.assert(
      fc.property(commitsArb, fc.boolean(), (sequence, sqliteFirst) => {
        const model = new Model();
        const store = createIn(join(dir.path), sqliteFirst ? 'sqlite' : 'jsonl');
        for (const ops of sequence) store.commit(model.drafts(ops));
        store.close();
        expect(content(store.path).state).toEqual(model.snapshot());
        roundTrip(store.path);
        n++;
      }),
      { numRuns: fcRuns(0.4), seed: runSeed },
    );
    expect(n).toBe(40);
  });

  it('never overwrites an existing file, and leaves no temp file behind', () => {
    const store = createIn(dir.path, 'jsonl');
    store.close();
    const target = convertedPath(store.path, 'sqlite');
    writeFileSync(target, 'not mine to overwrite');
    expect(() => convertSession(store.path, 'sqlite', options())).toThrowError(
      expect.objectContaining({ kind: 'exists', message: expect.stringContaining(`${target} already exists`) }),
    );
    expect(readFileSync(target, 'utf8')).toBe('not mine to overwrite');
    expect(readdirSync(dir.path).filter((name) => name.startsWith('.') || name.endsWith('.lock'))).toEqual([]);
  });
});
