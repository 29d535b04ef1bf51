/**
 * Find in the tree (`/`): the search work of one keystroke in a 100,000-entry session (prompts
 * and answers of ~300 characters). Measured: typing "stripes" a key at a time (each key narrows
 * the last matches); a backspace after typing (the shorter query was searched a key ago); a
 * backspace after a paste (the shorter query was never searched, so every entry is looked at),
 * once for a rare query and once for one that every entry holds; and the first keystroke after
 * `/`, which works out the entries' texts, unless the field had time to prepare them (it starts
 * when the field opens, in slices between frames; a row shows the first key after that). Between keys the finder fills in its trigram filters
 * (a person's pause between keys; its time is shown on its own row). The baseline of a keystroke
 * is what the finder did before on a key that did not narrow: one `includes` over every row's
 * kept lower-case text; of the first key, lower-casing every row's preview. This is the search
 * alone; the frame that follows draws only the tree's visible rows. Figures are CPU time (the
 * machine is shared: wall time there is mostly waiting for a core).
 * Run alone with `node --import tsx bench/tree-find.ts`.
 */
import { pathToFileURL } from 'node:url';
import type { AnyEntry } from '../src/core/tree/entry-types';
import { entryGlyph } from '../src/tui/tree/entry-glyph';
import { TreeFinder } from '../src/tui/tree/tree-find';
import type { TreeRow, TreeRows } from '../src/tui/tree/tree-rows';
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

/** The first keystroke done the plain way: every row's preview lower-cased. */
function naive(rows: TreeRows, entries: Map<string, AnyEntry>, query: string): number {
  const needle = query.toLowerCase();
  let found = 0;
  for (const row of rows.rows) if (entryGlyph(entries.get(row.id)!).text.toLowerCase().includes(needle)) found++;
  return found;
}

/** A keystroke done by scanning every row's kept lower-case text (what the finder did on every key that did not narrow). */
function scanAll(texts: readonly string[], query: string): number {
  let found = 0;
  for (const text of texts) if (text.includes(query)) found++;
  return found;
}

/** Runs `run`, adding the CPU time it took (user and system, ms) to `into`. */
function timed<T>(into: number[], run: () => T): T {
  const start = process.cpuUsage();
  const result = run();
  const used = process.cpuUsage(start);
  into.push((used.user + used.system) / 1000);
  return result;
}

export async function runTreeFindBench(): Promise<Row[]> {
  const { rows, entries } = session();
  const labels = new Map<string, string>();
  const texts = rows.rows.map((row) => entryGlyph(entries.get(row.id)!).text.slice(0, 1000).toLowerCase());
  const query = 'stripes';
  const everywhere = 'lock fsync';
  const t = {
    first: [] as number[],
    fill: [] as number[],
    preparedFirst: [] as number[],
    typed: [] as number[],
    worst: [] as number[],
    back: [] as number[],
    rare: [] as number[],
    common: [] as number[],
    plainFirst: [] as number[],
    plainScan: [] as number[],
    plainRare: [] as number[],
    plainCommon: [] as number[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh finder and fresh entries: the first key pays for working out the texts.
    const fresh = new Map([...entries].map(([id, e]) => [id, { ...e } as AnyEntry]));
    const finder = new TreeFinder((id) => fresh.get(id));
    timed(t.first, () => finder.search(rows, labels, query[0]!));
    const fill = process.cpuUsage();
    await finder.idle();
    const filled = process.cpuUsage(fill);
    t.fill.push((filled.user + filled.system) / 1000);
    timed(t.plainFirst, () => naive(rows, fresh, query[0]!));
    const keys: number[] = [];
    for (let n = 2; n <= query.length; n++) {
      const found = timed(keys, () => finder.search(rows, labels, query.slice(0, n)));
      if (n === query.length && found?.indexes.length !== ENTRIES / 1000)
        throw new Error(`expected ${ENTRIES / 1000} matches, found ${found?.indexes.length}`);
      timed(t.plainScan, () => scanAll(texts, query.slice(0, n)));
    }
    t.typed.push(...keys);
    t.worst.push(Math.max(...keys));
    // The field opened and prepared the texts while it waited for the first key.
    const again = new Map([...entries].map(([id, e]) => [id, { ...e } as AnyEntry]));
    const prepared = new TreeFinder((id) => again.get(id));
    prepared.prepare(rows);
    await prepared.idle();
    timed(t.preparedFirst, () => prepared.search(rows, labels, query[0]!));
    // Backspace after typing: the shorter query was searched a key ago.
    timed(t.back, () => finder.search(rows, labels, query.slice(0, -1)));
    // Backspace after a paste: the shorter query was never searched, so every text is looked at.
    const pasted = new TreeFinder((id) => fresh.get(id));
    pasted.search(rows, labels, 'zq');
    await pasted.idle();
    pasted.search(rows, labels, query);
    const rare = timed(t.rare, () => pasted.search(rows, labels, query.slice(0, -1)));
    if (rare?.indexes.length !== ENTRIES / 1000) throw new Error(`expected ${ENTRIES / 1000} matches`);
    timed(t.plainRare, () => scanAll(texts, query.slice(0, -1)));
    pasted.search(rows, labels, everywhere);
    const common = timed(t.common, () => pasted.search(rows, labels, everywhere.slice(0, -1)));
    if (common?.indexes.length !== ENTRIES) throw new Error(`expected ${ENTRIES} matches`);
    timed(t.plainCommon, () => scanAll(texts, everywhere.slice(0, -1)));
  }
  const k = ENTRIES.toLocaleString('en');
  const row = (name: string, tole: number[], baseline: number[], target?: string): Row => ({
    name,
    tole: median(tole),
    baseline: median(baseline),
    unit: 'ms CPU',
    ratio: median(tole) / median(baseline),
    ...(target ? { target } : {}),
  });
  return [
    row(
      `find keystroke typing "${query}" (each key narrows), ${k} entries (baseline: includes over every row's kept lower-case text)`,
      t.typed,
      t.plainScan,
      '< 16 ms',
    ),
    row(
      `find keystroke typing "${query}", the slowest key of each round (the second: no kept query narrows it), ${k} entries`,
      t.worst,
      t.plainScan,
      '< 16 ms',
    ),
    row(
      `find backspace after typing (the shorter query was searched a key ago), ${k} entries`,
      t.back,
      t.plainRare,
      '< 16 ms',
    ),
    row(
      `find backspace after pasting "${query}" (never searched: every text is scanned), ${k} entries`,
      t.rare,
      t.plainRare,
      '< 16 ms',
    ),
    row(
      `find backspace after pasting "${everywhere}", which every entry holds (every row marked), ${k} entries`,
      t.common,
      t.plainCommon,
      '< 16 ms',
    ),
    row(
      `first find keystroke (texts worked out), ${k} entries (baseline: lower-case every preview)`,
      t.first,
      t.plainFirst,
      '≤ 200 ms',
    ),
    row(
      `first find keystroke after the field prepared the texts while it waited, ${k} entries (baseline: lower-case every preview)`,
      t.preparedFirst,
      t.plainFirst,
      '< 16 ms',
    ),
    row(
      `trigram filters filled in between keys after the first, ${k} entries (in 2,000-entry slices; baseline: the first keystroke)`,
      t.fill,
      t.first,
    ),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${formatRows(await runTreeFindBench())}\n`);
}
