import type { TreeIndex } from '../../core/tree/tree-index';

/**
 * The conversation tree as rows, one per entry, in reading order. A chain stays in its column;
 * at a branch point the older siblings' subtrees are drawn nested one level in, and the newest
 * sibling carries on in the same column, so that the latest work never drifts right.
 *
 * ```
 * ● fix the flaky test
 * ◆ The race is between…
 * ├─● try a lock            [1/2]
 * │ ◆ A lock file…
 * ● use CAS instead         [2/2]
 * ◆ Done                    ◀
 * ```
 */
export interface TreeRow {
  readonly id: string;
  /** How many nested branches this row sits in. */
  readonly depth: number;
  /** First row of a nested branch: drawn with `├─`. */
  readonly branchStart: boolean;
  /** 1-based place among its siblings, and how many there are (1 of 1 when none). */
  readonly siblingIndex: number;
  readonly siblingCount: number;
}

export interface TreeRows {
  readonly rows: readonly TreeRow[];
  /** The row of an entry; a lookup near the previous one (the selection moving) is O(1). */
  readonly indexOf: { get(id: string): number | undefined };
}

function pushChildren(stack: TreeRow[], kids: readonly string[], depth: number): void {
  const n = kids.length;
  // The newest child continues in this column; it is read last, so it is pushed first.
  if (n > 0) stack.push({ id: kids[n - 1]!, depth, branchStart: false, siblingIndex: n, siblingCount: n });
  for (let i = n - 2; i >= 0; i--)
    stack.push({ id: kids[i]!, depth: depth + 1, branchStart: true, siblingIndex: i + 1, siblingCount: n });
}

/** Rows looked at around the last hit (and at each end) before a map of every row is built. */
const NEAR = 64;
/** More new entries than this at once (or anything unexpected) and the rows are built again. */
const MAX_INCREMENTAL = 2000;

/**
 * The tree's rows, kept up to date as entries append: a new entry is placed where the full
 * flattening would put it, in O(1) for a reply on the current branch. Only a new sibling moves
 * rows, and then only those of the subtree it pushes one level in (O(that subtree)). Its owner
 * passes on the ids of new entries (`note`); rows that do not add up are built again whole.
 */
export class TreeRowIndex {
  private rows: TreeRow[] = [];
  private map: Map<string, number> | null = null;
  private hint = 0;
  private current: TreeRows | null = null;

  constructor(private readonly tree: TreeIndex) {
    this.rebuild();
  }

  /** The rows now; the same object until the rows change. */
  snapshot(): TreeRows {
    if (this.rows.length !== this.tree.size) this.rebuild();
    if (!this.current) {
      // A copy: the rows a render was given never change under it.
      const rows = this.rows.slice();
      const snapshot: TreeRows = {
        rows,
        indexOf: { get: (id) => (this.current === snapshot ? this.find(id) : scan(rows, id)) },
      };
      this.current = snapshot;
    }
    return this.current;
  }

  /** Entries appended to the tree (after it holds them), in the order they were added. */
  note(ids: readonly string[]): void {
    if (ids.length === 0) return;
    if (ids.length > MAX_INCREMENTAL || this.rows.length + ids.length !== this.tree.size) {
      this.rebuild();
      return;
    }
    for (const id of ids) {
      if (!this.append(id)) {
        this.rebuild();
        return;
      }
    }
    this.changed();
  }

  private changed(): void {
    this.current = null;
  }

  private rebuild(): void {
    const rows: TreeRow[] = [];
    const stack: TreeRow[] = [];
    const tree = this.tree;
    /** Where a fork's first child sits in the order added, when right after the fork (a reply). */
    const firstChildAt = new Map<string, number>();
    pushChildren(stack, tree.roots(), 0);
    while (stack.length > 0) {
      let row = stack.pop()!;
      rows.push(row);
      // A chain (one child after another) stays in its column: no stack round trip. While the
      // chain is a run of replies in the order added, it is followed there, not through the map.
      let at = firstChildAt.get(row.id) ?? tree.placeOf(row.id);
      for (;;) {
        const next = at < 0 ? -1 : tree.onlyChildAfter(row.id, at);
        let id: string;
        if (next >= 0) id = tree.idAt(next)!;
        else {
          const kids = tree.childrenOf(row.id);
          if (kids.length !== 1) break;
          id = kids[0]!;
        }
        at = next;
        row = { id, depth: row.depth, branchStart: false, siblingIndex: 1, siblingCount: 1 };
        rows.push(row);
      }
      const kids = tree.childrenOf(row.id);
      if (at >= 0 && kids.length > 1 && tree.idAt(at + 1) === kids[0]) firstChildAt.set(kids[0]!, at + 1);
      pushChildren(stack, kids, row.depth);
    }
    this.rows = rows;
    this.map = null;
    this.hint = rows.length - 1;
    this.changed();
  }

