import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payloadIsUnparsed, ReplayedEntry } from '../../src/core/storage/replayed-entry';
import type { AnyEntry } from '../../src/core/tree/entry-types';
import { entryGlyph } from '../../src/tui/tree/entry-glyph';
import { nextMatch, TreeFinder, type TreeMatches } from '../../src/tui/tree/tree-find';
import type { TreeRow, TreeRows } from '../../src/tui/tree/tree-rows';
import { fcRuns } from '../support/fc-runs';

/**
 * The finder keeps matches per query, narrows from kept queries, looks only at new entries when
 * the rows grow, and rules texts out with trigram filters filled in between keys. Whatever path a
 * keystroke takes, its matches must be exactly the rows a plain scan finds: every row whose
 * preview (lower case) or label holds the query.
 */

const LETTERS = ['a', 'b', 'c', 'd', 'e', 'f', 'A', 'B', ' ', 'ab', 'bc', 'é', 'İ', '\n'];

function entryOf(id: string, text: string, n: number): AnyEntry {
  return (
    n % 3 === 0
      ? { id, parentId: null, seq: n, timestamp: n, type: 'user', payload: { text } }
      : n % 3 === 1
        ? {
            id,
            parentId: null,
            seq: n,
            timestamp: n,
            type: 'assistant',
            payload: { text, toolCalls: [], model: 'm', finishReason: 'stop' },
          }
        : {
            id,
            parentId: null,
            seq: n,
            timestamp: n,
            type: 'tool_intent',
            payload: { tool: 'read_file', subject: text, callId: `c${n}`, input: {} },
          }
  ) as AnyEntry;
}

/** Entries made one by one (`e0`, `e1`, ...), in the order `add` is called. */
function growingEntries() {
  const entries = new Map<string, AnyEntry>();
  const ids: string[] = [];
  const add = (text: string): void => {
    const id = `e${ids.length}`;
    entries.set(id, entryOf(id, text, ids.length));
    ids.push(id);
  };
  return { entries, ids, add };
}

function rowsOf(ids: readonly string[]): TreeRows {
  const rows: TreeRow[] = ids.map((id) => ({ id, depth: 0, branchStart: false, siblingIndex: 1, siblingCount: 1 }));
  const index = new Map(rows.map((r, i) => [r.id, i]));
  return { rows, indexOf: { get: (id) => index.get(id) } };
}

function plainScan(
  rows: TreeRows,
  entries: ReadonlyMap<string, AnyEntry>,
  labels: ReadonlyMap<string, string>,
  query: string,
): number[] {
  const needle = query.toLowerCase();
  const out: number[] = [];
  rows.rows.forEach((row, i) => {
    const text = entryGlyph(entries.get(row.id)!).text.slice(0, 1000).toLowerCase();
    if (text.includes(needle) || labels.get(row.id)?.toLowerCase().includes(needle)) out.push(i);
  });
  return out;
}

function expectSame(found: TreeMatches | null, rows: TreeRows, expected: number[]): void {
  expect(found).not.toBeNull();
  expect(found!.indexes).toEqual(expected);
  expect(found!.ids.size).toBe(expected.length);
  expect([...found!.ids]).toEqual(expected.map((i) => rows.rows[i]!.id));
  const marked = new Set(expected);
  expect(rows.rows.map((row) => found!.ids.has(row.id))).toEqual(rows.rows.map((_, i) => marked.has(i)));
  expect(found!.ids.has('no-such-entry')).toBe(false);
}

const text = fc.array(fc.constantFrom(...LETTERS), { maxLength: 24 }).map((parts) => parts.join(''));
const query = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'A', ' ', 'é', 'i̇', 'İ'), {
  minLength: 1,
  maxLength: 5,
});

