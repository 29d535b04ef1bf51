import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryNumber, IdPlaces } from '../../../src/core/tree/id-places';
import { fcRuns } from '../../support/fc-runs';

/** Ids of every kind: tole's own (`e_<n>`), near misses, numbers far out, and any string. */
const anId: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 3000 }).map((n) => `e_${n}`),
  fc.integer({ min: 0, max: 2 ** 40 }).map((n) => `e_${n}`),
  fc.constantFrom(
    'e_',
    'e_0',
    'e_01',
    'e_+1',
    'e_1.0',
    'e_1e3',
    'e_ 1',
    'E_1',
    'u_1',
    'e1',
    'e_1073741823',
    'e_1073741824',
  ),
  fc.string({ unit: 'binary', maxLength: 14 }),
);

describe('the places of entry ids', () => {
  it('answer as a map of every id would, for any ids added in any order, repeats included', () => {
    fc.assert(
      fc.property(fc.array(anId, { maxLength: 200 }), fc.array(anId, { maxLength: 40 }), (added, asked) => {
        const places = new IdPlaces();
        const reference = new Map<string, number>();
        for (const [place, id] of added.entries()) {
          const fresh = !reference.has(id);
          expect(places.add(id, place)).toBe(fresh);
          if (fresh) reference.set(id, place);
          expect(places.size).toBe(reference.size);
        }
        for (const id of [...added, ...asked]) {
          expect(places.get(id)).toBe(reference.get(id));
          expect(places.has(id)).toBe(reference.has(id));
        }
      }),
      { numRuns: fcRuns() },
    );
  });

  it("reads the number of tole's own ids as the store's id counter does, and no other id", () => {
    fc.assert(
      fc.property(anId, (id) => {
        const n = entryNumber(id);
        const canonical = /^e_[1-9][0-9]*$/.test(id) && Number(id.slice(2)) <= 0x3fffffff;
        expect(n >= 0).toBe(canonical);
        if (canonical) expect(n).toBe(Number(id.slice(2)));
      }),
      { numRuns: fcRuns() },
    );
  });

  it('keeps a few ids with numbers far out in the map, not in a huge array', () => {
    const places = new IdPlaces();
    expect(places.add('e_1000000000', 0)).toBe(true);
    expect(places.add('e_1', 1)).toBe(true);
    expect((places as unknown as { byNumber: Int32Array }).byNumber.length).toBeLessThan(1 << 17);
    expect(places.get('e_1000000000')).toBe(0);
    expect(places.add('e_1000000000', 2)).toBe(false);
  });
});
