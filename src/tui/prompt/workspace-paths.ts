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
  /** The same, for `typed` itself: where `search` still gives an older query's answer, this one waits for its own. */
  searchNow(typed: string, limit: number): readonly WorkspacePathItem[];
  /** Asks for a fresh index in the background when the last is older than a few seconds; listeners hear when it lands. */
  refresh(): void;
  /** Calls `listener` when a new index is in; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** Paths lower-cased between two yields while an index is built, so keys typed meanwhile are read. */
const INDEXED_PER_SLICE = 5_000;
/** Paths searched between two yields of a search in slices (a few milliseconds of a keystroke). */
export const SEARCHED_PER_SLICE = 10_000;

/**
 * The paths of one index as plain strings, beside a lower-case copy (accents taken off as
 * fuzzysort takes them; an ASCII path shares its string when it has no capitals). A keystroke's
 * search keeps the paths that hold the typed letters in order, and fuzzysort ranks a short list of
 * them, prepared for that search alone: fuzzysort's prepared form of every path would hold about
 * 1.2 KB a path (120 MB for 100,000) and take a second of CPU to build.
 */
export class PathIndex {
  private constructor(
    private readonly paths: readonly string[],
    private readonly lower: readonly string[],
    private readonly directories: ReadonlySet<string>,
    private readonly shortest: readonly WorkspacePathItem[],
  ) {}

  /** An index of `files` (workspace-relative, `/`-separated) and every directory above them, built at once. */
  static of(files: readonly string[], firstCount = 50): PathIndex {
    const { all, directories } = withDirectories(files);
    return new PathIndex(all, all.map(lowerOf), directories, shortestOf(all, directories, firstCount));
  }

  /**
   * The same index built a slice at a time, `pause` awaited between slices (the screen hands in a
   * turn of its event loop). Lower-casing is cheap enough that a rebuild does it all again: looking
   * the old index's copies up cost more than making them.
   */
  static async build(files: readonly string[], pause: () => Promise<void>, firstCount = 50): Promise<PathIndex> {
    const { all, directories } = withDirectories(files);
    const lower: string[] = [];
    for (let from = 0; from < all.length; from += INDEXED_PER_SLICE) {
      for (const path of all.slice(from, from + INDEXED_PER_SLICE)) lower.push(lowerOf(path));
      await pause();
    }
    return new PathIndex(all, lower, directories, shortestOf(all, directories, firstCount));
  }

  get size(): number {
    return this.paths.length;
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
   * A path is a candidate when its lower-case copy holds the typed letters in order (what
   * fuzzysort needs of a match at all). Of the candidates a short list is kept, a path whose own
   * name is what was typed first, then one whose name starts with it, then one whose name holds
   * it, then one whose path holds it whole, then one with more typed letters side by side, shorter first; fuzzysort ranks that list (it weighs
   * letters that follow one another, start a word and come early in a shorter path), the own
   * name still first. Ranking every candidate with fuzzysort would cost about 12 µs a path: a
   * one-letter query's 100,000 candidates would take over a second.
   */
  *searchInSlices(typed: string, limit: number): Generator<void, WorkspacePathItem[]> {
    const query = typed.replace(/\/+$/, '');
    if (query === '') return this.shortest.slice(0, limit);
    const wanted = lowerOf(query);
    const words = wanted.split(/\s+/).filter((word) => word !== '');
    const room = Math.max(limit * SHORT_LIST_PER_ROW, MIN_SHORT_LIST);
    let kept: Candidate[] = [];
    for (let from = 0; from < this.paths.length; from += SEARCHED_PER_SLICE) {
      const to = Math.min(from + SEARCHED_PER_SLICE, this.paths.length);
      for (let at = from; at < to; at++) {
        const lower = this.lower[at]!;
        let together = 0;
        for (const word of words) {
          const found = inOrder(lower, word);
          if (found < 0) break;
          together += found + 1;
        }
        if (together < words.length) continue;
        const path = this.paths[at]!;
        kept.push({ path, inName: nameMatch(lower, wanted), whole: lower.includes(wanted), together });
      }
      if (kept.length > room * 2) kept = kept.sort(likelier).slice(0, room);
      if (to < this.paths.length) yield;
    }
    const short = kept.sort(likelier).slice(0, room);
    const inName = new Map(short.map((candidate) => [candidate.path, candidate.inName]));
    const found = fuzzysort.go(
      query,
      short.map((candidate) => fuzzysort.prepare(candidate.path)),
    );
    const ranked = found.map((result) => ({ result, inName: inName.get(result.target) ?? 0 }));
    return ranked
      .sort(better)
      .slice(0, limit)
      .map(({ result }) => this.item(result.target));
  }

  private item(path: string): WorkspacePathItem {
    return { path, directory: this.directories.has(path) };
  }
}

/** The short list fuzzysort ranks holds this many paths for each row asked for (and at least `MIN_SHORT_LIST`). */
const SHORT_LIST_PER_ROW = 16;
const MIN_SHORT_LIST = 128;

interface Candidate {
  readonly path: string;
  readonly inName: number;
  /** The path holds the typed text whole (fuzzysort ranks such a match high). */
  readonly whole: boolean;
  /** Typed letters found right after the one before them, as `inOrder` finds them (fuzzysort ranks runs high). */
  readonly together: number;
}

function likelier(a: Candidate, b: Candidate): number {
  if (a.inName !== b.inName) return b.inName - a.inName;
  if (a.whole !== b.whole) return a.whole ? -1 : 1;
  if (a.together !== b.together) return b.together - a.together;
  return shorter(a.path, b.path) ? -1 : 1;
}

/**
 * -1 when `lower` does not hold `word`'s characters in order; else how many of them, each taken
 * at its first place after the one before, come right after it.
 */
function inOrder(lower: string, word: string): number {
  let at = -1;
  let together = 0;
  for (let i = 0; i < word.length; i++) {
    const next = lower.indexOf(word[i]!, at + 1);
    if (next < 0) return -1;
    if (next === at + 1 && i > 0) together++;
    at = next;
  }
  return together;
}

/** Lower case with accents off Latin letters, as fuzzysort compares; an ASCII path without capitals is its own copy. */
function lowerOf(path: string): string {
  const lower = path.toLowerCase();
  if (!/[^\u0000-\u007f]/.test(lower)) return lower === path ? path : lower;
  return lower.replace(/\p{Script=Latin}+/gu, (latin) => latin.normalize('NFD')).replace(/[\u0300-\u036f]/g, '');
}

function withDirectories(files: readonly string[]): { all: string[]; directories: Set<string> } {
  const directories = new Set<string>();
  for (const file of files) {
    for (let at = file.indexOf('/'); at > 0; at = file.indexOf('/', at + 1)) directories.add(file.slice(0, at));
  }
  return { all: [...files, ...directories], directories };
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

interface Ranked {
  readonly result: Fuzzysort.Result;
  /** 3: the path's own name (or its name before the first `.`) is the query; 2: it starts with it; 1: it holds it; 0: none. */
  readonly inName: number;
}

function nameMatch(lowerPath: string, lowerQuery: string): number {
  const name = lowerPath.slice(lowerPath.lastIndexOf('/') + 1);
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
