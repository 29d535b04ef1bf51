import { payloadIsUnparsed, payloadReadOnce } from '../../core/storage/replayed-entry';
import type { AnyEntry } from '../../core/tree/entry-types';
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
/** Queries whose matches are kept, so that a backspace or a query typed again costs nothing. */
const KEPT_QUERIES = 32;
/** A query's matches are narrowed from a kept query inside it only while that one matched fewer than 1 entry in this many. */
const NARROW_BELOW = 8;

/** Bits of each entry's trigram filter (a Bloom filter of the three-letter runs of its text). */
const FILTER_WORDS = 32;
const FILTER_BITS = FILTER_WORDS * 32;

/** The filter bit of the run of three characters with codes `a`, `b`, `c`. */
function trigramBit(a: number, b: number, c: number): number {
  const h = Math.imul(a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c, 0x85ebca6b), 0xc2b2ae35);
  return (h >>> 16) & (FILTER_BITS - 1);
}

/**
 * The bit of a letter or digit in an entry's two words of characters (a-z: 0-25, 0-9: 32-41), -1
 * for any other character.
 */
function characterBit(code: number): number {
  if (code >= 97 && code <= 122) return code - 97;
  if (code >= 48 && code <= 57) return code - 48 + 32;
  return -1;
}

/** The filter words and bits a text holding `needle` must have set: word, mask, word, mask … */
function needleFilter(needle: string): Int32Array {
  const masks = new Map<number, number>();
  for (let i = 0; i + 2 < needle.length; i++) {
    const bit = trigramBit(needle.charCodeAt(i), needle.charCodeAt(i + 1), needle.charCodeAt(i + 2));
    const word = bit >>> 5;
    masks.set(word, (masks.get(word) ?? 0) | (1 << (bit & 31)));
  }
  return Int32Array.from([...masks].flat());
}

/**
 * An entry's searchable text: the tree row's preview, lower case. The entry's payload is read
 * without being kept parsed (a search reads every entry once; the preview needs only its type and payload).
 */
function searchText(entry: AnyEntry): string {
  const read = payloadIsUnparsed(entry) ? ({ type: entry.type, payload: payloadReadOnce(entry) } as AnyEntry) : entry;
  return entryGlyph(read).text.slice(0, MAX_SEARCHED).toLowerCase();
}

/** Entries whose filters are worked out in one go while the finder is idle (a few milliseconds). */
const FILTER_SLICE = 2000;
/** Entries whose texts are worked out in one go while the find field waits for its first key. */
const TEXT_SLICE = 1000;

/** Runs `work` soon, on a timer that keeps the process alive only while someone waits (`held`). */
function soon(work: () => void, held: boolean): ReturnType<typeof setTimeout> {
  const timer = setTimeout(work, 0);
  if (!held) timer.unref?.();
  return timer;
}

/**
 * The searchable texts of the entries, in the order they were first seen: entries never change,
 * so a text is worked out once and an entry keeps its ordinal. Beside each text, a trigram filter
 * (1,024 bits) that rules out most texts without reading them: a text holding the needle has
 * every three-letter run of it. The filters are filled in after the texts, in slices, while the
 * finder waits for the next key; a text without one yet is read.
 */
class EntryTexts {
  readonly ids: string[] = [];
  readonly texts: string[] = [];
  /** Id -> ordinal, for the ordinals below `indexed`; the others are put in when it is first read. */
  private readonly index = new Map<string, number>();
  private indexed = 0;
  /**
   * The rows whose first `size` rows are the entries in ordinal order (their texts were worked
   * out row by row): the ordinal of such a row is its index, and is found without `index`.
   */
  private inOrder: TreeRows | null = null;
  /** FILTER_WORDS words per ordinal: the trigram filter of its text. */
  private filters = new Int32Array(0);
  /** Two words per ordinal: the letters and digits its text holds (`characterBit`), filled with the filter. */
  private characters = new Int32Array(0);
  /** Texts before this ordinal have their filter. */
  private filtered = 0;
  private pending: ReturnType<typeof setTimeout> | null = null;
  private readonly waiting: (() => void)[] = [];

  get size(): number {
    return this.ids.length;
  }

