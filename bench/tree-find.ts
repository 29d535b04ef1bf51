/**
 * Find in the tree (`/`): the search work of one keystroke in a 100,000-entry session (prompts
 * and answers of ~300 characters), beside a same-run baseline that lower-cases every row's
 * preview on each keystroke. Measured: typing "stripes" a key at a time (each key narrows the
 * last matches), a backspace (a query that does not extend the last one: every row again), and
 * the first keystroke after `/` (the lower-case previews are worked out then, once). This is the
 * search alone; the frame that follows draws only the tree's visible rows.
 * Run alone with `node --import tsx bench/tree-find.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { AnyEntry } from '../src/core/tree/entry-types';
import { entryGlyph } from '../src/tui/entry-glyph';
import { TreeFinder } from '../src/tui/tree-find';
import type { TreeRow, TreeRows } from '../src/tui/tree-rows';
import { formatRows, type Row } from './storage';

const ENTRIES = 100_000;
const ROUNDS = 7;
const WORDS = [
  'append',
  'replay',
  'storage',
  'lock',
  'fsync',
  'branch',
  'tree',
  'cursor',
  'session',
  'commit',
  'torn',
  'tail',
];

function session(): { rows: TreeRows; entries: Map<string, AnyEntry> } {
  const entries = new Map<string, AnyEntry>();
  const rows: TreeRow[] = [];
  let parentId: string | null = null;
  for (let i = 0; i < ENTRIES; i++) {
    const id = `e_${i + 1}`;
    const words: string[] = [];
    for (let w = 0; w < 40; w++) words.push(WORDS[(i * 7 + w * 13) % WORDS.length]!);
    // One entry in a thousand speaks of stripes.
    const text = `${i % 1000 === 0 ? 'Stripes ' : ''}${words.join(' ')}`;
    const entry = (
      i % 2 === 0
        ? { id, parentId, seq: i, timestamp: i, type: 'user', payload: { text } }
        : {
            id,
            parentId,
            seq: i,
            timestamp: i,
            type: 'assistant',
            payload: { text, toolCalls: [], model: 'm', finishReason: 'stop' },
          }
    ) as AnyEntry;
    entries.set(id, entry);
    rows.push({ id, depth: 0, branchStart: false, siblingIndex: 1, siblingCount: 1 });
    parentId = id;
  }
  const index = new Map(rows.map((r, i) => [r.id, i]));
  return { rows: { rows, indexOf: { get: (id) => index.get(id) } }, entries };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The same search done the plain way: every row's preview lower-cased on each keystroke. */
function naive(rows: TreeRows, entries: Map<string, AnyEntry>, query: string): number {
  const needle = query.toLowerCase();
  let found = 0;
  for (const row of rows.rows) if (entryGlyph(entries.get(row.id)!).text.toLowerCase().includes(needle)) found++;
  return found;
}

export async function runTreeFindBench(): Promise<Row[]> {
  const { rows, entries } = session();
  const labels = new Map<string, string>();
  const query = 'stripes';
  const first: number[] = [];
  const typed: number[] = [];
  const back: number[] = [];
  const plain: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh finder and fresh entries' previews: the first key pays for the lower-casing once.
    const fresh = new Map([...entries].map(([id, e]) => [id, { ...e } as AnyEntry]));
    const finder = new TreeFinder((id) => fresh.get(id));
    let t = performance.now();
    finder.search(rows, labels, query[0]!);
    first.push(performance.now() - t);
    for (let n = 2; n <= query.length; n++) {
      t = performance.now();
      const found = finder.search(rows, labels, query.slice(0, n));
      typed.push(performance.now() - t);
      if (n === query.length && found?.indexes.length !== ENTRIES / 1000)
        throw new Error(`expected ${ENTRIES / 1000} matches, found ${found?.indexes.length}`);
    }
    t = performance.now();
    finder.search(rows, labels, query.slice(0, -1));
    back.push(performance.now() - t);
    t = performance.now();
    naive(rows, fresh, query.slice(0, -1));
    plain.push(performance.now() - t);
  }
  const base = median(plain);
  const k = ENTRIES.toLocaleString('en');
  return [
    {
      name: `find keystroke narrowing the last query, ${k} entries (baseline: lower-case every preview per key)`,
      tole: median(typed),
      baseline: base,
      unit: 'ms',
      ratio: median(typed) / base,
      target: '< 16 ms',
    },
    {
      name: `find keystroke after a backspace (every row again), ${k} entries`,
      tole: median(back),
      baseline: base,
      unit: 'ms',
      ratio: median(back) / base,
      target: '< 16 ms',
    },
    {
      name: `first find keystroke (previews lower-cased once), ${k} entries`,
      tole: median(first),
      baseline: base,
      unit: 'ms',
      ratio: median(first) / base,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${formatRows(await runTreeFindBench())}\n`);
}
