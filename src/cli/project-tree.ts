import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';

/** The folder of a workspace that tole reads to act (agent profiles, their prompts), all of it trusted or none. */
export const PROJECT_DIR = '.tole';

/** Bounds of the walk: a `.tole` larger than these cannot be trusted (and is not read to hash it). */
export const PROJECT_TREE_MAX_ENTRIES = 1000;
const PROJECT_TREE_MAX_BYTES = 8 * 1024 * 1024;
const PROJECT_TREE_MAX_DEPTH = 16;

/** One thing under `.tole`, by its path relative to the workspace ('/'-separated). */
export type TreeEntry =
  | { readonly kind: 'dir'; readonly path: string }
  | { readonly kind: 'file'; readonly path: string; readonly bytes: number }
  | { readonly kind: 'link'; readonly path: string; readonly target: string }
  | { readonly kind: 'other'; readonly path: string };

type ProjectTree =
  | { readonly ok: true; readonly entries: readonly TreeEntry[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Lists `.tole` under `workspace` without following a symlink (a link is an entry of its own,
 * by its target's text), in one stable order (names sorted by code unit, depth first), bounded
 * by PROJECT_TREE_MAX_*. Nothing is opened: a FIFO or a device is an `other` entry.
 * `skip`: real paths left out (tole's own sessions when `.tole` is tole's home).
 */
export function walkProjectTree(workspace: string, skip: readonly string[] = []): ProjectTree {
  const entries: TreeEntry[] = [];
  let bytes = 0;
  const visit = (relative: string, depth: number): string | null => {
    const absolute = join(workspace, relative);
    let stats: Stats;
    try {
      stats = lstatSync(absolute);
    } catch {
      return null;
    }
    if (entries.length >= PROJECT_TREE_MAX_ENTRIES)
      return `${join(workspace, PROJECT_DIR)} holds more than ${PROJECT_TREE_MAX_ENTRIES} entries`;
    if (stats.isSymbolicLink()) {
      entries.push({ kind: 'link', path: relative, target: readlinkSync(absolute) });
      return null;
    }
    if (stats.isFile()) {
      bytes += stats.size;
      if (bytes > PROJECT_TREE_MAX_BYTES)
        return `${join(workspace, PROJECT_DIR)} holds more than ${PROJECT_TREE_MAX_BYTES / 1024 / 1024} MB`;
      entries.push({ kind: 'file', path: relative, bytes: stats.size });
      return null;
    }
    if (!stats.isDirectory()) {
      entries.push({ kind: 'other', path: relative });
      return null;
    }
    if (skip.length > 0 && skip.includes(realpathSync(absolute))) return null;
    if (depth > PROJECT_TREE_MAX_DEPTH)
      return `${join(workspace, PROJECT_DIR)} is nested deeper than ${PROJECT_TREE_MAX_DEPTH} folders`;
    entries.push({ kind: 'dir', path: relative });
    const names = readdirSync(absolute).sort(byCodeUnit);
    for (const name of names) {
      const refused = visit(`${relative}/${name}`, depth + 1);
      if (refused !== null) return refused;
    }
    return null;
  };
  const refused = visit(PROJECT_DIR, 0);
  return refused === null ? { ok: true, entries } : { ok: false, reason: refused };
}

/**
 * The bytes of a file entry, opened without following a link and without blocking, and read only
 * while it is still a regular file (one swapped for a FIFO or a link since the walk is not read):
 * null then, and the caller refuses to trust.
 */
export function readTreeFile(workspace: string, entry: Extract<TreeEntry, { kind: 'file' }>): Buffer | null {
  let fd: number;
  try {
    fd = openSync(join(workspace, entry.path), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > PROJECT_TREE_MAX_BYTES) return null;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