  /** The ordinal of entry `id`, undefined if its text was never worked out. */
  ordinalOf(id: string): number | undefined {
    this.completeIndex(this.ids.length);
    return this.index.get(id);
  }

  /**
   * The ordinal of row `i` of `rows` when the entries so far are the rows before it, in order
   * (a first search or the field's preparing, row by row): row `i` is then ordinal `i`, told
   * apart without a look-up. Undefined otherwise.
   */
  ordinalInOrder(rows: TreeRows, i: number): number | undefined {
    if (this.ids.length === 0) this.inOrder = rows;
    if (this.inOrder !== rows) return undefined;
    return i <= this.ids.length ? i : undefined;
  }

  /** Adds entry `id`, seen for the first time, as the next ordinal. */
  add(id: string, text: string): number {
    const ordinal = this.ids.length;
    // Not in row order: every later ordinal is looked up.
    if (this.inOrder !== null && this.inOrder.rows[ordinal]?.id !== id) this.inOrder = null;
    this.ids.push(id);
    this.texts.push(text);
    return ordinal;
  }

  /** Puts the ordinals below `upTo` in the index, a slice at a time when called between keys. */
  private completeIndex(upTo: number): void {
    const { ids, index } = this;
    for (let o = this.indexed; o < upTo; o++) index.set(ids[o]!, o);
    if (upTo > this.indexed) this.indexed = upTo;
  }

  /** Whether the text of entry `ordinal` holds `needle`. */
  holds(ordinal: number, needle: string): boolean {
    return this.texts[ordinal]!.includes(needle);
  }

  /** Whether the filter of entry `ordinal` lets through a text holding the needle of `filter` (no filter yet: yes). */
  passes(ordinal: number, filter: Int32Array): boolean {
    if (ordinal >= this.filtered) return true;
    const base = ordinal * FILTER_WORDS;
    for (let i = 0; i < filter.length; i += 2) {
      const mask = filter[i + 1]!;
      if ((this.filters[base + filter[i]!]! & mask) !== mask) return false;
    }
    return true;
  }

  /** Appends to `out` the ordinals from `from` on whose text holds `needle`, ascending. */
  scan(needle: string, from: number, out: number[]): void {
    const { texts } = this;
    const bit = needle.length === 1 ? characterBit(needle.charCodeAt(0)) : -1;
    if (bit >= 0) {
      // One letter or digit (a first key): the texts with their characters filled in are not read.
      const word = bit >>> 5;
      const mask = 1 << (bit & 31);
      const known = Math.min(texts.length, this.filtered);
      for (let o = from; o < known; o++) if ((this.characters[o * 2 + word]! & mask) !== 0) out.push(o);
      for (let o = Math.max(from, known); o < texts.length; o++) if (texts[o]!.includes(needle)) out.push(o);
      return;
    }
    if (needle.length < 3) {
      for (let o = from; o < texts.length; o++) if (texts[o]!.includes(needle)) out.push(o);
      return;
    }
    const filter = needleFilter(needle);
    for (let o = from; o < texts.length; o++) if (this.passes(o, filter) && texts[o]!.includes(needle)) out.push(o);
  }

  /**
   * Appends to `out` the ordinals whose text holds `needle`, ascending, given `vouched`: ascending
   * ordinals below `upTo` known to hold it (they matched a query that holds the needle). Only the
   * others are read.
   */
  scanAround(needle: string, vouched: readonly number[], upTo: number): readonly number[] {
    const { texts } = this;
    if (vouched.length === upTo) {
      // Every entry up to there holds it (a needle every entry holds): no text read, and no copy
      // unless entries came after them.
      if (upTo === texts.length) return vouched;
      const out = vouched.slice();
      this.scan(needle, upTo, out);
      return out;
    }
    const out: number[] = [];
    const filter = needle.length < 3 ? null : needleFilter(needle);
    let k = 0;
    for (let o = 0; o < upTo; o++) {
      if (k < vouched.length && vouched[k] === o) {
        out.push(o);
        k++;
      } else if ((!filter || this.passes(o, filter)) && texts[o]!.includes(needle)) out.push(o);
    }
    this.scan(needle, upTo, out);
    return out;
  }

