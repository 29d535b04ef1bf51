import type { LeftOut } from './restore-plan';
import type { GitTarget } from './git-command';
import { FileBlobs } from './file-blobs';
import { catFileObject, GitPipe, nulFields } from './git-pipe';
import { commitBody, type PipedRef } from './piped-ref';
import { knownChanges } from './known-changes';
import { type PackObject, writeObjectPack } from './object-pack';
import { editTree, type NewTree, parseTree, TREE_MODE, type TreeEntry, treeBody } from './tree-edit';

/** A checkpoint as its tole knows it: its commit, tree, and what it left out. */
export interface Vouched {
  readonly commit: string;
  readonly tree: string;
  readonly leftOut: readonly LeftOut[];
}

type KnownPathTake =
  | { readonly ok: true; readonly checkpoint: Vouched }
  | { readonly ok: false; readonly scan: string };

/**
 * Known-path checkpoints: the last checkpoint's tree with only the named paths replaced by their
 * bytes now, committed on the checkpoint ref by compare-and-swap, through gits that keep running
 * (git-pipe.ts) instead of one git per step. The new objects (the files' blobs, the trees on
 * their paths, the commit) are made by tole, as git makes them, and written in one pack
 * (object-pack.ts), durable before the ref names the commit. tole's index is not touched: the
 * next scan finds the files these checkpoints read by their stat data, as it finds any other
 * change.
 */
export class KnownPathWriter {
  private readonly objects: GitPipe;
  private readonly blobs: FileBlobs;
  private readonly ignores: GitPipe;
  /** Tree objects read or written lately (the trees on recently changed paths), by id. */
  private readonly cache = new Map<string, readonly TreeEntry[]>();
  /** Ends the gits once no checkpoint has needed them for a while (a session left open idle). */
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly target: GitTarget,
    private readonly ref: PipedRef,
  ) {
    this.objects = new GitPipe(target, ['cat-file', '--batch']);
    this.blobs = new FileBlobs(target);
    // check-ignore refuses literal pathspecs; a path that could read as pathspec magic (`:(...)`) is never asked (known-changes.ts).
    this.ignores = new GitPipe(target, ['check-ignore', '--stdin', '-z', '--verbose', '--non-matching', '--no-index'], {
      GIT_LITERAL_PATHSPECS: '0',
    });
  }

  /**
   * The checkpoint after `from` in which only `named` paths changed. Not ok (with the reason) when
   * only a scan can say (known-changes.ts, a tree the paths do not fit) or the ref is no longer
   * at `from` (another tole took a checkpoint, and may have changed files).
   */
  async take(
    from: Vouched,
    named: readonly Buffer[],
    maxFileBytes: number,
    message: (leftOut: readonly LeftOut[]) => string,
    signal: AbortSignal,
  ): Promise<KnownPathTake> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(), IDLE_MS);
    this.idle.unref();
    // Trees are edited as SHA-1 objects (tree-edit.ts), the hash of the directories tole makes.
    if (from.tree.length !== 40) return { ok: false, scan: 'the checkpoint directory is not a SHA-1 one' };
    const blobs = new Map<string, Buffer>();
    // The trees on the named paths are read while the files are: the edit then finds them here.
    const [known] = await Promise.all([
      knownChanges(this.target.workTree, named, from.leftOut, maxFileBytes, {
        hashFile: async (path, seen) => {
          const blob = await this.blobs.read(path, seen, 'sha1', signal);
          if (blob?.bytes) blobs.set(blob.id, blob.bytes);
          return blob?.id ?? null;
        },
        ignored: async (path) => {
          const [source] = await this.ignores.ask(Buffer.concat([path, NUL]), nulFields(4), signal);
          return source!.length > 0;
        },
      }),
      this.readTreesOn(from.tree, named, signal),
    ]);
    if (!known.ok) return { ok: false, scan: known.scan };
    const edited = await editTree({ read: (id) => this.readTree(id, signal) }, from.tree, known.changes);
    if (edited === null) return { ok: false, scan: 'a named path does not fit the last checkpoint tree' };
    const tree = edited.id;
    const body = Buffer.from(commitBody(tree, [from.commit], message(known.leftOut)), 'utf8');
    const commit = this.writeObjects(blobs, edited.trees, body);
    try {
      await this.ref.swap(commit, from.commit, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return { ok: false, scan: `the checkpoint ref moved (${(error as Error).message})` };
    }
    return { ok: true, checkpoint: { commit, tree, leftOut: known.leftOut } };
  }

  /** Ends the gits (a later checkpoint starts them again). */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    for (const pipe of [this.objects, this.blobs, this.ignores]) pipe.close();
  }

  private async readTree(id: string, signal: AbortSignal): Promise<readonly TreeEntry[]> {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const object = await this.objects.ask(`${id}\n`, catFileObject, signal);
    if (object === null || object.type !== 'tree') throw new Error(`checkpoint tree ${id} is missing`);
    return this.remember(id, parseTree(object.body));
  }

  /** Reads the trees on the way to each path into the cache (none that is not there). */
  private async readTreesOn(root: string, named: readonly Buffer[], signal: AbortSignal): Promise<void> {
    await Promise.all(
      named.map(async (path) => {
        let entries = await this.readTree(root, signal);
        for (const folder of path.toString('latin1').split('/').slice(0, -1)) {
          const sub = entries.find((e) => e.mode === TREE_MODE && e.name.toString('latin1') === folder);
          if (sub === undefined) return;
          entries = await this.readTree(sub.id, signal);
        }
      }),
    );
  }

  /**
   * Writes the checkpoint's new objects in one pack, durable when this returns (object-pack.ts),
   * and returns the commit's id: the blobs the trees name (a blob of a file whose bytes did not
   * change is already held), the trees, the commit.
   */
  private writeObjects(blobs: ReadonlyMap<string, Buffer>, trees: readonly NewTree[], commit: Buffer): string {
    const named = new Set(trees.flatMap((t) => t.entries.map((e) => e.id)));
    const objects: PackObject[] = [
      ...[...blobs].filter(([id]) => named.has(id)).map(([, body]): PackObject => ({ type: 'blob', body })),
      ...trees.map((t): PackObject => ({ type: 'tree', body: treeBody(t.entries) })),
      { type: 'commit', body: commit },
    ];
    const ids = writeObjectPack(this.target.gitDir, objects, 40);
    trees.forEach((t, i) => {
      const id = ids[ids.length - 1 - trees.length + i];
      if (id !== t.id) throw new Error(`tree ${t.id} was written as ${id}`);
    });
    for (const t of trees) this.remember(t.id, t.entries);
    return ids[ids.length - 1]!;
  }

  private remember(id: string, entries: readonly TreeEntry[]): readonly TreeEntry[] {
    this.cache.delete(id);
    this.cache.set(id, entries);
    if (this.cache.size > CACHED_TREES) this.cache.delete(this.cache.keys().next().value!);
    return entries;
  }
}

/** How long the gits stay after the last known-path checkpoint: a turn's calls come seconds apart. */
const IDLE_MS = 120_000;

/** Enough for the trees on a few hundred recently changed paths. */
const CACHED_TREES = 512;

const NUL = Buffer.from([0]);
