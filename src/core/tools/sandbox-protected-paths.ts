/**
 * What a confined command may not change although it lies inside the writable workspace: the
 * files another program runs later, outside any sandbox. Git's metadata (hooks, config,
 * `core.fsmonitor`, submodules' and worktrees' git dirs) runs at the user's next `git status`;
 * `tole.config.json` and `.tole/` (profiles, prompts) at tole's next start. Repositories nested
 * in the workspace are protected alike, as far as a bounded search finds them. Each one found is
 * mounted read-only onto itself, and a mount point cannot be renamed (EBUSY), so neither can it
 * be moved aside and replaced.
 */
import { type Dirent, existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../regular-file';
import { isWithin } from './path-outside-workspace';

/** Tole's own files in the workspace. */
const TOLE_FILES = ['tole.config.json', '.tole'] as const;
/** Submodules listed in `.gitmodules` are looked at up to this many. */
const MAX_SUBMODULES = 256;
/** Nested repositories are looked for this many folders deep, in this many folders at most. */
const NESTED_MAX_DEPTH = 4;
const NESTED_MAX_DIRS = 1_000;
/** Folders not searched for nested repositories: build output and installed packages. */
const NOT_SEARCHED = new Set(['.git', 'node_modules', 'target', 'dist', 'build', '.venv', 'venv', '__pycache__']);

/** The git dir a `.git` file points to (`gitdir: …`), resolved against the file's folder; null when unreadable. */
function gitdirOfFile(dotGit: string): string | null {
  try {
    const text = readRegularFile(dotGit).toString('utf8');
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    return match ? path.resolve(path.dirname(dotGit), match[1]!) : null;
  } catch {
    return null;
  }
}

/** The common dir of a worktree's git dir (`commondir`), when it has one. */
function commonDirOf(gitDir: string): string | null {
  try {
    return path.resolve(gitDir, readRegularFile(path.join(gitDir, 'commondir')).toString('utf8').trim());
  } catch {
    return null;
  }
}

/** `.git` at `dir`, and when it is a file, the git dir and common dir it leads to. */
function gitPathsAt(dir: string): string[] {
  const dotGit = path.join(dir, '.git');
  let isFile: boolean;
  try {
    isFile = lstatSync(dotGit).isFile();
  } catch {
    return [];
  }
  if (!isFile) return [dotGit];
  const gitDir = gitdirOfFile(dotGit);
  const common = gitDir ? commonDirOf(gitDir) : null;
  return [dotGit, ...(gitDir ? [gitDir] : []), ...(common ? [common] : [])];
}

/** The working trees of the submodules `.gitmodules` names (`path = …`), inside the workspace. */
function submoduleDirs(workspaceRoot: string): string[] {
  let text: string;
  try {
    // Not a regular file (a FIFO planted there would block tole's thread forever): no submodules.
    text = readRegularFile(path.join(workspaceRoot, '.gitmodules')).toString('utf8');
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (const match of text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)) {
    if (dirs.length >= MAX_SUBMODULES) break;
    const dir = path.resolve(workspaceRoot, match[1]!);
    if (isInside(dir, workspaceRoot)) dirs.push(dir);
  }
  return dirs;
}

/**
 * Folders below the workspace root holding a `.git` of their own (a repository checked out
 * inside another, a vendored clone), breadth first, bounded in depth and count so that a call
 * in a large tree pays a few milliseconds at most; symlinks are not followed.
 */
function nestedRepoDirs(workspaceRoot: string): string[] {
  const found: string[] = [];
  let level = [workspaceRoot];
  let visited = 0;
  for (let depth = 0; depth <= NESTED_MAX_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (const dir of level) {
      if (visited >= NESTED_MAX_DIRS) return found;
      visited += 1;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      if (dir !== workspaceRoot && entries.some((entry) => entry.name === '.git')) found.push(dir);
      for (const entry of entries) {
        if (entry.isDirectory() && !NOT_SEARCHED.has(entry.name)) next.push(path.join(dir, entry.name));
      }
    }
    level = next;
  }
  return found;
}

/** True when `candidate` is `root` or lies below it; a folder named `..x` inside is inside. */
function isInside(candidate: string, root: string): boolean {
  return isWithin(path.resolve(candidate), path.resolve(root));
}

/**
 * Every existing path under one of `writableRoots` that must stay read-only, parents before
 * children (the order the mounts are made in). Paths outside the writable roots are read-only
 * already and left out.
 */
export function protectedPaths(workspaceRoot: string, writableRoots: readonly string[]): string[] {
  const candidates = [
    ...gitPathsAt(workspaceRoot),
    ...submoduleDirs(workspaceRoot).flatMap(gitPathsAt),
    ...nestedRepoDirs(workspaceRoot).flatMap(gitPathsAt),
    ...TOLE_FILES.map((name) => path.join(workspaceRoot, name)),
  ];
  const found = new Set<string>();
  for (const candidate of candidates) {
    if (!writableRoots.some((root) => isInside(candidate, root))) continue;
    if (existsSync(candidate)) found.add(candidate);
  }
  return [...found].sort((a, b) => a.split(path.sep).length - b.split(path.sep).length);
}
