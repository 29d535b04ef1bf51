import type { AnyEntry } from './entry-types';

/** Parent -> children links over the immutable entries, kept up to date as entries append. */
export class TreeIndex {
  private readonly byId = new Map<string, AnyEntry>();
  private readonly children = new Map<string | null, string[]>();
  /** The entry added last: most entries are its child, so two map look-ups per entry are saved on replay. */
  private lastId: string | null = null;
  /**
   * Entries in the order added. Most parents sit right before their child here, so `pathTo`
   * walks this array backwards instead of looking every parent up in the map. Null once an id
   * was added twice (then the map alone is trusted).
   */
  private order: AnyEntry[] | null = [];
  /** Parents with two children or more (null for two roots or more): few, even in a long session. */
  private readonly forks = new Set<string | null>();
  /** Where roots and later siblings sit in the order added (where a walk of the rows starts a column). */
  private readonly placed = new Map<string, number>();

  add(entry: AnyEntry): void {
    const size = this.byId.size;
    this.byId.set(entry.id, entry);
    if (this.byId.size === size) this.order = null;
    else this.order?.push(entry);
    this.link(entry);
  }

  /**
   * Adds an entry, telling a new id from a repeated one with the same look-up: false when the id
   * was there already, and then the index is left spoiled (replay refuses the whole file then).
   */
  addNew(entry: AnyEntry): boolean {
    const size = this.byId.size;
    this.byId.set(entry.id, entry);
    if (this.byId.size === size) {
      this.order = null;
      return false;
    }
    this.order?.push(entry);
    this.link(entry);
    return true;
  }

  private link(entry: AnyEntry): void {
    // The entry added last has no children yet: nothing to look up.
    const siblings =
      entry.parentId !== null && entry.parentId === this.lastId ? undefined : this.children.get(entry.parentId);
    if (siblings) {
      if (siblings.push(entry.id) === 2) this.forks.add(entry.parentId);
      if (this.order !== null) this.placed.set(entry.id, this.order.length - 1);
    } else if (entry.parentId === null) {
      this.children.set(null, [entry.id]);
      if (this.order !== null) this.placed.set(entry.id, this.order.length - 1);
    } else this.children.set(entry.parentId, [entry.id]);
    this.lastId = entry.id;
  }

  /**
   * Where `id`'s only child sits in the order added, when it sits right after `id` (found at
   * `at` there); -1 when it does not or `id` has another child (then ask `childrenOf`). A chain
   * of replies is followed this way without a map look-up per entry.
   */
  onlyChildAfter(id: string, at: number): number {
    const order = this.order;
    if (order === null || order[at]?.id !== id) return -1;
    const next = order[at + 1];
    return next !== undefined && next.parentId === id && !this.forks.has(id) ? at + 1 : -1;
  }

  /** Where a root or a later sibling sits in the order added; -1 for others (or once an id repeated). */
  placeOf(id: string): number {
    return this.order === null ? -1 : (this.placed.get(id) ?? -1);
  }

  /** The id added `at`-th (0 first), as `onlyChildAfter` counts; undefined past the end or once an id repeated. */
  idAt(at: number): string | undefined {
    return this.order?.[at]?.id;
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): AnyEntry | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return id === this.lastId || this.byId.has(id);
  }

  /** All entries in commit order. */
  all(): IterableIterator<AnyEntry> {
    return this.byId.values();
  }

  roots(): readonly string[] {
    return this.children.get(null) ?? [];
  }

  childrenOf(id: string | null): readonly string[] {
    return this.children.get(id) ?? [];
  }

  /** The entries sharing this entry's parent, itself included, oldest first. */
  siblingsOf(id: string): readonly string[] {
    const entry = this.byId.get(id);
    return entry ? this.childrenOf(entry.parentId) : [];
  }

  /**
   * Root first, `leafId` last. From the newest entry, each parent is first looked for right
   * before its child in the order added (a chain of replies: no map look-up); the map answers
   * the rest.
   */
  pathTo(leafId: string | null): AnyEntry[] {
    const path: AnyEntry[] = [];
    const order = this.order;
    let at = order !== null && order.length > 0 && order[order.length - 1]!.id === leafId ? order.length - 1 : -1;
    let cursor = at >= 0 ? order![at] : leafId === null ? undefined : this.byId.get(leafId);
    while (cursor) {
      path.push(cursor);
      const parentId = cursor.parentId;
      if (parentId === null) break;
      const before = at > 0 ? order![at - 1]! : undefined;
      if (before !== undefined && before.id === parentId) {
        cursor = before;
        at--;
      } else {
        cursor = this.byId.get(parentId);
        at = -1;
      }
    }
    return path.reverse();
  }

  depthOf(id: string): number {
    let depth = 0;
    let cursor = this.byId.get(id);
    while (cursor && cursor.parentId !== null) {
      depth++;
      cursor = this.byId.get(cursor.parentId);
    }
    return depth;
  }

  /** Follows the newest child down from `id` to a leaf. */
  newestLeafUnder(id: string): string {
    let cursor = id;
    for (;;) {
      const kids = this.childrenOf(cursor);
      if (kids.length === 0) return cursor;
      cursor = kids[kids.length - 1]!;
    }
  }

  isLeaf(id: string): boolean {
    return this.childrenOf(id).length === 0;
  }
}