  /** Fills in the missing filters a slice at a time, on timers that never keep the process alive. */
  fillFilters(): void {
    if (this.pending !== null) return;
    if (this.filtered >= this.texts.length && this.indexed >= this.ids.length) {
      for (const resolve of this.waiting.splice(0)) resolve();
      return;
    }
    this.pending = setTimeout(() => {
      this.pending = null;
      this.fillSlice(FILTER_SLICE);
      this.fillFilters();
    }, 0);
    // Nobody waiting: the work must not keep the process alive.
    if (this.waiting.length === 0) this.pending.unref?.();
  }

  /** Resolves once every text has its filter (and every ordinal is in the index). */
  filled(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.pending?.ref?.();
      this.fillFilters();
    });
  }

  private fillSlice(count: number): void {
    // The index first (a first search left it for later), then the filters.
    if (this.indexed < this.ids.length) {
      this.completeIndex(Math.min(this.ids.length, this.indexed + count));
      return;
    }
    const end = Math.min(this.texts.length, this.filtered + count);
    if (end * FILTER_WORDS > this.filters.length) {
      // Room for a quarter more entries, so that entries added one at a time do not copy it each time.
      const room = Math.ceil(Math.max(this.texts.length, 1024) * 1.25);
      const grown = new Int32Array(room * FILTER_WORDS);
      grown.set(this.filters);
      this.filters = grown;
      const characters = new Int32Array(room * 2);
      characters.set(this.characters);
      this.characters = characters;
    }
    const { filters, characters } = this;
    for (let o = this.filtered; o < end; o++) {
      const text = this.texts[o]!;
      const base = o * FILTER_WORDS;
      for (let i = 0; i < text.length; i++) {
        const bit = characterBit(text.charCodeAt(i));
        if (bit >= 0) characters[o * 2 + (bit >>> 5)]! |= 1 << (bit & 31);
      }
      let a = 0;
      let b = text.charCodeAt(0);
      let c = text.charCodeAt(1);
      for (let i = 2; i < text.length; i++) {
        a = b;
        b = c;
        c = text.charCodeAt(i);
        const bit = trigramBit(a, b, c);
        filters[base + (bit >>> 5)]! |= 1 << (bit & 31);
      }
    }
    this.filtered = end;
  }
}

/** The rows of one snapshot beside the entries' ordinals, and the matches found in them. */
interface RowsView {
  readonly rows: TreeRows;
  readonly labels: ReadonlyMap<string, string>;
  /** Ordinal -> row index (-1: the entry has no row). */
  readonly rowOf: Int32Array;
  /** Whether row i is ordinal i for every row (the rows are the entries in the order their texts were worked out). */
  readonly inOrder: boolean;
  readonly byQuery: Map<string, TreeMatches>;
}

/**
 * A query's matches as entry ordinals, over the first `upTo` entries. `hits` is never changed once
 * made (new entries give a new array): matches handed out share it instead of copying it per key.
 */
interface Found {
  upTo: number;
  hits: readonly number[];
}

const NO_LABELS: ReadonlyMap<string, string> = new Map();

function keep<V>(map: Map<string, V>, key: string, value: V): V {
  map.delete(key);
  map.set(key, value);
  if (map.size > KEPT_QUERIES) map.delete(map.keys().next().value!);
  return value;
}

/** The position of the first of the ascending `list` that is at least `value` (list.length: none). */
function firstAtLeast(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The ids of the matched rows, as a set that answers `has` by a binary search of the matched row
 * indexes, without a set of every id being built (a one-letter query matches nearly every row).
 */
class MatchIds implements ReadonlySet<string> {
  constructor(
    private readonly rows: TreeRows,
    private readonly indexes: readonly number[],
  ) {}

  get size(): number {
    return this.indexes.length;
  }

  has(id: string): boolean {
    const row = this.rows.indexOf.get(id);
    if (row === undefined) return false;
    const at = firstAtLeast(this.indexes, row);
    return at < this.indexes.length && this.indexes[at] === row;
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const id of this) callback.call(thisArg, id, id, this);
  }

  *values(): SetIterator<string> {
    const rows = this.rows.rows;
    for (const i of this.indexes) yield rows[i]!.id;
  }

  keys(): SetIterator<string> {
    return this.values();
  }

  *entries(): SetIterator<[string, string]> {
    for (const id of this) yield [id, id];
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.values();
  }
}