type Step =
  | { readonly kind: 'type'; readonly query: string[] }
  | { readonly kind: 'backspace' }
  | { readonly kind: 'paste'; readonly query: string[] }
  | { readonly kind: 'delete-inside'; readonly at: number }
  | { readonly kind: 'append'; readonly texts: string[]; readonly at: number }
  | { readonly kind: 'label'; readonly entry: number; readonly label: string }
  | { readonly kind: 'idle' }
  | { readonly kind: 'prepare' }
  | { readonly kind: 'some-rows'; readonly from: number; readonly to: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('type' as const), query }),
  fc.constant({ kind: 'backspace' as const }),
  fc.record({ kind: fc.constant('paste' as const), query }),
  fc.record({ kind: fc.constant('delete-inside' as const), at: fc.nat(6) }),
  fc.record({
    kind: fc.constant('append' as const),
    texts: fc.array(text, { minLength: 1, maxLength: 4 }),
    at: fc.nat(40),
  }),
  fc.record({ kind: fc.constant('label' as const), entry: fc.nat(40), label: text }),
  fc.constant({ kind: 'idle' as const }),
  fc.constant({ kind: 'prepare' as const }),
  // Rows of part of the entries (another view of the tree): a prefix keeps rows and ordinals alike.
  fc.record({ kind: fc.constant('some-rows' as const), from: fc.constantFrom(0, 0, 1, 3), to: fc.nat(60) }),
);

