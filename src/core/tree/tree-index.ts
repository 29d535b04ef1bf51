import type { AnyEntry } from './entry-types';
import { IdPlaces } from './id-places';
import { lazyList } from './lazy-list';

/**
 * Entries taken in without being built (a saved index's, see addDeferred): their ids and where
 * each one's parent sits in the order added, and how to build the one at a place when it is read.
 */
interface DeferredEntries {
  readonly ids: readonly string[];
  /** The parent's place in the order added, before the entry's own; -1 for a root. */
  readonly parentAt: Int32Array;
  /** The type of the entry at a place (what `make` would build it with), read without building it. */
  typeAt(at: number): string;
  make(at: number): AnyEntry;
  /** `read` of the bytes the payload of the entry at a place is written in, without building it (where they are known). */
  readPayload?<T>(at: number, read: PayloadBytesReader<T>): T;
}

/** Reads a payload from where its bytes lie: `bytes[from, to)`. */
export type PayloadBytesReader<T> = (bytes: Buffer, from: number, to: number) => T;

/** How to read the type of a path's item without building it, for the paths pathTo gives with deferred entries on them. */
const pathTypes = new WeakMap<readonly AnyEntry[], (index: number) => string>();
/** How to read the payload bytes of a path's item not built yet, for the same paths. */
const pathPayloads = new WeakMap<
  readonly AnyEntry[],
  <T>(index: number, read: PayloadBytesReader<T>) => T | undefined
>();

/**
 * The types of `path`'s items by index, read without building an entry not built yet when `path`
 * came from TreeIndex.pathTo (a fold that passes over most types builds only what it reads).
 */
export function pathTypeReader(path: readonly AnyEntry[]): (index: number) => string {
  return pathTypes.get(path) ?? ((i) => path[i]!.type);
}

/**
 * `read` of the payload bytes of `path`'s item at an index, when `path` came from TreeIndex.pathTo
 * and that item is a deferred entry not built yet; else undefined (read the item's payload).
 */
export function pathPayloadReader(
  path: readonly AnyEntry[],
): <T>(index: number, read: PayloadBytesReader<T>) => T | undefined {
  return pathPayloads.get(path) ?? (() => undefined);
}

/** Parent -> children links over the immutable entries, kept up to date as entries append. */
export class TreeIndex {
  /**
   * Entries in the order added (a repeated id keeps its first place and takes the last value).
   * Most parents sit right before their child here, so `pathTo` walks this array backwards
   * instead of looking every parent up, and such a child is not listed until asked for.
   */
  private readonly order: (AnyEntry | undefined)[] = [];
  /** The first entries, when they were added deferred: built (into `order`) only once read. */
  private deferred: DeferredEntries | null = null;
  private deferredCount = 0;
  /** Where each id sits in `order` (tole's own ids in a typed array, not a map). */
  private readonly placeById = new IdPlaces();
  /**
   * Children lists, oldest first (null: the roots). A child added right after its parent, as the
   * first, is listed only once something asks for that parent's list or a sibling follows: on
   * replay most entries are such replies, so no list (nor map entry) is made for each.
   */
  private readonly children = new Map<string | null, string[]>();
  /** The entry added last: most entries are its child. */
  private lastId: string | null = null;
  /** An id was added twice: every child is listed from then on, and only the map is trusted. */
  private spoiled = false;
  /** Parents with two children or more (null for two roots or more): few, even in a long session. */
  private readonly forks = new Set<string | null>();
  /** Where roots and later siblings sit in the order added (where a walk of the rows starts a column). */
  private readonly placed = new Map<string, number>();

  add(entry: AnyEntry): void {
    if (!this.addNew(entry)) this.link(entry.id, entry.parentId, this.order.length - 1);
  }

  /**
   * Adds an entry, telling a new id from a repeated one with the same look-up: false when the id
   * was there already, and then the index is left spoiled (replay refuses the whole file then).
   */
  addNew(entry: AnyEntry): boolean {
    if (!this.placeById.add(entry.id, this.order.length)) {
      // The repeated id keeps its first place, with the new value there.
      this.spoil();
      this.order[this.placeById.get(entry.id)!] = entry;
      return false;
    }
    this.order.push(entry);
    this.link(entry.id, entry.parentId, this.order.length - 1);
    return true;
  }

