/**
 * Every git directory in the workspace, whether a command names it or not: a script, a Makefile,
 * `cd "$(cat where)"` or `find -execdir git diff` reach a nested repository no word of the command
 * names, and git there runs that repository's programs. The whole workspace is walked (ignored
 * folders, `.git` folders and the folders its symlinks lead to included; each real folder once),
 * up to a bound: past it tole cannot vouch for what it did not see, and says so; so does a folder
 * it cannot list (EACCES), or a symlink it cannot follow. Only names and stats: no git runs here.
 * A folder unchanged since the last walk is not listed again (git-folder-listings.ts); symlinks
 * and `.git` files are followed afresh on every walk, as where they lead can change with nothing
 * in the workspace changing.
 *
 * Hand-written rather than a glob library's walk: the walk must stop at a bound and say it did,
 * follow symlinks to folders once by their real path, and look at a folder's names as it lists
 * them (a folder holding HEAD and config is a git directory, bare or not).
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { folderListing } from './git-folder-listings';
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
    const listing = folderListing(dir);
    if ('code' in listing) {
      // A folder gone since its parent was listed holds nothing; one tole cannot list may hold a repository.
      if (!GONE.has(listing.code))
        found.unvouched.push(
          `${dir}, a folder tole could not list (${listing.code}), so it did not look for repositories in it`,
        );
      continue;
    }
    if (listing.gitDir) found.gitDirs.push(dir);
    if (listing.dotGit) {
      const gitDir = gitDirAt(dir, found);
      if (gitDir !== null) found.gitDirs.push(gitDir);
    }
    for (const entry of listing.children) {
      const child = path.join(dir, entry.name);
      // A symlink is followed afresh on every walk: where it leads can change with no change in this folder.
      const folder = entry.link ? realFolder(child, found) : child;
      if (folder !== null && !seen.has(folder)) {
        seen.add(folder);
        stack.push(folder);
      }
    }
  }
  return found;
}

/** Errors that say a path leads to no folder (gone, a file, a symlink loop), not that one is hidden. */
const GONE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/**
 * The real path of the folder the symlink `link` leads to; null when it leads to no folder. One
 * tole cannot follow (a folder on the way it may not enter) is told in `found`.
 */
function realFolder(link: string, found: OtherGitDirs): string | null {
  try {
    return statSync(link).isDirectory() ? realpathSync(link) : null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    if (!GONE.has(code))
      found.unvouched.push(
        `${link}, a symlink tole could not follow (${code}), so it did not look for repositories where it leads`,
      );
    return null;
  }
}
