import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { AnyEntry } from '../../src/core/tree/entry-types';
import { TreeIndex } from '../../src/core/tree/tree-index';
import { TreeRowIndex, type TreeRow } from '../../src/tui/tree/tree-rows';
import { headPath } from '../../src/tui/screen/use-session-view';
import { fcRuns } from '../support/fc-runs';

/** The flattening as first written: a stack, newest child last in its column, older ones nested. */
function reference(tree: TreeIndex): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: TreeRow[] = [];
  const push = (kids: readonly string[], depth: number): void => {
    const n = kids.length;
    if (n > 0) stack.push({ id: kids[n - 1]!, depth, branchStart: false, siblingIndex: n, siblingCount: n });
    for (let i = n - 2; i >= 0; i--)
      stack.push({ id: kids[i]!, depth: depth + 1, branchStart: true, siblingIndex: i + 1, siblingCount: n });
  };
  push(tree.roots(), 0);
  while (stack.length > 0) {
    const row = stack.pop()!;
    rows.push(row);
    push(tree.childrenOf(row.id), row.depth);
  }
  return rows;
}

/** Seqs grow with every entry made, as the store's do (a child always after its parent). */
let lastSeq = 0;
const entry = (id: string, parentId: string | null): AnyEntry =>
  ({ id, parentId, seq: ++lastSeq, timestamp: 0, type: 'user', payload: { text: id } }) as AnyEntry;

