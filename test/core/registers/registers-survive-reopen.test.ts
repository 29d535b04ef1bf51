import { afterAll, describe, expect, it } from 'vitest';
import { createStore, openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

const NAMESPACES = ['lane.leaf', 'lane.head', 'op.machine', 'op.state', 'pending.intent', 'fact.label', 'fact.session'];

describe('registers', () => {
  it('keep their sets and deletes per namespace across a reopen', () => {
    const store = createStore(dir.path);
    for (const ns of NAMESPACES) {
      store.commit([
        { kind: 'register', op: 'set', namespace: ns, key: 'kept', value: { ns, v: 1 } },
        { kind: 'register', op: 'set', namespace: ns, key: 'gone', value: 'soon deleted' },
      ]);
      store.commit([
        { kind: 'register', op: 'set', namespace: ns, key: 'kept', value: { ns, v: 2, text: 'ünïcödé ✓' } },
      ]);
      store.commit([{ kind: 'register', op: 'delete', namespace: ns, key: 'gone' }]);
    }
    // The same key in two namespaces is two cells.
    expect(store.registers.get('op.state', 'kept')).not.toEqual(store.registers.get('fact.label', 'kept'));
    store.close();

    const reopened = openStore(store.path);
    for (const ns of NAMESPACES) {
      expect(reopened.registers.get(ns, 'kept'), ns).toEqual({ ns, v: 2, text: 'ünïcödé ✓' });
      expect(reopened.registers.get(ns, 'gone'), ns).toBeUndefined();
      expect(
        reopened.registers.entries(ns).map(([key]) => key),
        ns,
      ).toEqual(['kept']);
    }
    // pending.intent is the fifth namespace: seqs 17-20, its second set of 'kept' is 19.
    expect(reopened.registers.cell('pending.intent', 'kept')!.seq).toBe(19);
    reopened.close();
  });

  it('refuse a namespace outside lane, op, pending and fact, writing nothing', () => {
    const store = createStore(dir.path);
    const size = store.sizeBytes;
    expect(() =>
      store.commit([{ kind: 'register', op: 'set', namespace: 'misc.thing', key: 'k', value: 1 }]),
    ).toThrowError(expect.objectContaining({ kind: 'invalid-commit', message: expect.stringContaining('misc.thing') }));
    expect(store.sizeBytes).toBe(size);
    expect(store.lastSeq).toBe(0);
    store.close();
  });
});
