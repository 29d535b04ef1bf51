import { afterAll, describe, expect, it } from 'vitest';
import { entryCommit, openStore, snapshot, tempDir } from '../../../support/storage-fixtures';
import { BACKENDS, createIn, diskState, skipUnavailable } from './backends';

const dir = tempDir();
afterAll(() => dir.remove());

describe.each(BACKENDS)('%s backend: entries are immutable', (backend) => {
  if (skipUnavailable(backend)) return;

  it('refuses an entry id written twice, alone or inside one commit, and nothing changes in memory or on disk', () => {
    const store = createIn(dir.path, backend);
    const [first] = store.commit(entryCommit(store, null, 'the original'));
    const id = (first as { id: string }).id;
    const before = snapshot(store);
    const disk = diskState(store.path);

    expect(() =>
      store.commit([{ kind: 'entry', timestamp: 1, id, parentId: null, type: 'user', payload: { text: 'a rewrite' } }]),
    ).toThrowError(
      expect.objectContaining({
        kind: 'invalid-commit',
        message: expect.stringContaining(`entry ${id} written twice`),
      }),
    );
    expect(() =>
      store.commit([
        { kind: 'entry', timestamp: 1, id: 'e_99', parentId: null, type: 'user', payload: { text: 'one' } },
        { kind: 'entry', timestamp: 1, id: 'e_99', parentId: null, type: 'user', payload: { text: 'two' } },
      ]),
    ).toThrowError(expect.objectContaining({ kind: 'invalid-commit' }));

    expect(snapshot(store)).toEqual(before);
    expect(diskState(store.path)).toEqual(disk);
    store.close();
    const reopened = openStore(store.path);
    expect(reopened.entry(id)?.payload).toEqual({ text: 'the original' });
    expect(snapshot(reopened)).toEqual(before);
    reopened.close();
  });

  it("holds what was committed, not the caller's object mutated afterwards", () => {
    const store = createIn(dir.path, backend);
    const payload = { text: 'as committed', when: new Date(0) as unknown };
    store.commit([{ kind: 'entry', timestamp: 1, id: 'e_1', parentId: null, type: 'user', payload }]);
    payload.text = 'mutated afterwards';
    expect(store.entry('e_1')?.payload).toEqual({ text: 'as committed', when: '1970-01-01T00:00:00.000Z' });
    store.close();
    const reopened = openStore(store.path);
    expect(reopened.entry('e_1')?.payload).toStrictEqual({ text: 'as committed', when: '1970-01-01T00:00:00.000Z' });
    reopened.close();
  });
});
