import { bestMatches, type PreparedPath, preparePath } from './fuzzy-path-match';

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

/** The paths of one index, prepared once for fuzzy matching (a query then allocates nothing per path). */
export class PathIndex {
  private readonly targets: PreparedPath[];
  private readonly directories: ReadonlySet<string>;
  private readonly shortest: readonly WorkspacePathItem[];

  private constructor(files: readonly string[], directories: ReadonlySet<string>, firstCount: number) {
    this.directories = directories;
    this.targets = [...files, ...directories].map(preparePath);
    this.shortest = [...files, ...directories]
      .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
      .slice(0, firstCount)
      .map((path) => this.item(path));
  }

  /** An index of `files` (workspace-relative, `/`-separated) and every directory above them. */
  static of(files: readonly string[], firstCount = 50): PathIndex {
    const directories = new Set<string>();
    for (const file of files) {
      for (let at = file.indexOf('/'); at > 0; at = file.indexOf('/', at + 1)) directories.add(file.slice(0, at));
    }
    return new PathIndex(files, directories, firstCount);
  }

  get size(): number {
    return this.targets.length;
  }

  search(typed: string, limit: number): WorkspacePathItem[] {
    const query = typed.replace(/\/+$/, '');
    if (query === '') return this.shortest.slice(0, limit);
    return bestMatches(query, this.targets, limit).map((target) => this.item(target.path));
  }

  private item(path: string): WorkspacePathItem {
    return { path, directory: this.directories.has(path) };
  }
}
