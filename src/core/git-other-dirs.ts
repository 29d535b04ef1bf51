/**
 * The git directories besides the repository's own whose config a command the model runs can
 * bring in: its submodules' (`<common dir>/modules/**`, entered by `git status` and `git diff` at
 * the top), its other worktrees' (`<common dir>/worktrees/*`, entered by `git -C ../other`), and
 * the nested repositories a command names (`cd sub && git diff`, `git -C sub`, `GIT_DIR=sub/.git`):
 * each word of the command that names a folder in the workspace is looked at, and every `.git` from
 * it up to the workspace root counts (git-nested-dirs.ts finds the ones no word names). Only names
 * and stats: no git runs here.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from './regular-file';

/** Git directories found, and what tole could not look into (one line each). */
export interface OtherGitDirs {
  readonly gitDirs: string[];
  readonly unvouched: string[];
}

/** The most folders looked at under `modules/`, and the most words of a command looked at. */
const MODULE_FOLDERS_MAX = 10_000;
const WORDS_MAX = 500;
/** The most folders a command's words name that are looked at. */
const FOLDERS_MAX = 200;
/** Folders of a git directory that hold no git directory of a submodule. */
const NO_MODULES_IN = new Set(['objects', 'refs', 'logs', 'hooks', 'info', 'lfs']);

const isGitDir = (dir: string): boolean => existsSync(path.join(dir, 'HEAD')) && existsSync(path.join(dir, 'config'));

/** The git directories of the submodules and other worktrees of the repository whose common directory is `commonDir`. */
export function otherGitDirs(commonDir: string): OtherGitDirs {
  const found: OtherGitDirs = { gitDirs: [], unvouched: [] };
  for (const name of entriesOf(path.join(commonDir, 'worktrees')))
    found.gitDirs.push(path.join(commonDir, 'worktrees', name));
  const stack = [path.join(commonDir, 'modules')];
  let folders = 0;
  while (stack.length > 0) {
    const dir = stack.pop()!;
    if (++folders > MODULE_FOLDERS_MAX) {
      found.unvouched.push(`${path.join(commonDir, 'modules')} holds more than ${MODULE_FOLDERS_MAX} folders`);
      break;
    }
    if (isGitDir(dir)) found.gitDirs.push(dir);
    for (const name of entriesOf(dir)) {
      const child = path.join(dir, name);
      if (!NO_MODULES_IN.has(name) && isFolder(child)) stack.push(child);
    }
  }
  return found;
}

