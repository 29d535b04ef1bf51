import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextView } from '../../../src/core/session/context';
import type { AnyEntry } from '../../../src/core/tree/entry-types';
import { lazyList, wholeList } from '../../../src/core/tree/lazy-list';
import { TreeIndex } from '../../../src/core/tree/tree-index';
import { fcRuns } from '../../support/fc-runs';

const entry = (id: string, parentId: string | null, seq: number, type = 'user'): AnyEntry =>
  ({ kind: 'entry', seq, timestamp: seq, id, parentId, type, payload: { text: id } }) as unknown as AnyEntry;
const TYPES = ['user', 'assistant', 'approval', 'tool_intent'] as const;

/** A tree as a list of entries (each parent before its child), with tole's ids and others mixed. */
const aTree = fc
  .array(
    fc.record({
      pick: fc.nat(),
      reply: fc.boolean(),
      root: fc.integer({ min: 0, max: 12 }),
      own: fc.boolean(),
      type: fc.constantFrom(...TYPES),
    }),
    {
      minLength: 1,
      maxLength: 60,
    },
  )
  .map((adds) => {
    const entries: AnyEntry[] = [];
    for (const [i, { pick, reply, root, own, type }] of adds.entries()) {
      const parent =
        entries.length === 0 || root === 0 ? null : reply ? entries.at(-1)!.id : entries[pick % entries.length]!.id;
      entries.push(entry(own ? `e_${i + 1}` : `x${i}`, parent, i + 1, type));
    }
    return entries;
  });

/** The same entries, deferred: ids and parent places, built by `make` (counted) when read. */
function deferredTree(entries: readonly AnyEntry[]): { tree: TreeIndex; made: number[] } {
  const ids = entries.map((e) => e.id);
  const place = new Map(ids.map((id, i) => [id, i]));
  const parentAt = Int32Array.from(entries, (e) => (e.parentId === null ? -1 : place.get(e.parentId)!));
  const made: number[] = [];
  const tree = new TreeIndex();
  const ok = tree.addDeferred({
    ids,
    parentAt,
    typeAt: (at) => entries[at]!.type,
    make: (at) => {
      made.push(at);
      return { ...entries[at]! };
    },
  });
  expect(ok).toBe(true);
  return { tree, made };
}

describe('entries added deferred', () => {
  it('answer as the same entries added one by one, and are built only when read', () => {
    fc.assert(
      fc.property(aTree, fc.array(fc.nat(), { maxLength: 12 }), (entries, asks) => {
        const added = new TreeIndex();
        for (const e of entries) expect(added.addNew(e)).toBe(true);
        const { tree, made } = deferredTree(entries);
        const ids = entries.map((e) => e.id);
        // The tree's shape, asked first: nothing is built for it.
        for (const [i, id] of ids.entries()) {
          expect(tree.childrenOf(id)).toEqual(added.childrenOf(id));
          expect(tree.isLeaf(id)).toBe(added.isLeaf(id));
          expect(tree.newestLeafUnder(id)).toBe(added.newestLeafUnder(id));
          expect(tree.siblingsOf(id)).toEqual(added.siblingsOf(id));
          expect(tree.depthOf(id)).toBe(added.depthOf(id));
          expect(tree.has(id)).toBe(true);
          expect(tree.placeOf(id)).toBe(added.placeOf(id));
          expect(tree.onlyChildAfter(id, i)).toBe(added.onlyChildAfter(id, i));
          expect(tree.idAt(i)).toBe(added.idAt(i));
        }
        expect(tree.roots()).toEqual(added.roots());
        expect(tree.size).toBe(added.size);
        expect(tree.has('missing')).toBe(false);
        expect(made).toEqual([]);
        // A path is built item by item as it is read.
        const leaf = ids[(asks[0] ?? 0) % ids.length]!;
        const path = tree.pathTo(leaf);
        const reference = added.pathTo(leaf);
        expect(path.length).toBe(reference.length);
        expect(made).toEqual([]);
        expect(path.at(-1)).toEqual(reference.at(-1));
        expect(made).toEqual([ids.indexOf(leaf)]);
        for (const ask of asks) {
          const id = ids[ask % ids.length]!;
          expect(tree.get(id)).toEqual(added.get(id));
          expect(tree.get(id)).toBe(tree.get(id));
        }
        expect(path).toEqual(reference);
        expect(tree.pathTo(ids.at(-1)!)).toEqual(added.pathTo(ids.at(-1)!));
        // Each entry is built once, and everything (all()) is built then.
        expect([...tree.all()]).toEqual([...added.all()]);
        expect(new Set(made).size).toBe(made.length);
        expect(made.length).toBe(ids.length);
        // Entries added after the deferred ones behave as before.
        const next = entry('e_9999', ids[(asks[1] ?? 0) % ids.length]!, 9999);
        tree.add(next);
        added.add(next);
        expect(tree.pathTo('e_9999')).toEqual(added.pathTo('e_9999'));
        expect(tree.childrenOf(next.parentId)).toEqual(added.childrenOf(next.parentId));
      }),
      { numRuns: fcRuns() },
    );
  });

  it('give the model the same context along a path built as it is read', () => {
    const entries: AnyEntry[] = [];
    for (let i = 1; i <= 40; i++) {
      const type = i % 2 ? 'user' : 'assistant';
      const payload =
        type === 'user' ? { text: `q${i}` } : { text: `a${i}`, toolCalls: [], model: 'm', finishReason: 'stop' };
      entries.push({ ...entry(`e_${i}`, i === 1 ? null : `e_${i - 1}`, i), type, payload } as unknown as AnyEntry);
    }
    const added = new TreeIndex();
    for (const e of entries) added.add(e);
    const { tree, made } = deferredTree(entries);
    const path = tree.pathTo('e_40');
    expect(made).toEqual([]);
    expect(contextView(path)).toEqual(contextView(added.pathTo('e_40')));
    expect(made.length).toBe(40);
  });

  it("give a path's entries of some types, building only those", () => {
    fc.assert(
      fc.property(aTree, fc.nat(), fc.subarray([...TYPES]), (entries, pick, wanted) => {
        const added = new TreeIndex();
        for (const e of entries) added.add(e);
        const { tree, made } = deferredTree(entries);
        const leaf = entries[pick % entries.length]!.id;
        const types = new Set<string>(wanted);
        const expected = added.pathTo(leaf).filter((e) => types.has(e.type));
        expect(tree.pathEntriesOfTypes(leaf, types)).toEqual(expected);
        expect(added.pathEntriesOfTypes(leaf, types)).toEqual(expected);
        expect(made.map((at) => entries[at]!.type).every((type) => types.has(type))).toBe(true);
        expect(made.length).toBe(expected.length);
      }),
      { numRuns: fcRuns() },
    );
  });

  it('refuse a repeated id or a parent that does not come first', () => {
    const make = (): AnyEntry => entry('never', null, 1);
    const typeAt = (): string => 'user';
    expect(new TreeIndex().addDeferred({ ids: ['a', 'b', 'a'], parentAt: Int32Array.of(-1, 0, 1), typeAt, make })).toBe(
      false,
    );
    expect(new TreeIndex().addDeferred({ ids: ['a', 'b'], parentAt: Int32Array.of(1, -1), typeAt, make })).toBe(false);
    const tree = new TreeIndex();
    tree.add(entry('a', null, 1));
    expect(() => tree.addDeferred({ ids: ['b'], parentAt: Int32Array.of(-1), typeAt, make })).toThrow();
  });
});

