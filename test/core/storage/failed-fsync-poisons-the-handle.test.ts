import { afterAll, describe, expect, it } from 'vitest';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';
import { faultyOps } from '../../support/fault-ops';

const dir = tempDir();
afterAll(() => dir.remove());

describe('an fdatasync that fails', () => {
  it('poisons the handle: that commit is not acknowledged, later ones are refused without writing, and a reopen replays', () => {
    const ops = faultyOps();
    const store = createStore(dir.path, ops);
    store.commit(entryCommit(store, null, 'durable'));
    const before = snapshot(store);

    ops.failFdatasync = true;
    expect(() => store.commit(entryCommit(store, 'e_1', 'fsync fails'))).toThrowError(
      expect.objectContaining({ kind: 'poisoned', message: expect.stringContaining('EIO') }),
    );
    expect(snapshot(store)).toEqual(before);

    ops.failFdatasync = false;
    const writes = ops.writes;
    const fsyncs = ops.fdatasyncs;
    expect(() => store.commit(entryCommit(store, 'e_1', 'after the failure'))).toThrowError(
      expect.objectContaining({ kind: 'poisoned', message: expect.stringContaining('reopen') }),
    );
    expect(ops.writes, 'no write after poisoning').toBe(writes);
    expect(ops.fdatasyncs, 'no fsync retried').toBe(fsyncs);
    expect(() => store.compactStorage(true)).toThrowError(expect.objectContaining({ kind: 'poisoned' }));
    store.close();

    const reopened = openStore(store.path);
    expect(reopened.report.tornTail).toBeNull();
    // The unacknowledged commit may or may not have reached the disk; the acknowledged one has.
    expect(reopened.entry('e_1')?.payload).toEqual({ text: 'durable' });
    expect([before.lastSeq, before.lastSeq + 2]).toContain(reopened.lastSeq);
    const [next] = reopened.commit(entryCommit(reopened, 'e_1', 'after the reopen'));
    expect(next!.seq).toBe(reopened.lastSeq - 1);
    const after = snapshot(reopened);
    reopened.close();
    expect(snapshot(openStore(store.path))).toEqual(after);
  });
});
