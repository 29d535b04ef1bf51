import type { BigIntStats } from 'node:fs';
import path from 'node:path';
import { toolFs } from './tool-fs';

/** Symlinks followed while resolving one path before giving up (Linux's own limit is 40). */
const MAX_SYMLINK_HOPS = 40;
/** Components one resolution walks (the request and every link text together), so no path can stall it. */
const MAX_PATH_COMPONENTS = 4096;

type WorkspacePathErrorKind = 'outside-workspace' | 'unresolvable';

interface WorkspacePathError {
  readonly kind: WorkspacePathErrorKind;
  /** The path as the model wrote it. */
  readonly requested: string;
  /** Words the model reads: what was wrong and what to do instead. */
  readonly message: string;
}

/** Which file the walk checked, by identity: an open descriptor must name this same one. */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/** What the walk found at the path: the kind comes from lstat, never from following a link. */
type FoundEntry =
  | { readonly kind: 'missing' }
  | ({ readonly kind: 'file' | 'directory' | 'symlink' | 'special' } & FileIdentity);

export interface WorkspacePath {
  /** The real path: absolute, every symlink on the way resolved, inside the workspace root. */
  readonly absolutePath: string;
  /** `absolutePath` relative to the real workspace root ('.' for the root itself). */
  readonly relativePath: string;
  /** The real workspace root the path was checked against. */
  readonly root: string;
  /** What is at `absolutePath` now ('symlink' only when the last link was asked not to be followed). */
  readonly found: FoundEntry;
  /**
   * The deepest directory of the path that exists: the parent of `absolutePath` when that exists,
   * else the last one before the missing ones (the root itself when the path is the root).
   */
  readonly existingDirectory: { readonly absolutePath: string } & FileIdentity;
  /** The components below `existingDirectory` that do not exist yet: plain names, never `..`. */
  readonly missing: readonly string[];
}

type WorkspacePathResult =
  | { readonly ok: true; readonly path: WorkspacePath }
  | { readonly ok: false; readonly error: WorkspacePathError };

export interface ResolveOptions {
  /**
   * False: a symlink as the last component is the answer itself (delete_path removes the link),
   * unless the path ends in `/` or `/.`.
   */
  readonly followLastSymlink?: boolean;
}

