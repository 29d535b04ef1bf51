import type { AnyEntry } from '../core/tree/entry-types';
import { entryGlyph } from './entry-glyph';
import type { TreeRows } from './tree-rows';

/** What `/` in the tree found: the rows whose text holds the query, in reading order. */
export interface TreeMatches {
  readonly query: string;
  /** Row indexes into `rows`, ascending. */
  readonly indexes: readonly number[];
  readonly ids: ReadonlySet<string>;
  readonly rows: TreeRows;
}

/** Longer previews are searched up to here (the tree shows no more of a row). */
const MAX_SEARCHED = 1000;

/** Entries never change: each one's searchable text (the tree row's preview, lower case) is worked out once. */
const searchable = new WeakMap<AnyEntry, string>();

function textOf(entry: AnyEntry): string {
  let text = searchable.get(entry);
  if (text === undefined) {
    text = entryGlyph(entry).text.slice(0, MAX_SEARCHED).toLowerCase();
    searchable.set(entry, text);
  }
  return text;
}

/**
 * Finds tree rows by text: a user prompt, an answer, a tool and its subject, a label. A keystroke
 * that adds to the query only looks again at the rows that matched before; the texts are lower
 * case already, so a keystroke in a 100,000-entry session is one `includes` per row at most.
 */
export class TreeFinder {
  private last: TreeMatches | null = null;
  /** The rows' texts in row order, for the rows they were made for: a search is one tight loop over them. */
  private texts: { rows: TreeRows; texts: string[] } | null = null;
  private lastLabels: ReadonlyMap<string, string> | null = null;

  constructor(private readonly entry: (id: string) => AnyEntry | undefined) {}

  search(rows: TreeRows, labels: ReadonlyMap<string, string>, query: string): TreeMatches | null {
    const needle = query.toLowerCase();
    if (needle === '') return null;
    const last = this.last;
    if (last && last.rows === rows && this.lastLabels === labels && last.query === needle) return last;
    // Narrowing (the query grew at its end) looks only at the rows that matched before.
    const narrowing =
      last !== null && last.rows === rows && this.lastLabels === labels && needle.startsWith(last.query);
    const indexes: number[] = [];
    const ids = new Set<string>();
    const texts = this.textsOf(rows);
    const labelled = labels.size > 0;
    const test = (i: number): void => {
      const row = rows.rows[i]!;
      if (texts[i]!.includes(needle) || (labelled && labels.get(row.id)?.toLowerCase().includes(needle))) {
        indexes.push(i);
        ids.add(row.id);
      }
    };
    if (narrowing) for (const i of last.indexes) test(i);
    else for (let i = 0; i < rows.rows.length; i++) test(i);
    this.last = { query: needle, indexes, ids, rows };
    this.lastLabels = labels;
    return this.last;
  }

  private textsOf(rows: TreeRows): string[] {
    if (this.texts?.rows === rows) return this.texts.texts;
    const texts = rows.rows.map((row) => {
      const entry = this.entry(row.id);
      return entry ? textOf(entry) : '';
    });
    this.texts = { rows, texts };
    return texts;
  }
}

/** The match to move to from row `from`: the next one after it (or before it), wrapping around; null when none. */
export function nextMatch(
  matches: TreeMatches | null,
  from: number,
  direction: -1 | 1,
  inclusive = false,
): number | null {
  if (!matches || matches.indexes.length === 0) return null;
  const list = matches.indexes;
  if (direction === 1) {
    for (const i of list) if (i > from || (inclusive && i === from)) return i;
    return list[0]!;
  }
  for (let k = list.length - 1; k >= 0; k--) if (list[k]! < from || (inclusive && list[k] === from)) return list[k]!;
  return list[list.length - 1]!;
}
