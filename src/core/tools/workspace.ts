import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

/** Symlinks followed while resolving one path before giving up (Linux's own limit is 40). */
export const MAX_SYMLINK_HOPS = 40;

export type WorkspacePathErrorKind = 'outside-workspace' | 'unresolvable';

export interface WorkspacePathError {
  readonly kind: WorkspacePathErrorKind;
  /** The path as the model wrote it. */
  readonly requested: string;
  /** Words the model reads: what was wrong and what to do instead. */
  readonly message: string;
}

export interface WorkspacePath {
  /** The real path: absolute, every existing symlink resolved, inside the workspace root. */
  readonly absolutePath: string;
  /** `absolutePath` relative to the real workspace root ('.' for the root itself). */
  readonly relativePath: string;
  /** The real workspace root the path was checked against. */
  readonly root: string;
}

export type WorkspacePathResult =
  | { readonly ok: true; readonly path: WorkspacePath }
  | { readonly ok: false; readonly error: WorkspacePathError };

/**
 * Resolves `requested` (relative to `workspaceRoot`, or absolute) the way the operating system
 * would: component by component, following every symlink, `..` applied after the symlink before
 * it. Components that do not exist yet are kept as written, so a file about to be created
 * resolves too. The result is refused when its real path lies outside the real workspace root.
 *
 * The check and the later use are two steps: a symlink swapped in between is not caught here.
 */
export async function resolveWorkspacePath(workspaceRoot: string, requested: string): Promise<WorkspacePathResult> {
  try {
    const root = await realpath(workspaceRoot);
    const start = path.isAbsolute(requested) ? path.parse(requested).root : root;
    const absolutePath = await resolveComponents(start, splitComponents(requested));
    if (!isInside(root, absolutePath)) {
      return refuse('outside-workspace', requested, outsideMessage(requested, absolutePath, root));
    }
    return { ok: true, path: { absolutePath, relativePath: path.relative(root, absolutePath) || '.', root } };
  } catch (error) {
    return refuse('unresolvable', requested, `Cannot resolve path "${requested}": ${errorText(error)}.`);
  }
}

/** True when `candidate` is `root` or lies below it (both absolute and normalized). */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

function splitComponents(requested: string): string[] {
  return requested.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
}

/** Walks `components` from `start`, following symlinks; missing components are appended as written. */
async function resolveComponents(start: string, components: string[]): Promise<string> {
  const pending = [...components];
  let current = start;
  let hops = 0;
  let missing = false;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const candidate = path.join(current, part);
    const target: string | null | undefined = missing ? null : await symlinkTarget(candidate);
    if (target === undefined || target === null) {
      missing ||= target === undefined;
      current = candidate;
      continue;
    }
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) throw new Error(`more than ${MAX_SYMLINK_HOPS} symlinks (a symlink loop?)`);
    if (path.isAbsolute(target)) current = path.parse(target).root;
    pending.unshift(...splitComponents(target));
  }
  return current;
}

/** The link text when `candidate` is a symlink, null for anything else, undefined when it does not exist. */
async function symlinkTarget(candidate: string): Promise<string | null | undefined> {
  try {
    const stats = await lstat(candidate);
    return stats.isSymbolicLink() ? await readlink(candidate) : null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function outsideMessage(requested: string, absolutePath: string, root: string): string {
  const plain = path.isAbsolute(requested) && path.normalize(requested) === absolutePath;
  const where = plain ? 'is' : `resolves to ${absolutePath}, which is`;
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