describe('find in the tree matches what a plain scan of every row finds', () => {
  it('after any run of typing, backspaces, pastes, edits inside the query, new entries and labels', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 60 }),
        fc.array(step, { maxLength: 25 }),
        async (initial, steps) => {
          const entries = new Map<string, AnyEntry>();
          const order: string[] = [];
          const add = (t: string, at: number): void => {
            const id = `e${entries.size}`;
            entries.set(id, entryOf(id, t, entries.size));
            order.splice(Math.min(at, order.length), 0, id);
          };
          initial.forEach((t, i) => add(t, i % 2 === 0 ? order.length : 0));
          let rows = rowsOf(order);
          let labels: ReadonlyMap<string, string> = new Map();
          const finder = new TreeFinder((id) => entries.get(id));
          let typed: string[] = [];
          // Matches handed out earlier (the screen may still hold them) never change afterwards.
          const handedOut: { readonly found: TreeMatches; readonly indexes: number[] }[] = [];
          for (const s of steps) {
            if (s.kind === 'type') typed = [...typed, ...s.query];
            else if (s.kind === 'backspace') typed = typed.slice(0, -1);
            else if (s.kind === 'paste') typed = [...s.query];
            else if (s.kind === 'delete-inside') typed = typed.filter((_, i) => i !== s.at % Math.max(1, typed.length));
            else if (s.kind === 'append') {
              for (const t of s.texts) add(t, s.at);
              rows = rowsOf(order);
            } else if (s.kind === 'label') {
              const id = order[s.entry % order.length]!;
              labels = new Map([...labels, [id, s.label]]);
            } else if (s.kind === 'some-rows') rows = rowsOf(order.slice(s.from, Math.max(s.from + 1, s.to)));
            else if (s.kind === 'prepare') {
              // The field opened: its texts are worked out on timers, maybe after rows that came later.
              finder.prepare(rows);
              if (steps.indexOf(s) % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
            } else await finder.idle();
            const q = typed.join('');
            const found = finder.search(rows, labels, q);
            if (q === '') expect(found).toBeNull();
            else expectSame(found, rows, plainScan(rows, entries, labels, q));
            // The same search again is the same object (the screen asks on every render).
            if (q !== '') expect(finder.search(rows, labels, q)).toBe(found);
            if (found) handedOut.push({ found, indexes: [...found.indexes] });
          }
          for (const { found, indexes } of handedOut) expect(found.indexes).toEqual(indexes);
        },
      ),
      { numRuns: fcRuns() },
    );
  });

  it('rules texts out with the filters once they are filled, and still finds every match', async () => {
    const entries = new Map<string, AnyEntry>();
    const ids: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const id = `e${i}`;
      ids.push(id);
      entries.set(id, entryOf(id, i % 500 === 0 ? `the Needle number ${i}` : `hay ${i} and more hay`, i));
    }
    const rows = rowsOf(ids);
    const finder = new TreeFinder((id) => entries.get(id));
    const labels = new Map([['e7', 'a needle in a label']]);
    expectSame(finder.search(rows, labels, 'h'), rows, plainScan(rows, entries, labels, 'h'));
    await finder.idle();
    for (const q of ['needle', 'eedle number 1', 'NEEDLE', 'hay 49', 'not there at all', 'ne'])
      expectSame(finder.search(rows, labels, q), rows, plainScan(rows, entries, labels, q));
  });
  it('searches the entries added since a kept query, when narrowing from it and when it is asked again', () => {
    const { entries, ids, add } = growingEntries();
    for (let i = 0; i < 200; i++) add(i === 50 ? 'a needle here' : `hay ${i}`);
    const finder = new TreeFinder((id) => entries.get(id));
    const labels = new Map<string, string>();
    let rows = rowsOf(ids);
    expect(finder.search(rows, labels, 'need')?.indexes).toEqual([50]);
    add('another needle');
    add('hay again');
    add('needles and pins');
    rows = rowsOf([...ids].reverse());
    const expected = plainScan(rows, entries, labels, 'needl');
    expect(expected).toHaveLength(3);
    expectSame(finder.search(rows, labels, 'needl'), rows, expected);
    expectSame(finder.search(rows, labels, 'need'), rows, plainScan(rows, entries, labels, 'need'));
  });
  it('a backspace after a paste takes the matches of the pasted query as found and reads only the other entries', async () => {
    const { entries, ids, add } = growingEntries();
    for (let i = 0; i < 300; i++) add(i % 3 === 0 ? `lock fsync ${i}` : `lock fsyn ${i}`);
    const finder = new TreeFinder((id) => entries.get(id));
    const labels = new Map([['e1', 'LOCK FSYNC label']]);
    let rows = rowsOf(ids);
    finder.search(rows, labels, 'zq');
    await finder.idle();
    expectSame(finder.search(rows, labels, 'lock fsync'), rows, plainScan(rows, entries, labels, 'lock fsync'));
    add('a lock fsyn added later');
    add('nothing here');
    rows = rowsOf([...ids].reverse());
    expectSame(finder.search(rows, labels, 'lock fsyn'), rows, plainScan(rows, entries, labels, 'lock fsyn'));
    expectSame(finder.search(rows, labels, 'k fs'), rows, plainScan(rows, entries, labels, 'k fs'));
    // Every entry held the pasted query: the shorter one holds them all, and only new entries are read.
    const held = rowsOf(ids.filter((id) => entryGlyph(entries.get(id)!).text.includes('lock fsyn')));
    const all = new TreeFinder((id) => entries.get(id));
    expectSame(all.search(held, labels, 'lock fsyn'), held, plainScan(held, entries, labels, 'lock fsyn'));
    add('lock fsy only');
    add('other');
    rows = rowsOf(ids);
    expectSame(all.search(rows, labels, 'lock fsy'), rows, plainScan(rows, entries, labels, 'lock fsy'));
    expectSame(all.search(rows, labels, 'ock'), rows, plainScan(rows, entries, labels, 'ock'));
  });
  it('works out the texts ahead of the first key when the field opens (prepare), and still sees later entries', async () => {
    const { entries, ids, add } = growingEntries();
    for (let i = 0; i < 2500; i++) add(i % 100 === 0 ? `stripes ${i}` : `plain ${i}`);
    let looked = 0;
    const finder = new TreeFinder((id) => {
      looked++;
      return entries.get(id);
    });
    const first = rowsOf(ids);
    finder.prepare(first);
    finder.prepare(first);
    await finder.idle();
    expect(looked).toBe(2500);
    const labels = new Map<string, string>();
    expectSame(finder.search(first, labels, 'stripes'), first, plainScan(first, entries, labels, 'stripes'));
    expect(looked).toBe(2500);
    add('more stripes');
    const later = rowsOf([...ids].reverse());
    expectSame(finder.search(later, labels, 'stripes'), later, plainScan(later, entries, labels, 'stripes'));
    expect(looked).toBe(2501);
  });

  it('finds by the rows it is given when the field prepared other rows, a slice of them, before an entry came between', async () => {
    const entries = new Map<string, AnyEntry>();
    const ids: string[] = [];
    const add = (t: string, at = ids.length): void => {
      const id = `e${entries.size}`;
      entries.set(id, entryOf(id, t, entries.size));
      ids.splice(at, 0, id);
    };
    for (let i = 0; i < 2500; i++) add(`plain ${i}`);
    const finder = new TreeFinder((id) => entries.get(id));
    const before = rowsOf(ids);
    finder.prepare(before);
    // One slice of the preparing ran (the first rows, in order); then an entry came in the middle.
    await new Promise((resolve) => setTimeout(resolve, 0));
    add('needle here', 500);
    const after = rowsOf(ids);
    const labels = new Map<string, string>();
    expectSame(finder.search(after, labels, 'needle'), after, [500]);
    await finder.idle();
    // The rows before it do not hold the new entry: nothing there holds the needle.
    expectSame(finder.search(before, labels, 'needle'), before, []);
    expectSame(finder.search(before, labels, 'plain 2499'), before, [2499]);
    expectSame(finder.search(after, labels, 'plain 2499'), after, [2500]);
  });

  it('finds one letter or digit wherever a text holds it, once the texts are filled in, without reading them', async () => {
    const entries = new Map<string, AnyEntry>();
    const ids: string[] = [];
    const characters = [...'abcdefghijklmnopqrstuvwxyz0123456789'];
    for (const ch of characters)
      for (const t of [ch, ch.toUpperCase(), `${ch} -`, `- ${ch}`, `-${ch}-`, `é${ch}`]) {
        const id = `e${ids.length}`;
        entries.set(id, entryOf(id, t, 0));
        ids.push(id);
      }
    const rows = rowsOf(ids);
    const labels = new Map<string, string>();
    const finder = new TreeFinder((id) => entries.get(id));
    finder.search(rows, labels, '~');
    await finder.idle();
    for (const q of [...characters, 'A', 'Z', '-', 'é', ' '])
      expectSame(finder.search(rows, labels, q), rows, plainScan(rows, entries, labels, q));
  });

  it('reads the payloads of entries still in their bytes without keeping them parsed', () => {
    const entries = new Map<string, AnyEntry>();
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      const id = `e${i}`;
      const plain = entryOf(id, i % 7 === 0 ? `a Needle ${i}` : `hay ${i}`, i);
      const bytes = Buffer.from(`{"pad":1,"payload":${JSON.stringify(plain.payload)}}`);
      const start = bytes.indexOf('"payload":') + '"payload":'.length;
      const entry = new ReplayedEntry(i, i, id, null, plain.type, bytes, start, bytes.length - 1);
      entries.set(id, entry as unknown as AnyEntry);
      ids.push(id);
    }
    const rows = rowsOf(ids);
    const labels = new Map<string, string>();
    const finder = new TreeFinder((id) => entries.get(id));
    const found = finder.search(rows, labels, 'needle');
    const still = ids.filter((id) => payloadIsUnparsed(entries.get(id)!));
    expect(still).toEqual(ids);
    expectSame(found, rows, plainScan(rows, entries, labels, 'needle'));
    expect(found!.indexes).toHaveLength(43);
  });

  it('hands out matches that stay as they were when entries come and the same query is asked again', () => {
    const { entries, ids, add } = growingEntries();
    for (let i = 0; i < 100; i++) add(`torn tail ${i}`);
    const finder = new TreeFinder((id) => entries.get(id));
    const labels = new Map<string, string>();
    const first = finder.search(rowsOf(ids), labels, 't')!;
    const shorter = finder.search(rowsOf(ids), labels, 'torn tail 1')!;
    const back = finder.search(rowsOf(ids), labels, 'torn tail ')!;
    expect(first.indexes).toHaveLength(100);
    // A turn writes entries while the field is open; the screen searches its new rows.
    add('torn again');
    add('nothing');
    const rows = rowsOf(ids);
    expectSame(finder.search(rows, labels, 't'), rows, plainScan(rows, entries, labels, 't'));
    expectSame(finder.search(rows, labels, 'torn tail '), rows, plainScan(rows, entries, labels, 'torn tail '));
    expect(first.indexes).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(back.indexes).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(shorter.indexes).toHaveLength(11);
  });

  it('moves to the next or the previous match as a walk over the matches would, wrapping around', () => {
    // The walk: the first match after `from` (or before it), the row itself when inclusive, else the far end.
    const walked = (list: number[], from: number, direction: -1 | 1, inclusive: boolean): number | null => {
      if (list.length === 0) return null;
      const order = direction === 1 ? list : [...list].reverse();
      const ahead = (i: number): boolean => (direction === 1 ? i > from : i < from) || (inclusive && i === from);
      return order.find(ahead) ?? order[0]!;
    };
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(60), { maxLength: 30 }),
        fc.integer({ min: -1, max: 62 }),
        fc.constantFrom(-1 as const, 1 as const),
        fc.boolean(),
        (raw, from, direction, inclusive) => {
          const indexes = [...raw].sort((a, b) => a - b);
          const matches = { query: 'q', indexes, ids: new Set<string>(), rows: rowsOf([]) };
          expect(nextMatch(matches, from, direction, inclusive)).toBe(walked(indexes, from, direction, inclusive));
        },
      ),
      { numRuns: fcRuns() },
    );
  });
});