/**
 * Finds tree rows by text: a user prompt, an answer, a tool and its subject, a label.
 *
 * Each entry's text is worked out once, when a search first sees the entry. A query's matches are
 * kept per entry, so a backspace (or any query searched before) is a lookup, a query that holds a
 * kept one (a letter typed at its end, or anywhere) looks only at that one's matches, and new
 * entries are searched on their own. A query unlike any kept one goes over every text, and the
 * trigram filters let it read only the few that may hold it. Matches become rows through a table
 * kept per rows snapshot (none needed when rows and ordinals agree), and are not collected into a
 * set of ids.
 */
export class TreeFinder {
  private readonly texts = new EntryTexts();
  private readonly found = new Map<string, Found>();
  private view: RowsView | null = null;
  /** The texts being worked out ahead of the first key (`prepare`), and who waits for them. */
  private preparing: { timer: ReturnType<typeof setTimeout>; readonly waiting: (() => void)[] } | null = null;

  constructor(private readonly entry: (id: string) => AnyEntry | undefined) {}

  /**
   * Works out the texts of the entries of `rows` ahead of the first search, a slice at a time
   * between frames: the find field calls it when it opens, so that the first key finds most of
   * the work done. Entries it has not reached when a search comes are worked out by the search.
   */
  prepare(rows: TreeRows): void {
    if (this.preparing) return;
    const list = rows.rows;
    let i = 0;
    const step = (): void => {
      const end = Math.min(list.length, i + TEXT_SLICE);
      for (; i < end; i++) this.ordinalAt(rows, i);
      if (i < list.length) {
        this.preparing!.timer = soon(step, this.preparing!.waiting.length > 0);
        return;
      }
      // The row table too, unless a search made one already (a search with labels keeps the table).
      if (!this.view) this.viewOf(rows, NO_LABELS);
      this.texts.fillFilters();
      const waiting = this.preparing!.waiting;
      this.preparing = null;
      for (const resolve of waiting) resolve();
    };
    this.preparing = { timer: soon(step, false), waiting: [] };
  }

  search(rows: TreeRows, labels: ReadonlyMap<string, string>, query: string): TreeMatches | null {
    const needle = query.toLowerCase();
    if (needle === '') return null;
    const view = this.viewOf(rows, labels);
    const kept = view.byQuery.get(needle);
    if (kept) return keep(view.byQuery, needle, kept);
    const matches = keep(view.byQuery, needle, this.toRows(view, needle, this.hitsOf(needle)));
    this.texts.fillFilters();
    return matches;
  }

  /** Resolves when the finder has no work left between keys (texts prepared, every text has its filter). */
  async idle(): Promise<void> {
    const preparing = this.preparing;
    if (preparing) {
      preparing.timer.ref?.();
      await new Promise<void>((resolve) => preparing.waiting.push(resolve));
    }
    await this.texts.filled();
  }

  /** The ordinal of the entry of row `i` of `rows`, working out its text when it is seen for the first time. */
  private ordinalAt(rows: TreeRows, i: number): number {
    const inOrder = this.texts.ordinalInOrder(rows, i);
    if (inOrder !== undefined && inOrder < this.texts.size) return inOrder;
    const id = rows.rows[i]!.id;
    if (inOrder === undefined) {
      const known = this.texts.ordinalOf(id);
      if (known !== undefined) return known;
    }
    const entry = this.entry(id);
    return this.texts.add(id, entry ? searchText(entry) : '');
  }