/** The git directories of the repositories nested in `root` that a word of `command` names. */
export function namedGitDirs(
  command: string,
  root: string,
  own: readonly string[],
  /** Folders to look at besides those the command names (absolute, or from the root). */
  folders: readonly string[] = [],
): OtherGitDirs {
  const found: OtherGitDirs = { gitDirs: [], unvouched: [] };
  const words = new Set(commandWords(command));
  const globbed = [...words].flatMap((word) => (/[*?[]/.test(word) ? globbedFolders(word, root) : []));
  for (const folder of globbed.slice(0, FOLDERS_MAX)) words.add(folder);
  for (const folder of folders) words.add(folder);
  const looked = new Set<string>();
  for (let dir of namedFolders([...words].slice(0, WORDS_MAX), root)) {
    for (; dir !== root && within(dir, root) && !looked.has(dir); dir = path.dirname(dir)) {
      looked.add(dir);
      const gitDir = path.basename(dir) === '.git' || isGitDir(dir) ? dir : gitDirAt(dir, found);
      if (gitDir !== null && !own.includes(gitDir)) found.gitDirs.push(gitDir);
    }
  }
  return found;
}

/**
 * The git directories of the repositories outside `root` that a word of `command` names
 * (`cd /tmp/other`, `git -C ~/x`, `$HOME/x`, `../sibling`, `--git-dir=/x/.git`), and those another
 * word names from there (`cd /tmp/other && git -C sub diff`): each such folder and every folder
 * above it up to `/` is looked at. A path built at run time is not seen.
 */
export function outsideGitDirs(command: string, root: string, home: string | undefined): OtherGitDirs {
  const found: OtherGitDirs = { gitDirs: [], unvouched: [] };
  const text = home === undefined ? command : command.replace(/\$\{HOME\}|\$HOME\b/g, home);
  const words = [...new Set(commandWords(text))].slice(0, WORDS_MAX).map((word) => homeExpanded(word, home));
  const outside = (dir: string) => !within(dir, root) && isFolder(dir);
  const named = new Set(words.map((word) => path.resolve(root, word)).filter(outside));
  for (const base of [...named].slice(0, FOLDERS_MAX))
    for (const word of words)
      if (!path.isAbsolute(word) && outside(path.resolve(base, word))) named.add(path.resolve(base, word));
  const looked = new Set<string>();
  for (let dir of [...named].slice(0, FOLDERS_MAX)) {
    for (; !looked.has(dir); dir = path.dirname(dir)) {
      looked.add(dir);
      const gitDir = path.basename(dir) === '.git' || isGitDir(dir) ? dir : gitDirAt(dir, found);
      if (gitDir !== null) found.gitDirs.push(gitDir);
      if (dir === path.dirname(dir)) break;
    }
  }
  return found;
}

/** `word` with a leading `~` replaced by `home` (unchanged when there is none). */
function homeExpanded(word: string, home: string | undefined): string {
  return home !== undefined && /^~(\/|$)/.test(word) ? `${home}${word.slice(1)}` : word;
}

/**
 * The words of `command` as written and with the shell's quotes and backslashes taken out (the
 * shell joins `vend""or` into `vendor`).
 */
function commandWords(command: string): string[] {
  const unquoted = command.replace(/\\(.)/g, '$1').replace(/['"]/g, '');
  return [command, unquoted]
    .flatMap((text) => text.split(/[\s;&|()<>'"=`{}]+/))
    .filter((word) => word !== '' && !word.startsWith('-'));
}

/**
 * The folders a word with a pattern (`vendor/*`, `vendo?/x`, `*\/`) may name: the part with the
 * first pattern character stands for every folder there (from the root), the rest kept, in turn
 * for the next pattern (at most 4). The shell's own matching is not repeated, so a folder too many
 * is only looked at.
 */
function globbedFolders(word: string, root: string, depth = 0): string[] {
  const pattern = word.search(/[*?[]/);
  if (pattern < 0) return [word];
  if (depth === 4) return [];
  const start = word.lastIndexOf('/', pattern) + 1;
  const end = word.indexOf('/', pattern);
  const parent = path.resolve(root, word.slice(0, start) || '.');
  const rest = end < 0 ? '' : word.slice(end + 1);
  if (!within(parent, root)) return [];
  return entriesOf(parent)
    .map((name) => path.join(parent, name))
    .filter(isFolder)
    .flatMap((folder) => [folder, ...(rest === '' ? [] : globbedFolders(path.join(folder, rest), root, depth + 1))]);
}

/**
 * The work trees of the submodules `.gitmodules` at `top` places (absolute): a submodule cloned by
 * an older git, or added from a repository already in the work tree, keeps its git directory in
 * its own `.git` folder, not under `modules/`, and `git diff --submodule=diff` at the top enters it.
 * Every `path =` line counts, read loosely: a folder too many is only looked at.
 */
export function submoduleWorkTrees(top: string): string[] {
  const text = readText(path.join(top, '.gitmodules')) ?? '';
  return [...text.matchAll(/^\s*path\s*=\s*"?(.*?)"?\s*$/gim)].map((match) => path.resolve(top, match[1]!));
}

/**
 * The folders in `root` that `words` name, from the root or from a folder another word names (so
 * `cd vendor && git -C x diff` finds vendor/x), until no new folder is found (at most 8 steps).
 */
function namedFolders(words: readonly string[], root: string): string[] {
  const folders = new Set<string>();
  let bases = [root];
  for (let step = 0; step < 8 && bases.length > 0 && folders.size < FOLDERS_MAX; step++) {
    const found: string[] = [];
    for (const base of bases)
      for (const word of words) {
        const dir = path.resolve(base, word);
        if (!word.startsWith('~') && !folders.has(dir) && within(dir, root) && isFolder(dir)) {
          folders.add(dir);
          found.push(dir);
        }
      }
    bases = found;
  }
  return [...folders];
}

/** The git directory of the repository whose work tree is `dir` (its `.git` folder, or where a `.git` file points). */
export function gitDirAt(dir: string, found: OtherGitDirs): string | null {
  const dotGit = path.join(dir, '.git');
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dotGit);
  } catch {
    return null;
  }
  if (!stat.isFile()) return isFolder(dotGit) ? dotGit : null;
  const pointer = /^gitdir: (.+)$/m.exec(readText(dotGit) ?? '');
  const target = pointer ? path.resolve(dir, pointer[1]!.trim()) : null;
  if (target === null || !isFolder(target)) {
    found.unvouched.push(`${dotGit}, a .git file pointing to a git directory tole cannot read`);
    return null;
  }
  const common = readText(path.join(target, 'commondir'));
  if (common !== null) found.gitDirs.push(path.resolve(target, common.trim()));
  return target;
}

const within = (file: string, dir: string): boolean => file === dir || file.startsWith(`${dir}${path.sep}`);

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The text of a regular file; null for anything else (a FIFO planted there would block the read forever). */
function readText(file: string): string | null {
  try {
    return readRegularFile(file).toString('utf8');
  } catch {
    return null;
  }
}
