import { readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';
import { faultyOps, type WriteFault } from '../../support/fault-ops';

const dir = tempDir();
afterAll(() => dir.remove());

describe.each<{ fault: WriteFault; what: string }>([
  { fault: 'enospc-after-partial', what: 'writes part of the commit, then fails with ENOSPC' },
  { fault: 'zero-count', what: 'returns a short count of 0 bytes' },
])('a disk that $what', ({ fault }) => {
  it('leaves the commit not committed: the error says so, memory and file are as before, and a later commit works', () => {
    const ops = faultyOps();
    const store = createStore(dir.path, ops);
    store.commit(entryCommit(store, null, 'first'));
    store.commit(entryCommit(store, 'e_1', 'second ✓'));
    const before = snapshot(store);
    const bytes = readFileSync(store.path);

    ops.writeFault = fault;
    const big = 'x'.repeat(10_000);
    expect(() => store.commit(entryCommit(store, 'e_2', big))).toThrowError(
      expect.objectContaining({ kind: 'not-committed', message: expect.stringMatching(/^not committed: ENOSPC/) }),
    );
    expect(ops.writes).toBeGreaterThan(0);
    expect(snapshot(store)).toEqual(before);
    expect(statSync(store.path).size).toBe(bytes.length);
    expect(readFileSync(store.path).equals(bytes)).toBe(true);

    const reopenedMeanwhile = openStore(store.path, { readOnly: true });
    expect(snapshot(reopenedMeanwhile)).toEqual(before);
    expect(reopenedMeanwhile.report.tornTail).toBeNull();
    reopenedMeanwhile.close();

    ops.writeFault = null;
    const [third] = store.commit(entryCommit(store, 'e_2', 'third, once space was freed'));
    expect(third!.seq).toBe(before.lastSeq + 1);
    const after = snapshot(store);
    store.close();
    const reopened = openStore(store.path);
    expect(snapshot(reopened)).toEqual(after);
    expect(
      reopened.tree
        .pathTo(reopened.registers.get<string>('lane.leaf', 'main')!)
        .map((e) => (e.payload as { text: string }).text),
    ).toEqual(['first', 'second ✓', 'third, once space was freed']);
    reopened.close();
  });
});
