import type { AnyEntry } from './entry-types';
import { IdPlaces } from './id-places';

/** Parent -> children links over the immutable entries, kept up to date as entries append. */
export class TreeIndex {
  /**
   * Entries in the order added (a repeated id keeps its first place and takes the last value).
   * Most parents sit right before their child here, so `pathTo` walks this array backwards
   * instead of looking every parent up, and such a child is not listed until asked for.
   */
  private readonly order: AnyEntry[] = [];
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
    if (!this.addNew(entry)) this.link(entry);
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
    this.link(entry);
    return true;
  }

  /** From the first repeated id on, every child is listed (a reply's parent may no longer be its place's neighbour). */
  private spoil(): void {
    if (this.spoiled) return;
    for (let i = 0; i + 1 < this.order.length; i++) {
      const parent = this.order[i]!.id;
      const next = this.order[i + 1]!;
      if (next.parentId === parent && !this.children.has(parent)) this.children.set(parent, [next.id]);
    }
    this.spoiled = true;
  }

  private link(entry: AnyEntry): void {
    const parentId = entry.parentId;
    // A reply to the entry added last is its first child: not listed until asked for.
    // (The entry added last has no children yet.)
    if (parentId !== null && parentId === this.lastId && !this.spoiled) {
      this.lastId = entry.id;
      return;
    }
    const siblings = this.listed(parentId);
    if (siblings) {
      if (siblings.push(entry.id) === 2) this.forks.add(parentId);
      if (!this.spoiled) this.placed.set(entry.id, this.order.length - 1);
    } else if (parentId === null) {
      this.children.set(null, [entry.id]);
      if (!this.spoiled) this.placed.set(entry.id, this.order.length - 1);
    } else this.children.set(parentId, [entry.id]);
    this.lastId = entry.id;
  }

  /** The child added right after `id` as its first, when it was not listed. */
  private unlistedChild(id: string): string | undefined {
    if (this.spoiled) return undefined;
    const at = this.placeById.get(id);
    const next = at === undefined ? undefined : this.order[at + 1];
    return next !== undefined && next.parentId === id ? next.id : undefined;
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
    if (this.spoiled || this.order[at]?.id !== id) return -1;
    const next = this.order[at + 1];
    return next !== undefined && next.parentId === id && !this.forks.has(id) ? at + 1 : -1;
  }

  /** Where a root or a later sibling sits in the order added; -1 for others (or once an id repeated). */
  placeOf(id: string): number {
    return this.spoiled ? -1 : (this.placed.get(id) ?? -1);
  }

  /** The id added `at`-th (0 first), as `onlyChildAfter` counts; undefined past the end or once an id repeated. */
  idAt(at: number): string | undefined {
    return this.spoiled ? undefined : this.order[at]?.id;
  }

  get size(): number {
    return this.placeById.size;
  }

  get(id: string): AnyEntry | undefined {
    const at = this.placeById.get(id);
    return at === undefined ? undefined : this.order[at];
  }

  has(id: string): boolean {
    return id === this.lastId || this.placeById.has(id);
  }

  /** All entries in commit order. */
  all(): IterableIterator<AnyEntry> {
    return this.order.values();
  }

  roots(): readonly string[] {
    return this.children.get(null) ?? [];
  }

  childrenOf(id: string | null): readonly string[] {
    return this.listed(id) ?? [];
  }

  /** The entries sharing this entry's parent, itself included, oldest first. */
  siblingsOf(id: string): readonly string[] {
    const entry = this.get(id);
    return entry ? this.childrenOf(entry.parentId) : [];
  }

  /**
   * Root first, `leafId` last. Each parent is first looked for right before its child in the
   * order added (a chain of replies: no map look-up, from the leaf's own place on); the map
   * answers the rest.
   */
  pathTo(leafId: string | null): AnyEntry[] {
    const path: AnyEntry[] = [];
    const order = this.order;
    const placeOf = (id: string): number => (this.spoiled ? -1 : (this.placeById.get(id) ?? -1));
    let at =
      !this.spoiled && order.length > 0 && order[order.length - 1]!.id === leafId
        ? order.length - 1
        : leafId === null
          ? -1
          : placeOf(leafId);
    let cursor = at >= 0 ? order[at] : leafId === null ? undefined : this.get(leafId);
    while (cursor) {
      path.push(cursor);
      const parentId = cursor.parentId;
      if (parentId === null) break;
      const before = at > 0 ? order[at - 1]! : undefined;
      if (before !== undefined && before.id === parentId) {
        cursor = before;
        at--;
      } else {
        at = placeOf(parentId);
        cursor = at >= 0 ? order[at] : this.get(parentId);
      }
    }
    return path.reverse();
  }

  depthOf(id: string): number {
    let depth = 0;
    let cursor = this.get(id);
    while (cursor && cursor.parentId !== null) {
      depth++;
      cursor = this.get(cursor.parentId);
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
