import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FileIdentity } from '../workspace';
import { type CheckedDirectory, directoryItself, inDirectory, openDirectoryChecked } from './checked-open';
import { isFsError } from './file-io';

/** Directories the search tools never enter. */
const SKIPPED_DIRECTORY_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);
/** Directory entries one walk looks at before it gives up, so a huge tree cannot stall a turn. */
const WALK_MAX_ENTRIES = 200_000;

export interface WalkEntry {
  readonly absolutePath: string;
  /** Relative to the walk's root, with `/` separators. */
  readonly relativePath: string;
  /** `special`: a FIFO, socket or device, never opened. */
  readonly kind: 'file' | 'symlink' | 'special';
  /** The path to open it by: through its directory's descriptor where the system allows it. */
  readonly openPath: string;
}

interface WalkSummary {
  /** False when the walk stopped early: the visitor said stop, the entry limit, or the signal. */
  readonly complete: boolean;
  readonly hitEntryLimit: boolean;
  readonly unreadableDirectories: number;
}

type WalkVisitor = (entry: WalkEntry) => Promise<'continue' | 'stop'> | 'continue' | 'stop';

interface PendingDirectory extends FileIdentity {
  readonly absolutePath: string;
}

/**
 * Visits the files, symlinks and special files under the checked directory `start` (inside
 * `root`) in sorted depth-first order, skipping `.git` and `node_modules`. Symlinks are
 * reported, never followed; each directory is opened with O_NOFOLLOW and checked to be the one
 * its parent listed (a directory swapped for a symlink during the walk is counted unreadable, not
 * entered), and its entries are named through its descriptor. The visitor is called while the
 * entry's directory is open.
 */
export async function walkWorkspace(
  root: string,
  start: PendingDirectory,
  signal: AbortSignal,
  visit: WalkVisitor,
): Promise<WalkSummary> {
  const state = { entries: 0, unreadableDirectories: 0 };
  const summary = (complete: boolean): WalkSummary => ({
    complete,
    hitEntryLimit: state.entries >= WALK_MAX_ENTRIES,
    unreadableDirectories: state.unreadableDirectories,
  });
  const stack: PendingDirectory[] = [start];
  while (stack.length > 0) {
    const pending = stack.pop() as PendingDirectory;
    const directory = await openOrCount(pending, state);
    if (directory === null) continue;
    try {
      const entries = await readSorted(directory, state);
      const subdirectories: PendingDirectory[] = [];
      for (const entry of entries) {
        state.entries += 1;
        if (signal.aborted || state.entries >= WALK_MAX_ENTRIES) return summary(false);
        const absolutePath = path.join(directory.absolutePath, entry.name);
        const openPath = inDirectory(directory, entry.name);
        const kind = await kindOf(entry, openPath);
        if (kind === 'directory') {
          const below = SKIPPED_DIRECTORY_NAMES.has(entry.name) ? null : await identityOf(openPath, absolutePath);
          if (below !== null) subdirectories.push(below);
          continue;
        }
        if (kind === null) continue;
        const relativePath = path.relative(root, absolutePath).split(path.sep).join('/');
        if ((await visit({ absolutePath, relativePath, kind, openPath })) === 'stop') return summary(false);
      }
      stack.push(...subdirectories.reverse());
    } finally {
      await directory.handle.close();
    }
  }
  return summary(true);
}

async function openOrCount(
  pending: PendingDirectory,
  state: { unreadableDirectories: number },
): Promise<CheckedDirectory | null> {
  try {
    return await openDirectoryChecked(pending.absolutePath, pending.absolutePath, pending);
  } catch (error) {
    if (!isFsError(error)) throw error;
    state.unreadableDirectories += 1;
    return null;
  }
}

/**
 * What an entry is, from its type in the listing, or from lstat where the file system does not say
 * (DT_UNKNOWN); null when it vanished.
 */
async function kindOf(entry: Dirent, openPath: string): Promise<WalkEntry['kind'] | 'directory' | null> {
  const known = typeOfEntry(entry);
  if (known !== null) return known;
  try {
    const stats = await lstat(openPath);
    return typeOfEntry(stats) ?? 'special';
  } catch (error) {
    if (isFsError(error)) return null;
    throw error;
  }
}

function typeOfEntry(entry: Dirent | Stats): WalkEntry['kind'] | 'directory' | null {
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isFile()) return 'file';
  const special = entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice();
  return special ? 'special' : null;
}

/** The identity of a directory entry listed as a directory, or null when it is gone or changed. */
async function identityOf(openPath: string, absolutePath: string): Promise<PendingDirectory | null> {
  try {
    const stats = await lstat(openPath, { bigint: true });
    return stats.isDirectory() ? { absolutePath, dev: stats.dev, ino: stats.ino } : null;
  } catch (error) {
    if (isFsError(error)) return null;
    throw error;
  }
}

async function readSorted(directory: CheckedDirectory, state: { unreadableDirectories: number }): Promise<Dirent[]> {
  try {
    const entries = await readdir(directoryItself(directory), { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    if (!isFsError(error)) throw error;
    state.unreadableDirectories += 1;
    return [];
  }
}
