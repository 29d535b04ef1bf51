/**
 * The chain of a workspace's checkpoints: one ref that every tole on the workspace moves, each
 * checkpoint a commit whose parent is the ref's head. A tole moves the ref only by
 * compare-and-swap, so that one tole's checkpoint never drops another's off the chain (a
 * checkpoint off the chain is one a repack may delete).
 */

/** The ref as the chain needs it; git's in checkpoint-store.ts, an in-memory one in the simulator. */
export interface CheckpointRef {
  /** Makes a commit of `tree` with `parents` (first parent first) and returns its id. */
  commit(tree: string, parents: readonly string[], message: string): Promise<string>;
  /** Moves the ref to `next` only if it is at `expected` (null: it must not exist yet). */
  swap(
    next: string,
    expected: string | null,
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly error: Error }>;
  /** Where the ref is now, or null before the first checkpoint. */
  head(): Promise<string | null>;
  /**
   * Whether the commit `id` can be read: asked of a head another tole moved the ref to before it
   * becomes a parent (tole writes commits itself, and nothing else would notice a lost parent).
   * Without it every head is taken as readable.
   */
  reads?(id: string): Promise<boolean>;
}

/** The ref names a commit that cannot be read: the checkpoint fails, and its caller starts a new chain (lost-chain.ts). */
export class UnreadableHead extends Error {
  constructor(readonly id: string) {
    super(`the checkpoint ref names ${id}, whose commit cannot be read`);
  }
}

/** Tries of the compare-and-swap before a checkpoint fails: each lost one means another tole moved the ref. */
const REF_ATTEMPTS = 8;

/**
 * Makes a commit of `tree` on the ref's head and moves the ref to it. `newest` is the last
 * checkpoint this tole made (it saves reading the head). When another tole moved the ref
 * meanwhile, the commit is made again on the new head, a bounded number of times; if the head is
 * not this tole's newest (the ref was moved back), that one is kept as a second parent, so that
 * no checkpoint this tole made falls off the chain. A swap that fails with the head where it was
 * is a real failure, thrown as the ref reported it.
 */
export async function commitOnRef(
  ref: CheckpointRef,
  tree: string,
  message: string,
  newest: string | null,
): Promise<string> {
  let parents = [newest ?? (await ref.head())].filter((p): p is string => p !== null);
  for (let attempt = 1; ; attempt++) {
    const id = await ref.commit(tree, parents, message);
    const swapped = await ref.swap(id, parents[0] ?? null);
    if (swapped.ok) return id;
    const head = await ref.head();
    if (attempt >= REF_ATTEMPTS || head === (parents[0] ?? null)) throw swapped.error;
    if (head !== null && ref.reads && !(await ref.reads(head))) throw new UnreadableHead(head);
    parents = [head, newest].filter((p, i, all): p is string => p !== null && all.indexOf(p) === i);
  }
}
