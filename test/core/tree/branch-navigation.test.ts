import { afterAll, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../../src/core/storage/session-store';
import { createStore, entryCommit, openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/**
 *  e_1 ─ e_2 ─ e_3 ─ e_4            lane main
 *          ├── e_5 ─ e_6            lane b1 (branched from e_2)
 *          └── e_7                  lane b2 (branched from e_2, newest)
 *  e_8                              a second root
 */
function branchedTree(): SessionStore {
  const store = createStore(dir.path);
  const add = (parent: string | null, lane: string): string =>
    (store.commit(entryCommit(store, parent, `on ${lane}`, lane))[0] as { id: string }).id;
  const e1 = add(null, 'main');
  const e2 = add(e1, 'main');
  const e3 = add(e2, 'main');
  add(e3, 'main');
  const e5 = add(e2, 'b1');
  add(e5, 'b1');
  add(e2, 'b2');
  add(null, 'other');
  return store;
}

const ids = (entries: readonly { id: string }[]): string[] => entries.map((e) => e.id);

describe.each([
  { when: 'live', get: (s: SessionStore) => s },
  { when: 'after a reopen', get: (s: SessionStore) => (s.close(), openStore(s.path)) },
])('navigation in a branched conversation tree ($when)', ({ get }) => {
  const store = get(branchedTree());

  it('walks the path from the root to any leaf', () => {
    expect(ids(store.tree.pathTo('e_4'))).toEqual(['e_1', 'e_2', 'e_3', 'e_4']);
    expect(ids(store.tree.pathTo('e_6'))).toEqual(['e_1', 'e_2', 'e_5', 'e_6']);
    expect(ids(store.tree.pathTo('e_7'))).toEqual(['e_1', 'e_2', 'e_7']);
    expect(ids(store.tree.pathTo('e_8'))).toEqual(['e_8']);
    expect(store.tree.pathTo(null)).toEqual([]);
  });

  it('lists siblings oldest first, the entry itself included', () => {
    expect(store.tree.siblingsOf('e_5')).toEqual(['e_3', 'e_5', 'e_7']);
    expect(store.tree.siblingsOf('e_1')).toEqual(['e_1', 'e_8']);
    expect(store.tree.siblingsOf('e_4')).toEqual(['e_4']);
    expect(store.tree.siblingsOf('e_404')).toEqual([]);
  });

  it('follows the newest child down to a leaf', () => {
    expect(store.tree.newestLeafUnder('e_1')).toBe('e_7');
    expect(store.tree.newestLeafUnder('e_3')).toBe('e_4');
    expect(store.tree.newestLeafUnder('e_5')).toBe('e_6');
    expect(store.tree.newestLeafUnder('e_6')).toBe('e_6');
  });

  it('knows depths, leaves and the lane leaves', () => {
    expect(store.tree.depthOf('e_6')).toBe(3);
    expect(store.tree.isLeaf('e_4')).toBe(true);
    expect(store.tree.isLeaf('e_2')).toBe(false);
    expect(store.tree.roots()).toEqual(['e_1', 'e_8']);
    expect(Object.fromEntries(store.registers.entries('lane.leaf').map(([lane, cell]) => [lane, cell.value]))).toEqual({
      main: 'e_4',
      b1: 'e_6',
      b2: 'e_7',
      other: 'e_8',
    });
  });
});
