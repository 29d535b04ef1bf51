import { afterAll, describe, expect, it } from 'vitest';
import { entryCommit, openStore, snapshot, tempDir } from '../../../support/storage-fixtures';
import { BACKENDS, createIn, skipUnavailable } from './backends';

const dir = tempDir();
afterAll(() => dir.remove());

describe.each(BACKENDS)('%s backend: storage compaction', (backend) => {
  if (skipUnavailable(backend)) return;

  it('keeps every entry and usage row and each register at its current value, and the last seq, across a reopen', () => {
    const store = createIn(dir.path, backend);
    let parent: string | null = null;
    for (let i = 0; i < 10; i++) {
      const drafts = entryCommit(store, parent, `entry ${i} ✓`);
      parent = (drafts[0] as { id: string }).id;
      store.commit(drafts);
      store.commit([{ kind: 'usage', id: store.newUsageId(), entryId: parent, usage: { model: 'm', inputTokens: i } }]);
      for (let j = 0; j < 20; j++)
        store.commit([
          { kind: 'register', op: 'set', namespace: 'op.state', key: 'hot', value: { i, j, pad: 'ü'.repeat(200) } },
        ]);
    }
    store.commit([
      { kind: 'register', op: 'set', namespace: 'pending.intent', key: 'call_9', value: { tool: 'bash' } },
    ]);
    store.commit([{ kind: 'register', op: 'delete', namespace: 'pending.intent', key: 'call_9' }]);
    const before = snapshot(store);

    expect(store.compactStorage(true)).toBe(true);
    expect(snapshot(store)).toEqual(before);
    expect(store.registers.get('op.state', 'hot')).toMatchObject({ i: 9, j: 19 });
    const [next] = store.commit(entryCommit(store, parent, 'after compaction'));
    expect(next!.seq).toBe(before.lastSeq + 1);
    const after = snapshot(store);
    store.close();

    const reopened = openStore(store.path);
    expect(snapshot(reopened)).toEqual(after);
    expect(reopened.tree.size).toBe(11);
    expect(reopened.usage).toHaveLength(10);
    reopened.close();
  });

  it('keeps the last seq when the records that held it were dropped', () => {
    const store = createIn(dir.path, backend);
    store.commit(entryCommit(store, null, 'one'));
    store.commit([{ kind: 'register', op: 'set', namespace: 'op.state', key: 'k', value: 1 }]);
    store.commit([{ kind: 'register', op: 'delete', namespace: 'op.state', key: 'k' }]);
    expect(store.compactStorage(true)).toBe(true);
    store.close();
    const reopened = openStore(store.path);
    expect(reopened.lastSeq).toBe(4);
    expect(reopened.header.compactedAtSeq).toBe(4);
    expect(reopened.commit(entryCommit(reopened, 'e_1', 'two'))[0]!.seq).toBe(5);
    reopened.close();
  });
});
