/**
 * A session file renamed into place (compaction, convert, pull) whose directory fsync failed may
 * fall back to the file it replaced after a power loss, with every commit acknowledged in it since.
 * A writable open therefore fsyncs the file's directory before its first commit, and opens nothing
 * when that fails. Unit level with the fault-injecting ops, then the simulator's seeds that found it.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { SessionStore } from '../../../src/core/storage/session-store';
import { sqliteUnavailableReason } from '../../../src/core/storage/sqlite-driver';
import { faultyOps } from '../../support/fault-ops';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';
import { runSchedule } from '../../sim/simulate';

const dir = tempDir('tole-durable-name-');
afterAll(() => dir.remove());

/** A closed session holding one commit. */
function sessionWithOneCommit(backend: 'jsonl' | 'sqlite'): string {
  const store =
    backend === 'jsonl'
      ? createStore(dir.path)
      : SessionStore.create(dir.path, { clock: systemClock, random: seededRandom(5), cwd: '/w', backend });
  store.commit(entryCommit(store, null, 'first'));
  store.close();
  return store.path;
}

describe('a writable open makes the file’s name durable before it acknowledges a commit', () => {
  it('jsonl: the directory is fsynced before the first commit’s bytes are written', () => {
    const path = sessionWithOneCommit('jsonl');
    const ops = faultyOps();
    const store = openStore(path, { ops });
    store.commit(entryCommit(store, 'e_1', 'second'));
    store.close();
    const durable = ops.log.indexOf(`fsync-dir ${dirname(path)}`);
    expect(durable, ops.log.join(', ')).toBeGreaterThanOrEqual(0);
    expect(durable).toBeLessThan(ops.log.indexOf('write'));
  });

  it('jsonl: when that fsync fails the open fails, says so, writes nothing and leaves the session openable', () => {
    const path = sessionWithOneCommit('jsonl');
    const bytes = readFileSync(path);
    const ops = faultyOps();
    ops.failDirectoryFsync = true;
    expect(() => openStore(path, { ops })).toThrowError(
      expect.objectContaining({ kind: 'not-committed', message: expect.stringContaining('could not be fsynced (EIO') }),
    );
    expect(ops.writes).toBe(0);
    expect(readFileSync(path)).toEqual(bytes);
    // A read-only open needs no durable name: it commits nothing.
    const reader = openStore(path, { ops, readOnly: true });
    const seen = snapshot(reader);
    reader.close();
    const writer = openStore(path);
    expect(snapshot(writer)).toEqual(seen);
    writer.close();
  });

  it.skipIf(sqliteUnavailableReason() !== null)('sqlite: a failing directory fsync fails the writable open too', () => {
    const path = sessionWithOneCommit('sqlite');
    const ops = faultyOps();
    ops.failDirectoryFsync = true;
    expect(() => SessionStore.open(path, { clock: systemClock, random: seededRandom(6), ops })).toThrowError(
      expect.objectContaining({ kind: 'not-committed' }),
    );
    const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(7) });
    expect(store.entry('e_1')?.payload).toEqual({ text: 'first' });
    store.close();
  });
});

describe('the simulator’s seeds that lost acknowledged commits after a failed directory fsync', () => {
  for (const seed of [4043, 14050, 14133, 14586, 15625]) {
    it(`seed ${seed} holds every invariant (replay: npm run sim -- --seed ${seed})`, async () => {
      const result = await runSchedule(seed);
      expect(result.problems).toEqual([]);
    });
  }
});