  /**
   * Adds `deferred.ids.length` entries to an empty index as addNew would one after another, without
   * building them: each is built by `deferred.make` when first read (and kept). False at the first
   * repeated id (the caller drops the index then). Every parent must come before its child.
   */
  addDeferred(deferred: DeferredEntries): boolean {
    if (this.order.length !== 0) throw new Error('assert: deferred entries go into an empty tree index');
    const { ids, parentAt } = deferred;
    const n = ids.length;
    this.deferred = deferred;
    this.deferredCount = n;
    const order = this.order;
    for (let i = 0; i < n; i++) order.push(undefined);
    for (let i = 0; i < n; i++) {
      const id = ids[i]!;
      if (!this.placeById.add(id, i)) return false;
      const up = parentAt[i]!;
      if (up >= i) return false;
      this.link(id, up < 0 ? null : ids[up]!, i);
    }
    return true;
  }

  /** The entry at `at` in the order added, built now when it was deferred. */
  private entryAt(at: number): AnyEntry | undefined {
    const entry = this.order[at];
    if (entry !== undefined || at >= this.deferredCount || at < 0) return entry;
    const made = this.deferred!.make(at);
    this.order[at] = made;
    return made;
  }

  /** The id at `at` in the order added (undefined past the end), without building a deferred entry. */
  private idOf(at: number): string | undefined {
    const entry = this.order[at];
    return entry !== undefined ? entry.id : at >= 0 && at < this.deferredCount ? this.deferred!.ids[at] : undefined;
  }

  /** The parent id of the entry at `at` (a place that holds one), without building a deferred entry. */
  private parentIdOf(at: number): string | null {
    const entry = this.order[at];
    if (entry !== undefined) return entry.parentId;
    const deferred = this.deferred!;
    const up = deferred.parentAt[at]!;
    return up < 0 ? null : deferred.ids[up]!;
  }

  /** From the first repeated id on, every child is listed (a reply's parent may no longer be its place's neighbour). */
  private spoil(): void {
    if (this.spoiled) return;
    for (let i = 0; i + 1 < this.order.length; i++) {
      const parent = this.idOf(i)!;
      if (this.parentIdOf(i + 1) === parent && !this.children.has(parent))
        this.children.set(parent, [this.idOf(i + 1)!]);
    }
    this.spoiled = true;
  }

  /** Lists the entry `id` added at `at` (the last place) under its parent. */
  private link(id: string, parentId: string | null, at: number): void {
    // A reply to the entry added last is its first child: not listed until asked for.
    // (The entry added last has no children yet.)
    if (parentId !== null && parentId === this.lastId && !this.spoiled) {
      this.lastId = id;
      return;
    }
    const siblings = this.listed(parentId);
    if (siblings) {
      if (siblings.push(id) === 2) this.forks.add(parentId);
      if (!this.spoiled) this.placed.set(id, at);
    } else if (parentId === null) {
      this.children.set(null, [id]);
      if (!this.spoiled) this.placed.set(id, at);
    } else this.children.set(parentId, [id]);
    this.lastId = id;
  }

  /** The child added right after `id` as its first, when it was not listed. */
  private unlistedChild(id: string): string | undefined {
    if (this.spoiled) return undefined;
    const at = this.placeById.get(id);
    if (at === undefined || at + 1 >= this.order.length) return undefined;
    return this.parentIdOf(at + 1) === id ? this.idOf(at + 1) : undefined;
  }

  /** The children list of `id`, made now from an unlisted first child; undefined when it has none. */
  private listed(id: string | null): string[] | undefined {
    const list = this.children.get(id);
    if (list !== undefined || id === null) return list;
    const first = this.unlistedChild(id);
    if (first === undefined) return undefined;
    const made = [first];
    this.children.set(id, made);
    return made;
  }

  /**
   * Where `id`'s only child sits in the order added, when it sits right after `id` (found at
   * `at` there); -1 when it does not or `id` has another child (then ask `childrenOf`). A chain
   * of replies is followed this way without a map look-up per entry.
   */
  onlyChildAfter(id: string, at: number): number {
    if (this.spoiled || this.idOf(at) !== id || at + 1 >= this.order.length) return -1;
    return this.parentIdOf(at + 1) === id && !this.forks.has(id) ? at + 1 : -1;
  }

  /** Where a root or a later sibling sits in the order added; -1 for others (or once an id repeated). */
  placeOf(id: string): number {
    return this.spoiled ? -1 : (this.placed.get(id) ?? -1);
  }

