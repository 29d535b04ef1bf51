import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyEntry } from '../../../src/core/tree/entry-types';
import { TreeIndex } from '../../../src/core/tree/tree-index';

const entry = (id: string, parentId: string | null): AnyEntry =>
  ({ id, parentId, seq: 0, timestamp: 0, type: 'user', payload: { text: id } }) as AnyEntry;

/** The index as first written: a map of entries and a list of children for every parent. */
class Reference {
  readonly byId = new Map<string, AnyEntry>();
  readonly children = new Map<string | null, string[]>();
  add(e: AnyEntry): void {
    this.byId.set(e.id, e);
    const list = this.children.get(e.parentId);
    if (list) list.push(e.id);
    else this.children.set(e.parentId, [e.id]);
  }
  childrenOf(id: string | null): string[] {
    return this.children.get(id) ?? [];
  }
  newestLeafUnder(id: string): string {
    for (let kids = this.childrenOf(id); kids.length > 0; kids = this.childrenOf(id)) id = kids.at(-1)!;
    return id;
  }
}

afterEach(() => vi.restoreAllMocks());

describe('the tree index', () => {
  it('answers as a list of children for every parent would, for any tree, asked at any time, with or without a repeated id', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ pick: fc.nat(), reply: fc.boolean(), root: fc.integer({ min: 0, max: 15 }), ask: fc.nat(9) }),
          { minLength: 1, maxLength: 80 },
        ),
        fc.option(fc.nat(), { nil: undefined }),
        (adds, repeat) => {
          const tree = new TreeIndex();
          const ref = new Reference();
          const ids: string[] = [];
          const agree = (id: string): void => {
            expect(tree.childrenOf(id)).toEqual(ref.childrenOf(id));
            expect(tree.isLeaf(id)).toBe(ref.childrenOf(id).length === 0);
            expect(tree.newestLeafUnder(id)).toBe(ref.newestLeafUnder(id));
            expect(tree.get(id)).toBe(ref.byId.get(id));
            expect(tree.has(id)).toBe(true);
          };
          for (const [i, { pick, reply, root, ask }] of adds.entries()) {
            const repeated = repeat !== undefined && i === adds.length - 1 && ids.length > 0;
            // tole's own ids (kept out of the map) and others (kept in it), mixed.
            const id = repeated ? ids[repeat % ids.length]! : pick % 3 === 0 ? `e${i}` : `e_${i + 1}`;
            const parent = ids.length === 0 || root === 0 ? null : reply ? ids.at(-1)! : ids[pick % ids.length]!;
            // A repeated id comes back as a root: a parent could close a loop.
            const made = entry(id, repeated ? null : parent);
            tree.add(made);
            ref.add(made);
            if (!repeated) ids.push(id);
            // Asked in between (the screen asks about the head): a listed reply stays listed.
            if (ask < 3) agree(ids[pick % ids.length]!);
          }
          for (const id of ids) agree(id);
          expect(tree.roots()).toEqual(ref.childrenOf(null));
          expect(tree.size).toBe(ref.byId.size);
          expect([...tree.all()]).toEqual([...ref.byId.values()]);
          for (const id of ids) expect(tree.siblingsOf(id)).toEqual(ref.childrenOf(ref.byId.get(id)!.parentId));
          expect(tree.has('missing')).toBe(false);
        },
      ),
    );
  });

  it('of a 100,000-entry chain makes no list of children for each reply', () => {
    const set = vi.spyOn(Map.prototype, 'set');
    const tree = new TreeIndex();
    for (let i = 0; i < 100_000; i++) tree.addNew(entry(`e${i}`, i === 0 ? null : `e${i - 1}`));
    // One map write an entry (its place), not two (its place and its parent's list).
    expect(set.mock.calls.length).toBeLessThan(100_100);
    set.mockRestore();
    expect(tree.childrenOf('e500')).toEqual(['e501']);
    expect(tree.newestLeafUnder('e0')).toBe('e99999');
    expect(tree.isLeaf('e99999')).toBe(true);
    tree.add(entry('e100000', 'e500'));
    expect(tree.childrenOf('e500')).toEqual(['e501', 'e100000']);
  });

  it("of a 100,000-entry chain of tole's own ids writes no map at all", () => {
    const set = vi.spyOn(Map.prototype, 'set');
    const tree = new TreeIndex();
    for (let i = 1; i <= 100_000; i++) tree.addNew(entry(`e_${i}`, i === 1 ? null : `e_${i - 1}`));
    // Their places are kept in a typed array by number (a map write each before).
    expect(set.mock.calls.length).toBeLessThan(100);
    set.mockRestore();
    expect(tree.size).toBe(100_000);
    expect(tree.get('e_777')!.parentId).toBe('e_776');
    expect(tree.has('e_100001')).toBe(false);
    expect(tree.has('e_0777')).toBe(false);
    expect(tree.addNew(entry('e_500', null))).toBe(false);
    expect(tree.get('e_500')!.parentId).toBe(null);
    expect(tree.pathTo('e_3').map((e) => e.id)).toEqual(['e_1', 'e_2', 'e_3']);
  });
});