/** Commits of 1-3 entries; each entry's parent is picked among those before it (or none: a new root), biased to the newest. */
const commitsArb = fc.array(
  fc.array(fc.record({ pick: fc.nat(), newest: fc.boolean(), root: fc.integer({ min: 0, max: 30 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
  { minLength: 1, maxLength: 60, size: 'max' },
);

describe('tree rows kept up to date as entries append', () => {
  it('are the rows a full flattening makes, after every commit, and find every entry', () => {
    fc.assert(
      fc.property(commitsArb, fc.nat(), (commits, probe) => {
        const tree = new TreeIndex();
        const index = new TreeRowIndex(tree);
        const ids: string[] = [];
        for (const commit of commits) {
          const added: string[] = [];
          for (const { pick, newest, root } of commit) {
            const id = `e_${ids.length + 1}`;
            const parent =
              ids.length === 0 || root === 0 ? null : newest ? ids[ids.length - 1]! : ids[pick % ids.length]!;
            tree.add(entry(id, parent));
            ids.push(id);
            added.push(id);
          }
          index.note(added);
          const { rows, indexOf } = index.snapshot();
          expect(rows).toEqual(reference(tree));
          const asked = ids[probe % ids.length]!;
          expect(rows[indexOf.get(asked)!]!.id).toBe(asked);
          expect(rows[indexOf.get(ids[ids.length - 1]!)!]!.id).toBe(ids[ids.length - 1]);
        }
        for (let i = 0; i < ids.length; i++)
          expect(index.snapshot().rows[index.snapshot().indexOf.get(ids[i]!)!]!.id).toBe(ids[i]);
        expect(index.snapshot().indexOf.get('missing')).toBeUndefined();
      }),
      { numRuns: fcRuns() },
    );
  });

  it('keep an older snapshot as it was', () => {
    const tree = new TreeIndex();
    tree.add(entry('a', null));
    tree.add(entry('b', 'a'));
    const index = new TreeRowIndex(tree);
    const before = index.snapshot();
    tree.add(entry('c', 'a'));
    index.note(['c']);
    const after = index.snapshot();
    expect(before.rows.map((r) => [r.id, r.depth])).toEqual([
      ['a', 0],
      ['b', 0],
    ]);
    expect(after.rows.map((r) => [r.id, r.depth])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 0],
    ]);
    expect(before.indexOf.get('b')).toBe(1);
    expect(before.indexOf.get('c')).toBeUndefined();
  });

  it('are built again when entries arrive that it was not told of', () => {
    const tree = new TreeIndex();
    const index = new TreeRowIndex(tree);
    tree.add(entry('a', null));
    tree.add(entry('b', 'a'));
    expect(index.snapshot().rows.map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('tree rows built whole', () => {
  it('are the full flattening, for any tree, with or without a repeated id', () => {
    fc.assert(
      fc.property(commitsArb, fc.option(fc.nat(), { nil: undefined }), (commits, repeat) => {
        const tree = new TreeIndex();
        const ids: string[] = [];
        for (const commit of commits)
          for (const { pick, newest, root } of commit) {
            const id = `e_${ids.length + 1}`;
            const parent = ids.length === 0 || root === 0 ? null : newest ? ids.at(-1)! : ids[pick % ids.length]!;
            tree.add(entry(id, parent));
            ids.push(id);
          }
        if (repeat !== undefined) tree.add(entry(ids[repeat % ids.length]!, null));
        expect(new TreeRowIndex(tree).snapshot().rows).toEqual(reference(tree));
      }),
    );
  });

  it('of a 100,000-entry chain with a branch follow the replies in the order added, not a map look-up per row', () => {
    const tree = new TreeIndex();
    for (let i = 0; i < 100_000; i++) tree.add(entry(`e${i}`, i === 0 ? null : i === 60_000 ? 'e50000' : `e${i - 1}`));
    let lookups = 0;
    const childrenOf = tree.childrenOf.bind(tree);
    tree.childrenOf = (id) => {
      lookups++;
      return childrenOf(id);
    };
    const rows = new TreeRowIndex(tree).snapshot().rows;
    expect(rows.length).toBe(100_000);
    expect(rows.at(-1)!.id).toBe('e99999');
    expect(rows.at(-40_000)!).toEqual({ id: 'e60000', depth: 0, branchStart: false, siblingIndex: 2, siblingCount: 2 });
    expect(lookups).toBeLessThan(20);
  });
});

describe('the path to the head', () => {
  it('extends the previous path when the head moves down its branch, and older paths keep their answers', () => {
    const tree = new TreeIndex();
    tree.add(entry('a', null));
    tree.add(entry('b', 'a'));
    const first = headPath(tree, null, 'b');
    tree.add(entry('c', 'b'));
    tree.add(entry('d', 'c'));
    const second = headPath(tree, first, 'd');
    expect(second.path.map((e) => e.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(second.ids.has('d')).toBe(true);
    expect(first.ids.has('d')).toBe(false);
    expect(first.path.map((e) => e.id)).toEqual(['a', 'b']);
    // A check-out of another branch walks from the root.
    tree.add(entry('x', 'a'));
    const third = headPath(tree, second, 'x');
    expect(third.path.map((e) => e.id)).toEqual(['a', 'x']);
    expect(third.ids.has('b')).toBe(false);
    // An older path can be extended again, down another way.
    const fork = headPath(tree, first, 'd');
    expect(fork.path.map((e) => e.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(fork.ids.has('c')).toBe(true);
    expect(headPath(tree, second, 'd')).toBe(second);
  });

  it('knows its ids as a walk from the root would, for any tree and head', () => {
    fc.assert(
      fc.property(commitsArb, fc.nat(), fc.nat(), (commits, pickHead, pickOld) => {
        const tree = new TreeIndex();
        const ids: string[] = [];
        for (const commit of commits)
          for (const { pick, newest, root } of commit) {
            const id = `n${ids.length}`;
            const parent = ids.length === 0 || root === 0 ? null : newest ? ids.at(-1)! : ids[pick % ids.length]!;
            tree.add(entry(id, parent));
            ids.push(id);
          }
        const old = headPath(tree, null, ids[pickOld % ids.length]!);
        const head = ids[pickHead % ids.length]!;
        const path = headPath(tree, old, head);
        const onPath = new Set(tree.pathTo(head).map((e) => e.id));
        expect(path.path.map((e) => e.id)).toEqual([...onPath]);
        for (const id of [...ids, 'missing']) expect(path.ids.has(id)).toBe(onPath.has(id));
      }),
    );
  });

  it('of a 100,000-entry chain builds no map of its ids: the rows on screen are asked in O(log n) each', () => {
    const tree = new TreeIndex();
    for (let i = 0; i < 100_000; i++) tree.add(entry(`e${i}`, i === 0 ? null : `e${i - 1}`));
    tree.add(entry('off', 'e99990'));
    const set = vi.spyOn(Map.prototype, 'set');
    try {
      const { path, ids } = headPath(tree, null, 'e99999');
      expect(path.length).toBe(100_000);
      // What a 40-row tree pane asks of the first frame, and an entry off the path.
      for (let i = 99_960; i < 100_000; i++) expect(ids.has(`e${i}`)).toBe(true);
      expect(ids.has('off')).toBe(false);
      expect(set.mock.calls.length).toBeLessThan(100);
    } finally {
      set.mockRestore();
    }
  });
});
