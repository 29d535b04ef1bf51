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
    if (siblings) siblings.push(entry.id);
    else this.children.set(entry.parentId, [entry.id]);
    this.lastId = entry.id;
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
