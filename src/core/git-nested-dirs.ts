/**
 * Every git directory in the workspace, whether a command names it or not: a script, a Makefile,
 * `cd "$(cat where)"` or `find -execdir git diff` reach a nested repository no word of the command
 * names, and git there runs that repository's programs. The whole workspace is walked (ignored
 * folders, `.git` folders and the folders its symlinks lead to included; each real folder once),
 * up to a bound: past it tole cannot vouch for what it did not see, and says so. Only names and
 * stats: no git runs here.
 *
 * Hand-written rather than a glob library's walk: the walk must stop at a bound and say it did,
 * follow symlinks to folders once by their real path, and look at a folder's names as it lists
 * them (a folder holding HEAD and config is a git directory, bare or not).
 */
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { gitDirAt, type OtherGitDirs } from './git-other-dirs';

/** The most folders looked at in one walk; a workspace holding more is one tole cannot vouch for. */
export const WORKSPACE_FOLDERS_MAX = 10_000;

/** The git directories in `root` (a real path) and what tole could not look into. */
export function workspaceGitDirs(root: string, foldersMax = WORKSPACE_FOLDERS_MAX): OtherGitDirs {
  const found: OtherGitDirs = { gitDirs: [], unvouched: [] };
  const seen = new Set([root]);
  const stack = [root];
  for (let folders = 0; stack.length > 0; folders++) {
    if (folders === foldersMax) {
      found.unvouched.push(
        `the workspace holds more than ${foldersMax} folders (with those its symlinks lead to), so tole did not look ` +
          'for nested repositories in all of them',
      );
      break;
    }
    const dir = stack.pop()!;
    const entries = direntsOf(dir);
    const names = new Set(entries.map((entry) => entry.name));
    if (names.has('HEAD') && names.has('config')) found.gitDirs.push(dir);
    if (names.has('.git')) {
      const gitDir = gitDirAt(dir, found);
      if (gitDir !== null) found.gitDirs.push(gitDir);
    }
    for (const entry of entries) {
      const child = path.join(dir, entry.name);
      const folder = entry.isDirectory() ? child : entry.isSymbolicLink() ? realFolder(child) : null;
      if (folder !== null && !seen.has(folder)) {
        seen.add(folder);
        stack.push(folder);
      }
    }
  }
  return found;
}

function direntsOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** The real path of the folder the symlink `link` leads to; null when it leads to no folder. */
function realFolder(link: string): string | null {
  try {
    return statSync(link).isDirectory() ? realpathSync(link) : null;
  } catch {
    return null;
  }
}