  /** The view of `rows`, adding the entries seen for the first time to the texts. */
  private viewOf(rows: TreeRows, labels: ReadonlyMap<string, string>): RowsView {
    const last = this.view;
    if (last && last.rows === rows) {
      if (last.labels === labels) return last;
      this.view = { ...last, labels, byQuery: new Map() };
      return this.view;
    }
    const list = rows.rows;
    const ordinals = new Int32Array(list.length);
    for (let i = 0; i < list.length; i++) ordinals[i] = this.ordinalAt(rows, i);
    const rowOf = new Int32Array(this.texts.size).fill(-1);
    let inOrder = true;
    for (let i = 0; i < ordinals.length; i++) {
      rowOf[ordinals[i]!] = i;
      if (ordinals[i] !== i) inOrder = false;
    }
    this.view = { rows, labels, rowOf, inOrder, byQuery: new Map() };
    return this.view;
  }

  /** The entries whose text holds `needle`, as ordinals, ascending. */
  private hitsOf(needle: string): readonly number[] {
    const total = this.texts.size;
    const kept = this.found.get(needle);
    if (kept) {
      if (kept.upTo < total) {
        const hits = kept.hits.slice();
        this.texts.scan(needle, kept.upTo, hits);
        kept.hits = hits;
      }
      kept.upTo = total;
      return keep(this.found, needle, kept).hits;
    }
    // Every entry that holds the needle holds each part of it: a kept query inside it narrows the
    // search, and a kept query that holds it (a backspace after a paste) vouches for its matches.
    let base: Found | undefined;
    let known: Found | undefined;
    for (const [query, f] of this.found) {
      if (query.length < needle.length && needle.includes(query) && (!base || f.hits.length < base.hits.length))
        base = f;
      if (query.length > needle.length && query.includes(needle) && (!known || f.hits.length > known.hits.length))
        known = f;
    }
    const narrows = base !== undefined && base.hits.length * NARROW_BELOW < total;
    // A kept query that holds the needle pays when it matched many entries: those are not read.
    if (!narrows && known && known.hits.length * NARROW_BELOW >= known.upTo)
      return keep(this.found, needle, { upTo: total, hits: this.texts.scanAround(needle, known.hits, known.upTo) })
        .hits;
    const hits: number[] = [];
    if (narrows && base) {
      const filter = needleFilter(needle);
      for (const ordinal of base.hits)
        if (this.texts.passes(ordinal, filter) && this.texts.holds(ordinal, needle)) hits.push(ordinal);
      this.texts.scan(needle, base.upTo, hits);
    } else this.texts.scan(needle, 0, hits);
    return keep(this.found, needle, { upTo: total, hits }).hits;
  }

  /**
   * The rows of `hits`, ascending. When the view's rows are the entries in ordinal order (texts
   * worked out row by row, the usual case), ordinal is row and the hits are the rows already.
   */
  private toRows(view: RowsView, needle: string, hits: readonly number[]): TreeMatches {
    const { rows, rowOf } = view;
    let indexes: readonly number[];
    if (view.inOrder) {
      // Ordinal is row: the hits are the rows, shared (never changed), cut only when entries outran the rows.
      const end = firstAtLeast(hits, rows.rows.length);
      indexes = end === hits.length ? hits : hits.slice(0, end);
    } else {
      const list: number[] = [];
      let ascending = true;
      for (const ordinal of hits) {
        const row = ordinal < rowOf.length ? rowOf[ordinal]! : -1;
        if (row < 0) continue;
        if (list.length > 0 && row < list[list.length - 1]!) ascending = false;
        list.push(row);
      }
      indexes = ascending ? list : Array.from(Int32Array.from(list).sort());
    }
    const labelled: number[] = [];
    for (const [id, label] of view.labels) {
      if (!label.toLowerCase().includes(needle)) continue;
      const row = rows.indexOf.get(id);
      if (row === undefined) continue;
      const at = firstAtLeast(indexes, row);
      if (indexes[at] !== row) labelled.push(row);
    }
    if (labelled.length > 0) indexes = Array.from(Int32Array.from(new Set([...indexes, ...labelled])).sort());
    return { query: needle, indexes, ids: new MatchIds(rows, indexes), rows };
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
  // Binary searches: a one-letter query marks every row of a large tree.
  if (direction === 1) {
    const at = firstAtLeast(list, inclusive ? from : from + 1);
    return list[at < list.length ? at : 0]!;
  }
  const at = firstAtLeast(list, inclusive ? from + 1 : from) - 1;
  return list[at >= 0 ? at : list.length - 1]!;
}
