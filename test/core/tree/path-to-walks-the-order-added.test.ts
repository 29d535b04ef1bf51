import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyEntry } from '../../../src/core/tree/entry-types';
import { TreeIndex } from '../../../src/core/tree/tree-index';

const entry = (id: string, parentId: string | null): AnyEntry =>
  ({ id, parentId, seq: 0, timestamp: 0, type: 'user', payload: { text: id } }) as AnyEntry;

/** The path as first written: every parent looked up by id. */
function reference(byId: ReadonlyMap<string, AnyEntry>, leafId: string | null): string[] {
  const ids: string[] = [];
  let cursor = leafId === null ? undefined : byId.get(leafId);
  while (cursor) {
    ids.push(cursor.id);
    cursor = cursor.parentId === null ? undefined : byId.get(cursor.parentId);
  }
  return ids.reverse();
}

describe('the path to an entry', () => {
  it('is the walk up by id, for any tree (replies, branches, new roots, a repeated id) and any leaf', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ pick: fc.nat(), newest: fc.boolean(), root: fc.integer({ min: 0, max: 20 }) }), {
          minLength: 1,
          maxLength: 80,
        }),
        fc.option(fc.nat(), { nil: undefined }),
        fc.nat(),
        (adds, repeat, leaf) => {
          const tree = new TreeIndex();
          const byId = new Map<string, AnyEntry>();
          const ids: string[] = [];
          for (const [i, { pick, newest, root }] of adds.entries()) {
            const id =
              repeat !== undefined && i === adds.length - 1 && ids.length > 0 ? ids[repeat % ids.length]! : `e${i}`;
            const parent = ids.length === 0 || root === 0 ? null : newest ? ids.at(-1)! : ids[pick % ids.length]!;
            // A repeated id comes back as a root: a parent could close a loop.
            const made = entry(id, id === `e${i}` ? parent : null);
            tree.add(made);
            byId.set(id, made);
            ids.push(id);
          }
          for (const id of [ids.at(-1)!, ids[leaf % ids.length]!, null, 'missing'])
            expect(tree.pathTo(id).map((e) => e.id)).toEqual(reference(byId, id));
        },
      ),
    );
  });

  it('of a 100,000-entry chain looks up only where it starts, from the newest entry or an older one', () => {
    const tree = new TreeIndex();
    for (let i = 0; i < 100_000; i++) expect(tree.addNew(entry(`e${i}`, i === 0 ? null : `e${i - 1}`))).toBe(true);
    // The index's own map of entries' places, counted where it is looked up.
    const byId = (tree as unknown as { placeById: Map<string, number> }).placeById;
    let lookups = 0;
    const get = byId.get.bind(byId);
    byId.get = (id) => {
      lookups++;
      return get(id);
    };
    const path = tree.pathTo('e99999');
    expect(path.length).toBe(100_000);
    expect(path[0]!.id).toBe('e0');
    expect(path[99_999]!.id).toBe('e99999');
    expect(lookups).toBeLessThan(10);
    // From an older entry, one look-up finds its place and the walk goes on in the order added.
    expect(tree.pathTo('e50000').map((e) => e.id)).toEqual(path.slice(0, 50_001).map((e) => e.id));
    expect(lookups).toBeLessThan(10);
  });
});