  /** Places one new entry; false when the rows do not look as expected (the caller rebuilds). */
  private append(id: string): boolean {
    const entry = this.tree.get(id);
    if (!entry) return false;
    const siblings = this.tree.childrenOf(entry.parentId);
    const k = siblings.indexOf(id) + 1;
    if (k === 0) return false;
    let depth = 0;
    let at: number;
    if (k === 1) {
      // The parent was a leaf: the new row goes right under it, in its column.
      if (entry.parentId === null) {
        if (this.rows.length !== 0) return false;
        at = 0;
      } else {
        const parent = this.find(entry.parentId);
        if (parent === undefined) return false;
        depth = this.rows[parent]!.depth;
        at = parent + 1;
      }
    } else {
      // The sibling that was newest moves one level in, with its subtree; the new one carries on in the column after it.
      const previous = siblings[k - 2]!;
      const from = this.find(previous);
      const to = this.find(this.tree.newestLeafUnder(previous));
      if (from === undefined || to === undefined || to < from) return false;
      depth = this.rows[from]!.depth;
      for (let i = from; i <= to; i++) {
        const row = this.rows[i]!;
        this.rows[i] = { ...row, depth: row.depth + 1, ...(i === from ? { branchStart: true } : {}) };
      }
      for (let s = 0; s < k - 1; s++) {
        const index = s === k - 2 ? from : this.find(siblings[s]!);
        if (index === undefined) return false;
        this.rows[index] = { ...this.rows[index]!, siblingCount: k };
      }
      at = to + 1;
    }
    const row: TreeRow = { id, depth, branchStart: false, siblingIndex: k, siblingCount: k };
    if (at === this.rows.length) {
      this.rows.push(row);
      this.map?.set(id, at);
    } else {
      this.rows.splice(at, 0, row);
      this.map = null;
    }
    this.hint = at;
    return true;
  }

  /** Near the last hit first, then at both ends, then in a map of every row (built once, kept while rows only append). */
  private find(id: string): number | undefined {
    const rows = this.rows;
    const hint = this.hint;
    for (let d = 0; d <= NEAR; d++) {
      if (rows[hint + d]?.id === id) return (this.hint = hint + d);
      if (d > 0 && rows[hint - d]?.id === id) return (this.hint = hint - d);
    }
    for (let i = 0; i < Math.min(NEAR, rows.length); i++) {
      if (rows[rows.length - 1 - i]!.id === id) return (this.hint = rows.length - 1 - i);
      if (rows[i]!.id === id) return (this.hint = i);
    }
    if (!this.map) {
      this.map = new Map();
      for (let i = 0; i < rows.length; i++) this.map.set(rows[i]!.id, i);
    }
    const index = this.map.get(id);
    if (index !== undefined) this.hint = index;
    return index;
  }
}

function scan(rows: readonly TreeRow[], id: string): number | undefined {
  for (let i = rows.length - 1; i >= 0; i--) if (rows[i]!.id === id) return i;
  return undefined;
}

/** The guide drawn before a row's glyph: `│ ` per enclosing branch, `├─` where a branch starts. */
export function treeGuide(row: TreeRow, maxCells: number): string {
  if (row.depth === 0) return '';
  const levels = Math.max(1, Math.floor(maxCells / 2));
  const shown = Math.min(row.depth, levels);
  const head = row.depth > levels ? '┆ ' : '│ ';
  let guide = '';
  for (let level = 0; level < shown; level++) {
    const last = level === shown - 1;
    if (last) guide += row.branchStart ? '├─' : '│ ';
    else guide += level === 0 ? head : '│ ';
  }
  return guide;
}

/** The row to move to from `index` on ←/→: the previous or next sibling at the nearest branch point. */
export function siblingRow(tree: TreeIndex, rows: TreeRows, index: number, direction: -1 | 1): number {
  const start = rows.rows[index];
  if (!start) return index;
  let cursor: string | null = start.id;
  while (cursor !== null) {
    const siblings = tree.siblingsOf(cursor);
    if (siblings.length > 1) {
      const at = siblings.indexOf(cursor);
      const next = siblings[at + direction];
      if (next === undefined) return index;
      return rows.indexOf.get(next) ?? index;
    }
    cursor = tree.get(cursor)?.parentId ?? null;
  }
  return index;
}

/** The most recently written entry: always a leaf (a child is written after its parent), where the newest work is. */
export function newestLeaf(tree: TreeIndex): string | null {
  let last: string | null = null;
  for (const entry of tree.all()) last = entry.id;
  return last;
}
