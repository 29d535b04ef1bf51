import { execFile } from 'node:child_process';
import { watchForFifo } from '../core/fifo-watch';
import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { childEnv } from '../core/child-env';
import { withGitGuard } from '../core/git-guard-env';
import { type GitignoreRules, gitignoreRules } from './gitignore-rules';
import {
  PathIndex,
  SEARCHED_PER_SLICE,
  type WorkspacePathItem,
  type WorkspacePathSource,
} from '../tui/prompt/workspace-paths';

/** At most this many paths are indexed (a bigger tree gives its first ones). */
const MAX_INDEXED_PATHS = 200_000;
/** A fresh index is asked for when the last is older than this. */
const STALE_AFTER_MS = 5_000;
/** `git ls-files` gets this many bytes of output at most. */
const MAX_LISTING_BYTES = 64 * 1024 * 1024;

/**
 * The workspace's paths for the `@` popup, indexed off the key path: in a git repository what
 * `git ls-files --cached --others --exclude-standard` lists (ignored files left out), elsewhere a
 * walk that reads every `.gitignore` on the way. The index is built a slice at a time, so keys
 * typed meanwhile are read. The first index starts
 * when `@` is first typed; later ones when a search finds the index older than a few seconds, the
 * old one answering meanwhile.
 */
export class WorkspaceFileIndex implements WorkspacePathSource {
  private index: PathIndex | null = null;
  private indexedAtMs = -Infinity;
  private running: Promise<void> | null = null;
  private searching: { asked: AskedSearch; slices: Generator<void, WorkspacePathItem[]> } | null = null;
  private answer: { asked: AskedSearch; items: readonly WorkspacePathItem[] } | null = null;
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly root: string,
    private readonly nowMs: () => number,
    private readonly list: (root: string) => Promise<string[]>,
  ) {}

  /**
   * Nothing is read until the first `@` asks (the screen's start spawns nothing for it). `list`
   * gives the workspace's files (tests hand in their own).
   */
  static create(
    root: string,
    nowMs: () => number = Date.now,
    list: (root: string) => Promise<string[]> = listWorkspace,
  ): WorkspaceFileIndex {
    return new WorkspaceFileIndex(root, nowMs, list);
  }

  /** Resolves once the index running now (if any) is in: for tests and the bench. */
  async settled(): Promise<void> {
    await this.running;
  }

  /**
   * A workspace of one slice is searched at once. A bigger one a slice per turn of the event loop:
   * until its answer is in (listeners hear), the last answer stands, and a search for a newer
   * keystroke takes the place of one still running.
   */
  search(typed: string, limit: number): readonly WorkspacePathItem[] {
    return this.known(typed, limit) ?? this.answer?.items ?? [];
  }

  /** The answer to `typed` itself: a search still running in slices is finished now (a key that inserts a match waits for it). */
  searchNow(typed: string, limit: number): readonly WorkspacePathItem[] {
    const known = this.known(typed, limit);
    if (known !== null) return known;
    const running = this.searching;
    if (running === null) return this.answer?.items ?? [];
    for (let next = running.slices.next(); ; next = running.slices.next()) {
      if (next.done) return this.answered(running.asked, next.value);
    }
  }

  /**
   * The answer to `typed` when it is known now (no index, a workspace of one slice, or the search
   * already answered); otherwise null, with the search for it running in slices (started here
   * unless it already runs).
   */
  private known(typed: string, limit: number): readonly WorkspacePathItem[] | null {
    const index = this.index;
    if (index === null) return [];
    if (index.size <= SEARCHED_PER_SLICE) return index.search(typed, limit);
    const asked = { index, typed, limit };
    if (this.answer !== null && sameSearch(this.answer.asked, asked)) return this.answer.items;
    if (this.searching === null || !sameSearch(this.searching.asked, asked)) this.searchInSlices(asked);
    return null;
  }

  private searchInSlices(asked: AskedSearch): void {
    const searching = { asked, slices: asked.index.searchInSlices(asked.typed, asked.limit) };
    this.searching = searching;
    const step = () => {
      if (this.searching !== searching) return;
      const next = searching.slices.next();
      if (!next.done) return void setImmediate(step);
      this.answered(asked, next.value);
    };
    step();
  }

  private answered(asked: AskedSearch, items: readonly WorkspacePathItem[]): readonly WorkspacePathItem[] {
    this.searching = null;
    this.answer = { asked, items };
    for (const listener of this.listeners) listener();
    return items;
  }

  refresh(): void {
    if (this.running !== null || this.nowMs() - this.indexedAtMs < STALE_AFTER_MS) return;
    this.running = this.list(this.root)
      .then((files) =>
        PathIndex.build(
          files.filter((file) => !/[\u0000-\u001f\u007f]/.test(file)),
          () => new Promise((resolve) => setImmediate(resolve)),
        ),
      )
      .then((index) => {
        this.index = index;
        this.indexedAtMs = this.nowMs();
      })
      .catch(() => {
        // An unreadable workspace offers no paths; typing goes on as text.
        this.indexedAtMs = this.nowMs();
      })
      .finally(() => {
        this.running = null;
        for (const listener of this.listeners) listener();
      });
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

interface AskedSearch {
  readonly index: PathIndex;
  readonly typed: string;
  readonly limit: number;
}

function sameSearch(a: AskedSearch, b: AskedSearch): boolean {
  return a.index === b.index && a.typed === b.typed && a.limit === b.limit;
}

/**
 * How long git may take to list the workspace before it is killed and the walk lists it (a git seen
 * waiting on a FIFO, fifo-watch.ts, is killed at once; this bounds what that cannot see): git
 * blocks for good opening a `.gitignore` (or an exclude file) that is a FIFO, which an archive can
 * carry.
 */
const GIT_LISTING_TIMEOUT_MS = 10_000;

/** The workspace's files, relative and `/`-separated: git's list where it is a repository, else a walk. */
export async function listWorkspace(root: string, gitTimeoutMs = GIT_LISTING_TIMEOUT_MS): Promise<string[]> {
  const listed = await gitFiles(root, gitTimeoutMs);
  return listed ?? (await walk(root));
}

/**
 * `git ls-files` of the workspace (tracked and untracked, ignored left out); null outside a
 * repository, or when git did not answer within `timeoutMs` (it is killed).
 */
function gitFiles(root: string, timeoutMs: number): Promise<string[] | null> {
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      ['-c', 'core.quotepath=off', 'ls-files', '--cached', '--others', '--exclude-standard', '-z'],
      // With tole's guard: git ls-files runs the repository's core.fsmonitor, and this runs unconfined.
      {
        cwd: root,
        maxBuffer: MAX_LISTING_BYTES,
        encoding: 'utf8',
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        env: withGitGuard({ ...childEnv(process.env), GIT_OPTIONAL_LOCKS: '0' }),
      },
      (error, stdout) => {
        unwatch();
        if (error) return resolve(null);
        const files = stdout.split('\0').filter((file) => file !== '');
        resolve([...new Set(files)].slice(0, MAX_INDEXED_PATHS));
      },
    );
    // A git waiting on a FIFO (fifo-watch.ts) is killed at once: the walk, which reads no FIFO, lists the workspace.
    const unwatch = watchForFifo(child.pid, () => child.kill('SIGKILL'));
  });
}

