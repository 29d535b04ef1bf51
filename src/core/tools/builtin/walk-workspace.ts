import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isFsError } from './file-io';

/** Directories the search tools never enter. */
export const SKIPPED_DIRECTORY_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);
/** Directory entries one walk looks at before it gives up, so a huge tree cannot stall a turn. */
export const WALK_MAX_ENTRIES = 200_000;

export interface WalkEntry {
  readonly absolutePath: string;
  /** Relative to the workspace root, with `/` separators. */
  readonly relativePath: string;
  readonly kind: 'file' | 'symlink';
}

export interface WalkSummary {
  /** False when the walk stopped early: the visitor said stop, the entry limit, or the signal. */
  readonly complete: boolean;
  readonly hitEntryLimit: boolean;
  readonly unreadableDirectories: number;
}

export type WalkVisitor = (entry: WalkEntry) => Promise<'continue' | 'stop'> | 'continue' | 'stop';

/**
 * Visits the files and symlinks under `start` (inside `root`) in sorted depth-first order,
 * skipping `.git` and `node_modules`. Symlinks are reported, never followed: a link cannot lead
 * the walk out of the workspace or round a loop.
 */
export async function walkWorkspace(
  root: string,
  start: string,
  signal: AbortSignal,
  visit: WalkVisitor,
): Promise<WalkSummary> {
  const state = { entries: 0, unreadableDirectories: 0 };
  const summary = (complete: boolean): WalkSummary => ({
    complete,
    hitEntryLimit: state.entries >= WALK_MAX_ENTRIES,
    unreadableDirectories: state.unreadableDirectories,
  });
  const stack = [start];
  while (stack.length > 0) {
    const directory = stack.pop() as string;
    const entries = await readSorted(directory, state);
    const subdirectories: string[] = [];
    for (const entry of entries) {
      state.entries += 1;
      if (signal.aborted || state.entries >= WALK_MAX_ENTRIES) return summary(false);
      const absolutePath = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORY_NAMES.has(entry.name)) subdirectories.push(absolutePath);
        continue;
      }
      const kind = entry.isSymbolicLink() ? 'symlink' : entry.isFile() ? 'file' : null;
      if (kind === null) continue;
      const relativePath = path.relative(root, absolutePath).split(path.sep).join('/');
      if ((await visit({ absolutePath, relativePath, kind })) === 'stop') return summary(false);
    }
    stack.push(...subdirectories.reverse());
  }
  return summary(true);
}

async function readSorted(directory: string, state: { unreadableDirectories: number }): Promise<Dirent[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    if (!isFsError(error)) throw error;
    state.unreadableDirectories += 1;
    return [];
  }
}
