import fuzzysort from 'fuzzysort';

/** A workspace path the `@` popup offers: a file, or a directory (shown and inserted with its `/`). */
export interface WorkspacePathItem {
  readonly path: string;
  readonly directory: boolean;
}

/** The workspace's paths, as the `@` completion asks for them. */
export interface WorkspacePathSource {
  /** The best `limit` matches of `typed` (fuzzy), best first; the shortest paths for nothing typed. Empty until indexed. */
  search(typed: string, limit: number): readonly WorkspacePathItem[];
  /** Asks for a fresh index in the background when the last is older than a few seconds; listeners hear when it lands. */
  refresh(): void;
  /** Calls `listener` when a new index is in; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** Paths prepared between two yields while an index is built, so keys typed meanwhile are read. */
const PREPARED_PER_SLICE = 2_000;
/** Paths searched between two yields of a search in slices (a few milliseconds of a keystroke). */
export const SEARCHED_PER_SLICE = 10_000;

/**
 * The paths of one index, each prepared once for fuzzysort (which ranks a match higher where its
 * letters follow one another, start a word, and come early in a shorter path). A keystroke's
 * search then allocates nothing per path.
 */
export class PathIndex {
  private constructor(
    private readonly targets: readonly Fuzzysort.Prepared[],
    private readonly directories: ReadonlySet<string>,
    private readonly shortest: readonly WorkspacePathItem[],
  ) {}

  /** An index of `files` (workspace-relative, `/`-separated) and every directory above them, built at once. */
  static of(files: readonly string[], firstCount = 50): PathIndex {
    const { all, directories } = withDirectories(files);
    return new PathIndex(all.map(prepared), directories, shortestOf(all, directories, firstCount));
  }

  /**
   * The same index built a slice at a time, `pause` awaited between slices (the screen hands in a
   * turn of its event loop): preparing 100,000 paths takes longer than a frame. The paths that
   * `previous` (the index this one replaces) had are taken from it as they were prepared.
   */
  static async build(
    files: readonly string[],
    pause: () => Promise<void>,
    previous: PathIndex | null = null,
    firstCount = 50,
  ): Promise<PathIndex> {
    const { all, directories } = withDirectories(files);
    const known = previous?.byPath() ?? new Map<string, Fuzzysort.Prepared>();
    const targets: Fuzzysort.Prepared[] = [];
    for (let from = 0; from < all.length; from += PREPARED_PER_SLICE) {
      for (const path of all.slice(from, from + PREPARED_PER_SLICE)) targets.push(known.get(path) ?? prepared(path));
      await pause();
    }
    return new PathIndex(targets, directories, shortestOf(all, directories, firstCount));
  }

  private byPath(): Map<string, Fuzzysort.Prepared> {
    return new Map(this.targets.map((target) => [target.target, target]));
  }

  get size(): number {
    return this.targets.length;
  }

  /** The best `limit` matches of `typed`, best first (ties: shorter, then by name). */
  search(typed: string, limit: number): WorkspacePathItem[] {
    const slices = this.searchInSlices(typed, limit);
    for (;;) {
      const step = slices.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same search, yielding after each `SEARCHED_PER_SLICE` paths: a big workspace's search is
   * run a slice per turn of the event loop, so a keystroke never holds the screen for all of it.
   * The answer is the generator's return value.
   *
   * fuzzysort weighs where in the path a match starts, which in a path is mostly how long its
   * folders' names are: of its best few, a path whose own name is what was typed goes first, then
   * one whose name starts with it, then one whose name holds it.
   */
  *searchInSlices(typed: string, limit: number): Generator<void, WorkspacePathItem[]> {
    const query = typed.replace(/\/+$/, '');
    if (query === '') return this.shortest.slice(0, limit);
    const lower = query.toLowerCase();
    let best: Ranked[] = [];
    for (let from = 0; from < this.targets.length; from += SEARCHED_PER_SLICE) {
      const found = fuzzysort.go(query, this.targets.slice(from, from + SEARCHED_PER_SLICE), {
        limit: limit * NAME_FIRST_AMONG,
      });
      const ranked = found.map((result) => ({ result, inName: nameMatch(result.target, lower) }));
      best = [...best, ...ranked].sort(better).slice(0, limit * NAME_FIRST_AMONG);
      if (from + SEARCHED_PER_SLICE < this.targets.length) yield;
    }
    return best.slice(0, limit).map(({ result }) => this.item(result.target));
  }

  private item(path: string): WorkspacePathItem {
    return { path, directory: this.directories.has(path) };
  }
}

function withDirectories(files: readonly string[]): { all: string[]; directories: Set<string> } {
  const directories = new Set<string>();
  for (const file of files) {
    for (let at = file.indexOf('/'); at > 0; at = file.indexOf('/', at + 1)) directories.add(file.slice(0, at));
  }
  return { all: [...files, ...directories], directories };
}

/**
 * A path prepared for fuzzysort, and matched once against its own first letter: fuzzysort works
 * out where the path's words start on a path's first match, and done here (off the key path) that
 * work is not paid by the first keystroke, which would otherwise do it for every path at once.
 */
function prepared(path: string): Fuzzysort.Prepared {
  const target = fuzzysort.prepare(path);
  const first = /\S/.exec(path)?.[0];
  if (first !== undefined) fuzzysort.single(first, target);
  return target;
}

/** The `count` shortest paths (ties by name), for an `@` with nothing typed after it. */
function shortestOf(all: readonly string[], directories: ReadonlySet<string>, count: number): WorkspacePathItem[] {
  const kept: string[] = [];
  for (const path of all) {
    if (kept.length === count && !shorter(path, kept[count - 1]!)) continue;
    let at = kept.length;
    while (at > 0 && shorter(path, kept[at - 1]!)) at--;
    kept.splice(at, 0, path);
    if (kept.length > count) kept.pop();
  }
  return kept.map((path) => ({ path, directory: directories.has(path) }));
}

/** fuzzysort's best (this many times the rows asked for) are ranked again with the path's own name first. */
const NAME_FIRST_AMONG = 4;

interface Ranked {
  readonly result: Fuzzysort.Result;
  /** 3: the path's own name (or its name before the first `.`) is the query; 2: it starts with it; 1: it holds it; 0: none. */
  readonly inName: number;
}

function nameMatch(path: string, lowerQuery: string): number {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.indexOf('.', 1);
  if (name === lowerQuery || (dot > 0 && name.slice(0, dot) === lowerQuery)) return 3;
  if (name.startsWith(lowerQuery)) return 2;
  return name.includes(lowerQuery) ? 1 : 0;
}

function better(a: Ranked, b: Ranked): number {
  if (a.inName !== b.inName) return b.inName - a.inName;
  if (a.result.score !== b.result.score) return b.result.score - a.result.score;
  return shorter(a.result.target, b.result.target) ? -1 : 1;
}

function shorter(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}