  /** The id added `at`-th (0 first), as `onlyChildAfter` counts; undefined past the end or once an id repeated. */
  idAt(at: number): string | undefined {
    return this.spoiled ? undefined : this.idOf(at);
  }

  get size(): number {
    return this.placeById.size;
  }

  get(id: string): AnyEntry | undefined {
    const at = this.placeById.get(id);
    return at === undefined ? undefined : this.entryAt(at);
  }

  has(id: string): boolean {
    return id === this.lastId || this.placeById.has(id);
  }

  /** All entries in commit order. */
  all(): IterableIterator<AnyEntry> {
    if (this.deferred === null) return (this.order as AnyEntry[]).values();
    for (let at = 0; at < this.deferredCount; at++) this.entryAt(at);
    this.deferred = null;
    this.deferredCount = 0;
    return (this.order as AnyEntry[]).values();
  }

  roots(): readonly string[] {
    return this.children.get(null) ?? [];
  }

  childrenOf(id: string | null): readonly string[] {
    return this.listed(id) ?? [];
  }

  /** The entries sharing this entry's parent, itself included, oldest first. */
  siblingsOf(id: string): readonly string[] {
    const at = this.placeById.get(id);
    return at === undefined ? [] : this.childrenOf(this.parentIdOf(at));
  }

  /** Root first, `leafId` last (see placesTo). Deferred entries on it are built only as the list is read. */
  pathTo(leafId: string | null): readonly AnyEntry[] {
    const places = this.placesTo(leafId);
    if (this.deferred === null) return places.map((place) => this.order[place]!);
    const path = lazyList(places.length, (i) => this.entryAt(places[i]!)!);
    pathTypes.set(path, (i) => this.typeAt(places[i]!));
    pathPayloads.set(path, (i, read) => this.payloadBytesAt(places[i]!, read));
    return path;
  }

  /** `read` of the payload bytes of the deferred entry at `at`, when it is not built yet and they are known. */
  private payloadBytesAt<T>(at: number, read: PayloadBytesReader<T>): T | undefined {
    const deferred = this.deferred;
    if (deferred?.readPayload === undefined || at >= this.deferredCount || this.order[at] !== undefined)
      return undefined;
    return deferred.readPayload(at, read);
  }

  /** The type of the entry at `at` in the order added, without building a deferred entry. */
  private typeAt(at: number): string {
    const entry = this.order[at];
    return entry !== undefined ? entry.type : this.deferred!.typeAt(at);
  }

  /**
   * The entries of `pathTo(leafId)` whose type is one of `types`, root first: a deferred entry's
   * type is read from its column, so only the entries given back are built.
   */
  pathEntriesOfTypes(leafId: string | null, types: ReadonlySet<string>): AnyEntry[] {
    const found: AnyEntry[] = [];
    for (const place of this.placesTo(leafId)) {
      if (types.has(this.typeAt(place))) found.push(this.entryAt(place)!);
    }
    return found;
  }

  /**
   * Where the entries from the root to `leafId` sit in the order added, root first. Each parent is
   * first looked for right before its child (a chain of replies: no map look-up); the map answers
   * the rest.
   */
  private placesTo(leafId: string | null): number[] {
    if (leafId === null) return [];
    const last = this.order.length - 1;
    let at = last >= 0 && this.idOf(last) === leafId ? last : (this.placeById.get(leafId) ?? -1);
    const places: number[] = [];
    while (at >= 0) {
      places.push(at);
      const parentId = this.parentIdOf(at);
      if (parentId === null) break;
      at = at > 0 && this.idOf(at - 1) === parentId ? at - 1 : (this.placeById.get(parentId) ?? -1);
    }
    return places.reverse();
  }

  depthOf(id: string): number {
    let depth = 0;
    let at = this.placeById.get(id);
    while (at !== undefined) {
      const parentId = this.parentIdOf(at);
      if (parentId === null) break;
      depth++;
      at = this.placeById.get(parentId);
    }
    return depth;
  }

  /** Follows the newest child down from `id` to a leaf. */
  newestLeafUnder(id: string): string {
    let cursor = id;
    for (;;) {
      const kids = this.children.get(cursor);
      const newest = kids !== undefined ? kids[kids.length - 1] : this.unlistedChild(cursor);
      if (newest === undefined) return cursor;
      cursor = newest;
    }
  }

  isLeaf(id: string): boolean {
    const kids = this.children.get(id);
    return kids !== undefined ? kids.length === 0 : this.unlistedChild(id) === undefined;
  }
}