/** A path the walk refused: the kind and the words for the model. */
class Refusal extends Error {
  constructor(
    readonly kind: WorkspacePathErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Resolves `requested` (relative to `workspaceRoot`, or absolute and inside it) one component at
 * a time from the real workspace root, never leaving it: `..` goes to the real parent of the
 * directory reached so far and is refused at the root; a symlink is followed only when its text
 * leads to a place inside (an absolute target must name the root), each hop checked the same way,
 * at most `MAX_SYMLINK_HOPS`; a missing component ends the walk only when every later one is a
 * plain name (`nope/../x` is refused, as the operating system would, never read as `x`); a
 * component below a file is refused. NUL bytes are refused.
 *
 * The answer is a checked path and the identity (dev, ino) of what was found; the tools open it
 * with `openChecked` (file-io), which makes sure the descriptor names that very file.
 */
export async function resolveWorkspacePath(
  workspaceRoot: string,
  requested: string,
  options: ResolveOptions = {},
): Promise<WorkspacePathResult> {
  try {
    if (requested.includes('\0')) {
      throw new Refusal('unresolvable', `Path ${JSON.stringify(requested)} contains a NUL byte; no file name can.`);
    }
    const root = await toolFs().realpath(workspaceRoot);
    if (root !== path.resolve(workspaceRoot)) throw new Refusal('unresolvable', rootMovedMessage(workspaceRoot, root));
    // A trailing `/` or `/.` names the directory a last link points to, as it does for the system.
    const followLast = (options.followLastSymlink ?? true) || /[\\/]\.?$/.test(requested);
    const walk = new Walk(root, requested, followLast);
    const components = path.isAbsolute(requested) ? belowRoot(root, requested, requested) : splitComponents(requested);
    return { ok: true, path: await walk.run(components) };
  } catch (error) {
    if (error instanceof Refusal) return refuse(error.kind, requested, error.message);
    return refuse('unresolvable', requested, `Cannot resolve path "${requested}": ${errorText(error)}.`);
  }
}

/** True when `candidate` is `root` or lies below it (both absolute and normalized). */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/** The subject the approval prompt shows: the resolved path, and the written one when they differ. */
export function shownTarget(resolved: WorkspacePath, requested: string): string {
  const written = path.normalize(requested).replace(/\/+$/, '') || '.';
  const same = written === resolved.relativePath || written === resolved.absolutePath;
  return same ? resolved.relativePath : `${resolved.relativePath} (written as ${requested})`;
}

function splitComponents(text: string): string[] {
  return text.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
}

/** An absolute path's components below the root, or a refusal when it does not start with the root. */
function belowRoot(root: string, absolute: string, requested: string): string[] {
  const rootParts = splitComponents(root);
  const parts = splitComponents(absolute);
  const starts = rootParts.every((part, index) => parts[index] === part);
  if (!starts) throw new Refusal('outside-workspace', outsideMessage(requested, absolute, root));
  return parts.slice(rootParts.length);
}

/** One resolution: the chain of real directories from the root, walked down and up. */
class Walk {
  /** Real directories from the root to where the walk is, each with the identity lstat gave. */
  private chain: Array<{ absolutePath: string } & FileIdentity> = [];
  private hops = 0;
  private steps = 0;

  constructor(
    private readonly root: string,
    private readonly requested: string,
    private readonly followLastSymlink: boolean,
  ) {}

  async run(components: string[]): Promise<WorkspacePath> {
    const rootStats = await toolFs().lstat(this.root, { bigint: true });
    this.chain = [{ absolutePath: this.root, ...identity(rootStats) }];
    const pending = [...components];
    while (pending.length > 0) {
      this.steps += 1;
      if (this.steps > MAX_PATH_COMPONENTS) throw new Refusal('unresolvable', this.tooLong());
      const part = pending.shift() as string;
      if (part === '..') {
        this.up();
        continue;
      }
      const here = this.current();
      const candidate = path.join(here.absolutePath, part);
      const stats = await lstatOrNull(candidate);
      if (stats === null) return this.endAtMissing(part, pending);
      const last = pending.length === 0;
      if (stats.isSymbolicLink() && (!last || this.followLastSymlink)) {
        pending.unshift(...(await this.linkComponents(candidate)));
        continue;
      }
      if (last) return this.answer(candidate, foundOf(stats), here, []);
      if (!stats.isDirectory()) throw new Refusal('unresolvable', this.notADirectory(candidate));
      this.chain.push({ absolutePath: candidate, ...identity(stats) });
    }
    const reached = this.current();
    const parent = this.chain.length > 1 ? this.chain[this.chain.length - 2] : reached;
    return this.answer(reached.absolutePath, { kind: 'directory', dev: reached.dev, ino: reached.ino }, parent, []);
  }

  private current(): { absolutePath: string } & FileIdentity {
    return this.chain[this.chain.length - 1];
  }

  private up(): void {
    if (this.chain.length === 1) {
      throw new Refusal('outside-workspace', outsideMessage(this.requested, path.dirname(this.root), this.root));
    }
    this.chain.pop();
  }

  /** The components a link's text stands for, from where the walk is (or from the root, for an absolute text inside). */
  private async linkComponents(link: string): Promise<string[]> {
    this.hops += 1;
    if (this.hops > MAX_SYMLINK_HOPS) {
      throw new Refusal(
        'unresolvable',
        `Cannot resolve path "${this.requested}": more than ${MAX_SYMLINK_HOPS} symlinks (a symlink loop?). Use a path without the looping link.`,
      );
    }
    const text = await toolFs().readlink(link);
    if (text.includes('\0') || text === '')
      throw new Refusal('unresolvable', `The symlink ${link} has no usable target.`);
    if (!path.isAbsolute(text)) return splitComponents(text);
    // An absolute target must name the root; the rest (`..` included) is walked from there.
    const below = belowRoot(this.root, text, this.requested);
    this.chain = [this.chain[0]];
    return below;
  }

  /** A component does not exist: fine when everything after it is a plain name (to be created). */
  private endAtMissing(part: string, rest: string[]): WorkspacePath {
    const missing = [part, ...rest];
    if (rest.includes('..')) {
      throw new Refusal(
        'unresolvable',
        `Path "${this.requested}": ${path.relative(this.root, path.join(this.current().absolutePath, part)) || part} does not exist, so the ".." after it cannot be resolved. Write the path without going through a missing directory.`,
      );
    }
    const here = this.current();
    return this.answer(path.join(here.absolutePath, ...missing), { kind: 'missing' }, here, missing);
  }

  private answer(
    absolutePath: string,
    found: FoundEntry,
    existingDirectory: { absolutePath: string } & FileIdentity,
    missing: string[],
  ): WorkspacePath {
    if (!isInside(this.root, absolutePath)) {
      throw new Error(`assert: the walk reached ${absolutePath} outside ${this.root}`);
    }
    const relativePath = path.relative(this.root, absolutePath) || '.';
    return { absolutePath, relativePath, root: this.root, found, existingDirectory, missing };
  }

  private notADirectory(candidate: string): string {
    const shown = path.relative(this.root, candidate);
    return `Path "${this.requested}": ${shown} is a file, not a directory, so nothing can lie below it. Check the path with list_dir.`;
  }

  private tooLong(): string {
    return `Cannot resolve path "${this.requested}": more than ${MAX_PATH_COMPONENTS} components with its symlinks. Use a shorter path.`;
  }
}

function identity(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino };
}

function foundOf(stats: BigIntStats): FoundEntry {
  const kind = stats.isSymbolicLink()
    ? 'symlink'
    : stats.isDirectory()
      ? 'directory'
      : stats.isFile()
        ? 'file'
        : 'special';
  return { kind, ...identity(stats) };
}

/** lstat, or null when nothing is there. ENOTDIR cannot happen: every parent was checked to be a directory. */
async function lstatOrNull(candidate: string): Promise<BigIntStats | null> {
  try {
    return await toolFs().lstat(candidate, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The root tole was given is symlink-resolved; one that resolves elsewhere now was moved or swapped for a link. */
function rootMovedMessage(workspaceRoot: string, root: string): string {
  return (
    `The workspace ${workspaceRoot} now leads to ${root}: it was moved or replaced by a symlink since tole started. ` +
    'File tools are stopped for this session; restart tole in the workspace.'
  );
}

function outsideMessage(requested: string, absolutePath: string, root: string): string {
  const plain = path.isAbsolute(requested) && path.normalize(requested) === absolutePath;
  const where = plain ? 'is' : `leads to ${absolutePath}, which is`;
  return (
    `Path "${requested}" ${where} outside the workspace ${root}. ` +
    'File tools only work inside the workspace: use a path relative to the workspace root.'
  );
}

function refuse(kind: WorkspacePathErrorKind, requested: string, message: string): WorkspacePathResult {
  return { ok: false, error: { kind, requested, message } };
}

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
