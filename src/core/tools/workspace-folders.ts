/**
 * The folders whose programs tole never finds through its PATH: the folder it starts in and every
 * repository root above it. `cd repo/sub && tole` starts in `repo/sub`, but `repo/tools`,
 * `repo/node_modules/.bin` are the same repository's, written by whoever wrote the clone and by
 * confined commands. Found without running git (a git of such an entry would be the one asked): a
 * folder holding a `.git` of any kind (a folder, a file, a link, even a FIFO; only its name is
 * looked at) is a root. A `.git` file's `gitdir:` (a linked worktree, a submodule) is read as a
 * regular file only, never a FIFO or device; when the git dir it names (or that dir's `commondir`)
 * is a `.git` folder, the folder holding it is a working tree of the same repository (a linked
 * worktree's main one) and counts too.
 *
 * A repository root that is $HOME or above it (a dotfiles repository at $HOME, `/` made a
 * repository) is not taken: it would drop every entry under $HOME (`~/bin`, `~/.local/bin`), the
 * user's own programs, and those are the user's files, not a clone's. The start folder itself is
 * always taken.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../regular-file';
import { isWithin, realOrResolved } from './path-outside-workspace';

const MAX_POINTER_BYTES = 64 * 1024;

/** The text of the regular file at `file`, or null (absent, not a regular file, over 64 KiB, unreadable). */
function readText(file: string): string | null {
  try {
    // A pointer is one line: a repository's huge `.git` file is not read into memory.
    return readRegularFile(file, (stats) => stats.size <= MAX_POINTER_BYTES).toString('utf8');
  } catch {
    return null;
  }
}

/** The working trees a `.git` file's pointer leads to, besides the folder holding it. */
function treesPointedTo(dotGit: string): string[] {
  const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
  if (!pointer?.[1]) return [];
  const gitDir = path.resolve(path.dirname(dotGit), pointer[1]);
  const common = readText(path.join(gitDir, 'commondir'))?.trim();
  const dirs = common ? [gitDir, path.resolve(gitDir, common)] : [gitDir];
  return dirs.filter((dir) => path.basename(dir) === '.git').map((dir) => path.dirname(dir));
}

/** The repository roots at and above `dir` (absolute), nearest first. */
function rootsAbove(dir: string): string[] {
  const roots: string[] = [];
  for (let at = dir; ; at = path.dirname(at)) {
    const dotGit = path.join(at, '.git');
    let isFile = false;
    let found = false;
    try {
      isFile = lstatSync(dotGit).isFile();
      found = true;
    } catch {
      // No `.git` here (or not even looked at): not a root.
    }
    if (found) roots.push(at, ...(isFile ? treesPointedTo(dotGit) : []));
    if (path.dirname(at) === at) return roots;
  }
}

/** `start` and the repository roots above it, as written and as real paths, less those at or above $HOME and `/`. */
export function workspaceFolders(start: string, home: string | undefined): string[] {
  const realHome = home && path.isAbsolute(home) ? realOrResolved(home) : undefined;
  const starts = [...new Set([path.resolve(start), realOrResolved(start)])];
  const roots = starts.flatMap(rootsAbove).filter((root) => {
    const real = realOrResolved(root);
    return real !== '/' && !(realHome !== undefined && isWithin(realHome, real));
  });
  return [...new Set([...starts, ...roots])];
}
