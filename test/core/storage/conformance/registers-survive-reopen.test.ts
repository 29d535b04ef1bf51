import { afterAll, describe, expect, it } from 'vitest';
import { openStore, snapshot, tempDir } from '../../../support/storage-fixtures';
import { BACKENDS, createIn, skipUnavailable } from './backends';

const dir = tempDir();
afterAll(() => dir.remove());

describe.each(BACKENDS)('%s backend: registers', (backend) => {
  if (skipUnavailable(backend)) return;

  it('keep each namespace apart across a reopen: the same key in two namespaces, overwrites, deletes, the seq of the last set', () => {
    const store = createIn(dir.path, backend);
    const set = (namespace: string, key: string, value: unknown) =>
      store.commit([{ kind: 'register', op: 'set', namespace, key, value }]);
    set('op.state', 'k', { phase: 'intent' });
    set('pending.intent', 'k', { tool: 'bash' });
    set('fact.session', 'k', 'model-a');
    set('lane.leaf', 'main', 'e_1');
    const [overwrite] = set('op.state', 'k', { phase: 'executing' });
    set('fact.session', 'k', null);
    store.commit([{ kind: 'register', op: 'delete', namespace: 'pending.intent', key: 'k' }]);
    const live = snapshot(store);
    store.close();

    const reopened = openStore(store.path);
    expect(snapshot(reopened)).toEqual(live);
    expect(reopened.registers.get('op.state', 'k')).toEqual({ phase: 'executing' });
    expect(reopened.registers.cell('op.state', 'k')?.seq).toBe(overwrite!.seq);
    expect(reopened.registers.cell('fact.session', 'k')).toMatchObject({ value: null });
    expect(reopened.registers.get('lane.leaf', 'main')).toBe('e_1');
    expect(reopened.registers.cell('pending.intent', 'k')).toBeUndefined();
    expect(reopened.lastSeq).toBe(7);
    reopened.close();
  });

  it('refuse an unknown namespace before anything is written', () => {
    const store = createIn(dir.path, backend);
    expect(() =>
      store.commit([{ kind: 'register', op: 'set', namespace: 'cache.x', key: 'k', value: 1 }]),
    ).toThrowError(expect.objectContaining({ kind: 'invalid-commit' }));
    expect(store.lastSeq).toBe(0);
    store.close();
    const reopened = openStore(store.path);
    expect(reopened.registers.namespaces()).toEqual([]);
    reopened.close();
  });
});
