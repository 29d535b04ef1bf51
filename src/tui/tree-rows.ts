import type { TreeIndex } from '../core/tree/tree-index';

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
  readonly indexOf: ReadonlyMap<string, number>;
}

interface Frame {
  readonly id: string;
  readonly depth: number;
  readonly branchStart: boolean;
  readonly siblingIndex: number;
  readonly siblingCount: number;
}

function pushChildren(stack: Frame[], kids: readonly string[], depth: number): void {
  const n = kids.length;
  // The newest child continues in this column; it is read last, so it is pushed first.
  if (n > 0) stack.push({ id: kids[n - 1]!, depth, branchStart: false, siblingIndex: n, siblingCount: n });
  for (let i = n - 2; i >= 0; i--) stack.push({ id: kids[i]!, depth: depth + 1, branchStart: true, siblingIndex: i + 1, siblingCount: n });
}

/** Flattens the whole tree: O(entries), no recursion (a chain can be 100,000 deep). */
export function buildTreeRows(tree: TreeIndex): TreeRows {
  const rows: TreeRow[] = [];
  const indexOf = new Map<string, number>();
  const stack: Frame[] = [];
  pushChildren(stack, tree.roots(), 0);
  while (stack.length > 0) {
    const frame = stack.pop()!;
    indexOf.set(frame.id, rows.length);
    rows.push(frame);
    pushChildren(stack, tree.childrenOf(frame.id), frame.depth);
  }
  return { rows, indexOf };
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
