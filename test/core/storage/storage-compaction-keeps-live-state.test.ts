import { readdirSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPACTION_MIN_DEAD_BYTES } from '../../../src/core/storage/session-store';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

describe('storage compaction', () => {
  it('runs only past the thresholds, keeps every entry and usage row and each register at its current value, and shrinks the file', () => {
    const store = createStore(dir.path);
    let parent: string | null = null;
    for (let i = 0; i < 20; i++) {
      const drafts = entryCommit(store, parent, `entry ${i} ✓`);
      parent = (drafts[0] as { id: string }).id;
      store.commit(drafts);
      store.commit([{ kind: 'usage', id: store.newUsageId(), entryId: parent, usage: { model: 'm', inputTokens: i } }]);
    }
    store.commit([
      { kind: 'register', op: 'set', namespace: 'pending.intent', key: 'call_9', value: { tool: 'bash' } },
    ]);
    const big = 'ü'.repeat(1000);
    let overwrites = 0;
    while (store.registers.deadBytes < COMPACTION_MIN_DEAD_BYTES) {
      expect(store.compactStorage(), `below the thresholds after ${overwrites} overwrites`).toBe(false);
      for (let j = 0; j < 50; j++)
        store.commit([
          { kind: 'register', op: 'set', namespace: 'op.state', key: 'hot', value: { n: overwrites++, big } },
        ]);
    }
    store.commit([{ kind: 'register', op: 'delete', namespace: 'pending.intent', key: 'call_9' }]);
    expect(store.deadRatio()).toBeGreaterThan(0.5);

    const before = snapshot(store);
    const sizeBefore = statSync(store.path).size;
    expect(store.compactStorage()).toBe(true);
    const sizeAfter = statSync(store.path).size;
    expect(sizeAfter).toBeLessThan(sizeBefore / 10);
    expect(store.sizeBytes).toBe(sizeAfter);
    expect(snapshot(store)).toEqual(before);
    expect(store.registers.get('op.state', 'hot')).toEqual({ n: overwrites - 1, big });
    expect(readdirSync(dir.path).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // The last seq is kept even though the delete that held it is gone from the file.
    const [next] = store.commit(entryCommit(store, parent, 'after compaction'));
    expect(next!.seq).toBe(before.lastSeq + 1);
    const after = snapshot(store);
    store.close();

    const reopened = openStore(store.path);
    expect(reopened.report.tornTail).toBeNull();
    expect(snapshot(reopened)).toEqual(after);
    expect(reopened.tree.size).toBe(21);
    expect(reopened.usage).toHaveLength(20);
    // Only the lane leaf that the last commit moved is dead now.
    expect(reopened.registers.deadBytes).toBeLessThan(200);
    reopened.close();
  });

  it('keeps the last seq across a reopen when the dropped lines held the highest seqs', () => {
    const store = createStore(dir.path);
    store.commit(entryCommit(store, null, 'one'));
    store.commit([{ kind: 'register', op: 'set', namespace: 'op.state', key: 'k', value: 1 }]);
    store.commit([{ kind: 'register', op: 'delete', namespace: 'op.state', key: 'k' }]);
    expect(store.compactStorage(true)).toBe(true);
    store.close();
    const reopened = openStore(store.path);
    expect(reopened.lastSeq).toBe(4);
    expect(reopened.header.compactedAtSeq).toBe(4);
    reopened.close();
  });
});
