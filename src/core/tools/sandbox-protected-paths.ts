/**
 * What a confined command may not change although it lies inside the writable workspace: the
 * files another program runs later, outside any sandbox. Git's metadata (hooks, config,
 * `core.fsmonitor`, submodules' and worktrees' git dirs) runs at the user's next `git status`;
 * `tole.config.json` and `.tole/` (profiles, prompts) at tole's next start. Each one found is
 * mounted read-only onto itself, and a mount point cannot be renamed (EBUSY), so neither can it
 * be moved aside and replaced.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Tole's own files in the workspace. */
const TOLE_FILES = ['tole.config.json', '.tole'] as const;
/** Submodules listed in `.gitmodules` are looked at up to this many. */
const MAX_SUBMODULES = 256;

/** The git dir a `.git` file points to (`gitdir: …`), resolved against the file's folder; null when unreadable. */
function gitdirOfFile(dotGit: string): string | null {
  try {
    const text = readFileSync(dotGit, 'utf8');
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    return match ? path.resolve(path.dirname(dotGit), match[1]!) : null;
  } catch {
    return null;
  }
}

/** The common dir of a worktree's git dir (`commondir`), when it has one. */
function commonDirOf(gitDir: string): string | null {
  try {
    return path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
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
    text = readFileSync(path.join(workspaceRoot, '.gitmodules'), 'utf8');
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

function isInside(candidate: string, root: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
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
    ...TOLE_FILES.map((name) => path.join(workspaceRoot, name)),
  ];
  const found = new Set<string>();
  for (const candidate of candidates) {
    if (!writableRoots.some((root) => isInside(candidate, root))) continue;
    if (existsSync(candidate)) found.add(candidate);
  }
  return [...found].sort((a, b) => a.split(path.sep).length - b.split(path.sep).length);
}