/** A walk of the workspace that leaves out `.git`, `node_modules` and what each `.gitignore` on the way ignores. */
async function walk(root: string): Promise<string[]> {
  const files: string[] = [];
  const pending: Array<{ dir: string; rules: Array<{ base: string; rules: GitignoreRules }> }> = [
    { dir: '', rules: [] },
  ];
  while (pending.length > 0 && files.length < MAX_INDEXED_PATHS) {
    const { dir, rules: above } = pending.shift()!;
    const absolute = path.join(root, dir);
    const rules = [...above];
    const own = await regularFileText(path.join(absolute, '.gitignore'));
    if (own !== null) rules.push({ base: dir, rules: gitignoreRules(own) });
    const entries = await readdir(absolute, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      const directory = entry.isDirectory();
      if (ignoredBy(rules, relative, directory)) continue;
      if (directory) pending.push({ dir: relative, rules });
      else files.push(relative);
    }
  }
  return files.slice(0, MAX_INDEXED_PATHS);
}

/** A `.gitignore` larger than this is not read (a link to a huge file); what it would ignore is listed. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/**
 * The text of `file` when it is a regular file of at most MAX_GITIGNORE_BYTES; null otherwise.
 * Opened without waiting: a FIFO (which an archive can carry) would hold a plain open for good.
 */
async function regularFileText(file: string): Promise<string | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (handle === null) return null;
  try {
    const stat = await handle.stat();
    return stat.isFile() && stat.size <= MAX_GITIGNORE_BYTES ? await handle.readFile('utf8') : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

function ignoredBy(
  rules: ReadonlyArray<{ base: string; rules: GitignoreRules }>,
  relative: string,
  directory: boolean,
): boolean {
  // The deepest .gitignore that speaks of a path decides, as in git.
  let ignored = false;
  for (const { base, rules: own } of rules) {
    const verdict = own.ignores(base === '' ? relative : relative.slice(base.length + 1), directory);
    if (verdict !== null) ignored = verdict;
  }
  return ignored;
}