describe('a list made when read', () => {
  it('reads as the plain array it stands for, and makes each item once, only when looked at', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 30 }), fc.nat(), (items, pick) => {
        const made: number[] = [];
        const list = lazyList(items.length, (i) => {
          made.push(i);
          return { value: items[i] };
        });
        const plain = items.map((value) => ({ value }));
        expect(Array.isArray(list)).toBe(true);
        expect(list.length).toBe(items.length);
        expect(made).toEqual([]);
        if (items.length > 0) {
          const i = pick % items.length;
          expect(list[i]).toEqual(plain[i]);
          expect(list[i]).toBe(list[i]);
          expect(made).toEqual([i]);
          expect(list.at(-1)).toEqual(plain.at(-1));
          expect(list.slice(i)).toEqual(plain.slice(i));
          expect(list.slice(-i, i)).toEqual(plain.slice(-i, i));
          expect(list.slice(1, -1)).toEqual(plain.slice(1, -1));
          expect(made.length).toBeLessThanOrEqual(items.length);
        }
        expect(list.slice()).toEqual(plain);
        expect([].concat(list as never[])).toEqual(plain);
        expect(list.findIndex((x) => x.value === items[pick % (items.length || 1)])).toBe(
          plain.findIndex((x) => x.value === items[pick % (items.length || 1)]),
        );
        expect(list[items.length]).toBeUndefined();
        expect(list.map((x) => x.value)).toEqual(items);
        expect([...list]).toEqual(plain);
        expect(list.concat([{ value: 1 }])).toEqual([...plain, { value: 1 }]);
        expect(JSON.stringify(list)).toBe(JSON.stringify(plain));
        expect(Object.keys(list)).toEqual(Object.keys(plain));
        expect(list).toEqual(plain);
        // Read whole: a plain array of the same items, each made once.
        const whole = wholeList(list);
        expect(whole).toEqual(plain);
        for (const [k, item] of whole.entries()) expect(item).toBe(list[k]);
        expect(wholeList(plain)).toBe(plain);
        expect(new Set(made).size).toBe(made.length);
        expect(made.length).toBe(items.length);
        expect(() => {
          (list as unknown as unknown[])[0] = 1;
        }).toThrow();
      }),
      { numRuns: fcRuns() },
    );
  });
});
