import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

describe('entries are immutable', () => {
  it('refuses to commit an entry id twice, and nothing changes, in memory or on disk', () => {
    const store = createStore(dir.path);
    const [first] = store.commit(entryCommit(store, null, 'the original'));
    const id = (first as { id: string }).id;
    const before = snapshot(store);
    const bytes = readFileSync(store.path);

    const again = (): unknown =>
      store.commit([{ kind: 'entry', timestamp: 1, id, parentId: null, type: 'user', payload: { text: 'a rewrite' } }]);
    expect(again).toThrowError(
      expect.objectContaining({
        kind: 'invalid-commit',
        message: expect.stringContaining(`entry ${id} written twice`),
      }),
    );
    const inOneCommit = (): unknown =>
      store.commit([
        { kind: 'entry', timestamp: 1, id: 'e_99', parentId: null, type: 'user', payload: { text: 'one' } },
        { kind: 'entry', timestamp: 1, id: 'e_99', parentId: null, type: 'user', payload: { text: 'two' } },
      ]);
    expect(inOneCommit).toThrowError(expect.objectContaining({ kind: 'invalid-commit' }));

    expect(snapshot(store)).toEqual(before);
    expect(readFileSync(store.path).equals(bytes)).toBe(true);
    store.close();
    expect(openStore(store.path).entry(id)?.payload).toEqual({ text: 'the original' });
  });

  it('is not changed by mutating the object that was committed', () => {
    const store = createStore(dir.path);
    const payload = { text: 'as committed' };
    store.commit([{ kind: 'entry', timestamp: 1, id: 'e_1', parentId: null, type: 'user', payload }]);
    payload.text = 'mutated afterwards';
    expect(store.entry('e_1')?.payload).toEqual({ text: 'as committed' });
    store.close();
  });

  it("holds in memory what replay will read back, not the caller's objects", () => {
    const store = createStore(dir.path);
    store.commit([
      {
        kind: 'entry',
        timestamp: 1,
        id: 'e_1',
        parentId: null,
        type: 'user',
        payload: { text: 'x', dropped: undefined, when: new Date(0) },
      },
    ]);
    const live = snapshot(store);
    store.close();
    const reopened = openStore(store.path);
    expect(snapshot(reopened)).toEqual(live);
    expect(reopened.entry('e_1')?.payload).toStrictEqual({ text: 'x', when: '1970-01-01T00:00:00.000Z' });
    reopened.close();
  });

  it('refuses a parent that does not exist', () => {
    const store = createStore(dir.path);
    expect(() =>
      store.commit([
        { kind: 'entry', timestamp: 1, id: 'e_1', parentId: 'e_404', type: 'user', payload: { text: '' } },
      ]),
    ).toThrowError(expect.objectContaining({ kind: 'invalid-commit', message: expect.stringContaining('e_404') }));
    expect(store.tree.size).toBe(0);
    store.close();
  });
});
