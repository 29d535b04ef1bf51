/**
 * What a confined command leaves behind for the user's next git: a `.git` (a folder, a `gitdir:`
 * file, a link) or a bare repository it made in the workspace, or an existing one's config or hooks
 * it changed where the sandbox did not keep them read-only. Git run there later, outside any
 * sandbox (the user's shell, their prompt's status line, an editor), reads that config and runs
 * the programs it names (`core.fsmonitor`, `core.pager`, an alias, a filter, a hook).
 *
 * Before the run the workspace's `.git` entries and bare repositories are taken down with a print
 * of what git would read from each (the `.git` file or link, `commondir`, `config`,
 * `config.worktree`, the hooks); after it, every entry that is new or whose print moved is vetted:
 * each key of its config must be one git reads no program from (git-inert-keys.ts, with the four
 * keys tole's guard sets for its own gits counted as programs here, as the user's git gets no
 * guard), no hook may be there, and the git directory must lie in the workspace. What fails is
 * moved aside (renamed, never deleted): the `.git` entry itself, or a bare repository's HEAD
 * (without it git does not take the folder for a repository). Moved rather than only told because
 * the user may run git there before reading what tole said; renamed in place, so nothing is lost
 * and `mv` brings it back.
 *
 * The walk reads names and stats only (no git runs on the workspace); listings of unchanged
 * folders are the ones the pre-run walk already read (git-folder-listings.ts), so an unchanged
 * workspace costs one stat per folder. Symlinks are not followed (a folder outside the workspace
 * is read-only to the command), `.git` folders are not entered. A config is read by tole and
 * handed to `git config --file -` on stdin, so what is parsed is what was read, and git's parser
 * decides what the keys are.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readlinkSync, realpathSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { folderListing } from './git-folder-listings';
import { keyParts, namesNoProgram } from './git-inert-keys';
import { WORKSPACE_FOLDERS_MAX } from './git-nested-dirs';
import { readRegularFile } from './regular-file';

/** The workspace's git entries and a print of each, before a run. */
export interface GitSnapshot {
  readonly prints: ReadonlyMap<string, string>;
  /** Whether the walk looked in every folder (false: past WORKSPACE_FOLDERS_MAX). */
  readonly complete: boolean;
}

/** One entry that a run left holding what runs a program, and what tole did with it. */
export interface LeftBehind {
  /** The `.git` entry or bare repository (absolute). */
  readonly entry: string;
  /** What was found, one line each. */
  readonly found: readonly string[];
  /** Where it was moved (absolute), or null when it was not. */
  readonly movedTo: string | null;
  /** Why it could not be moved (null when it was, or was not tried). */
  readonly moveError: string | null;
}

export interface GitLeftReport {
  readonly left: readonly LeftBehind[];
  /** Folders past the bound were not looked in. */
  readonly incomplete: boolean;
}

/** A config larger than this is not parsed: it is told as one tole could not vet. */
const CONFIG_MAX_BYTES = 1024 * 1024;
const GIT_TIMEOUT_MS = 10_000;
/** Keys tole's guard sets for its own gits (git-guard-env.ts), so inert to them; the user's git runs them. */
const GUARDED_PROGRAMS = new Set(['core.fsmonitor', 'core.hookspath', 'core.askpass', 'core.sshcommand']);
const BOOLEAN = /^(true|false|yes|no|on|off|1|0)?$/i;
/** What a moved entry's name gets. */
export const QUARANTINE_SUFFIX = '.tole-quarantined';

/** Every `.git` entry and bare repository in `root`, with its print. */
export function gitSnapshot(root: string, foldersMax = WORKSPACE_FOLDERS_MAX): GitSnapshot {
  const real = realOr(root);
  const prints = new Map<string, string>();
  const { entries, complete } = gitEntries(real, foldersMax);
  for (const entry of entries) prints.set(entry, printOf(entry, real));
  return { prints, complete };
}

/**
 * The entries of `root` that are new since `before` or changed, that hold what runs a program;
 * each moved aside unless `move` is false. `gitPath` is the PATH git is found on (never the workspace's).
 */
export async function vetGitLeftBehind(
  root: string,
  before: GitSnapshot,
  gitPath: string,
  move = true,
  foldersMax = WORKSPACE_FOLDERS_MAX,
): Promise<GitLeftReport> {
  const real = realOr(root);
  const { entries, complete } = gitEntries(real, foldersMax);
  const left: LeftBehind[] = [];
  for (const entry of entries) {
    if (before.prints.get(entry) === printOf(entry, real)) continue;
    const found = await findingsAt(entry, real, gitPath);
    if (found.length === 0) continue;
    left.push({ entry, found, ...(move ? moveAside(entry) : { movedTo: null, moveError: null }) });
  }
  return { left, incomplete: !complete || !before.complete };
}

/** What the model and the user read of `report`; null when there is nothing to say. */
export function leftBehindWords(report: GitLeftReport, root: string): string | null {
  const lines: string[] = [];
  const rel = (file: string) => path.relative(realOr(root), file) || '.';
  for (const item of report.left) {
    const what =
      item.found.slice(0, 8).join('; ') + (item.found.length > 8 ? `; and ${item.found.length - 8} more` : '');
    const done =
      item.movedTo !== null
        ? `tole moved it aside to ${rel(item.movedTo)}, so no git runs it; look at it before you move it back`
        : `tole could not move it aside (${item.moveError ?? 'not tried'}): do not run git in ${rel(path.dirname(item.entry))} before you look at it`;
    lines.push(`- ${rel(item.entry)}: ${what}. ${done}.`);
  }
  if (report.incomplete)
    lines.push(
      `- the workspace holds more than ${WORKSPACE_FOLDERS_MAX} folders, so tole did not look in all of them for a .git this command left`,
    );
  if (lines.length === 0) return null;
  const head = report.left.length
    ? '[tole: this command left git settings that would run a program at the next git there, outside the sandbox:'
    : '[tole:';
  return `${head}\n${lines.join('\n')}\nThe model must not move these back or make them again.]`;
}

/** Every `.git` entry (any type) and every bare repository folder below `root`, and whether all folders were looked in. */
function gitEntries(root: string, foldersMax: number): { entries: string[]; complete: boolean } {
  const entries: string[] = [];
  const stack = [root];
  for (let folders = 0; stack.length > 0; folders++) {
    if (folders === foldersMax) return { entries, complete: false };
    const dir = stack.pop()!;
    const listing = folderListing(dir);
    if ('code' in listing) continue;
    if (listing.gitDir) entries.push(dir);
    if (listing.dotGit) entries.push(path.join(dir, '.git'));
    for (const child of listing.children)
      if (!child.link && child.name !== '.git') stack.push(path.join(dir, child.name));
  }
  return { entries, complete: true };
}

/** The git directory an entry leads to: itself for a bare one or a `.git` folder, the target of a `gitdir:` file or a link. */
function gitDirOf(entry: string, found: string[]): string | null {
  if (path.basename(entry) !== '.git') return entry;
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(entry);
  } catch {
    return null;
  }
  if (stat.isDirectory()) return entry;
  if (stat.isSymbolicLink()) {
    const target = realOr(entry, null);
    if (target === null) {
      found.push(`.git is a link to ${linkText(entry)}, which leads nowhere yet`);
      return null;
    }
    if (isFolder(target)) return target;
  }
  return gitFileTarget(entry, path.dirname(entry), found);
}

/** The folder a `gitdir:` file names (resolved from `base`); null with a finding when it names none. */
function gitFileTarget(file: string, base: string, found: string[]): string | null {
  const text = textOf(file);
  if (text === null) {
    found.push('.git is not a file tole can read (a FIFO, a device, too large)');
    return null;
  }
  const pointer = /^gitdir: *(.+?)\s*$/m.exec(text);
  if (pointer === null) return null; // git takes it for no repository and fails
  const target = path.resolve(base, pointer[1]!);
  if (!isFolder(target)) {
    found.push(`.git names ${target}, which is no folder yet`);
    return null;
  }
  return realOr(target);
}

/** What git would read from the entry's git directories: the pointer, commondir, configs, hooks. */
function printOf(entry: string, root: string): string {
  const hash = createHash('sha256');
  const add = (part: string) => hash.update(part).update('\0');
  const found: string[] = [];
  add(statPrint(entry, true));
  try {
    if (lstatSync(entry).isSymbolicLink()) add(linkText(entry));
  } catch {}
  add(textOf(entry) ?? '-');
  for (const dir of gitDirsOf(entry, root, found)) {
    add(dir);
    for (const name of ['HEAD', 'commondir', 'config', 'config.worktree']) add(textOf(path.join(dir, name)) ?? '-');
    for (const hook of entriesOf(path.join(dir, 'hooks')))
      add(`${hook}:${statPrint(path.join(dir, 'hooks', hook), false)}`);
  }
  add(found.join('\n'));
  return hash.digest('hex');
}

/** The entry's git directory and its common directory (when it names one), with what tole could not follow. */
function gitDirsOf(entry: string, root: string, found: string[]): string[] {
  const gitDir = gitDirOf(entry, found);
  if (gitDir === null) return [];
  const dirs = [gitDir];
  const common = textOf(path.join(gitDir, 'commondir'));
  if (common !== null) {
    const commonDir = path.resolve(gitDir, common.trim());
    if (isFolder(commonDir)) dirs.push(realOr(commonDir));
    else found.push(`${path.join(gitDir, 'commondir')} names ${commonDir}, which is no folder yet`);
  }
  for (const dir of dirs) if (!within(dir, root)) found.push(`its git directory ${dir} lies outside the workspace`);
  return dirs;
}

/** What in the entry's git directories runs a program, one line each. */
async function findingsAt(entry: string, root: string, gitPath: string): Promise<string[]> {
  const found: string[] = [];
  const dirs = gitDirsOf(entry, root, found);
  const configs = dirs.flatMap((dir) => ['config', 'config.worktree'].map((name) => path.join(dir, name)));
  for (const file of new Set(configs)) found.push(...(await configFindings(file, gitPath)));
  for (const dir of new Set(dirs))
    for (const hook of entriesOf(path.join(dir, 'hooks')))
      if (!hook.endsWith('.sample')) found.push(`a hook ${path.join(path.relative(root, dir), 'hooks', hook)}`);
  return found;
}

/** The keys of the config `file` that name a program (or why it could not be read); none when it is absent. */
async function configFindings(file: string, gitPath: string): Promise<string[]> {
  let bytes: Buffer;
  try {
    lstatSync(file);
  } catch {
    return [];
  }
  try {
    bytes = readRegularFile(file, (stats) => stats.size <= CONFIG_MAX_BYTES);
  } catch (error) {
    return [
      `${path.basename(file)} is not a config tole can read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    ];
  }
  const listing = await parsedConfig(bytes, gitPath);
  if (typeof listing !== 'string') return [`${path.basename(file)} is a config git cannot read (${listing.error})`];
  const found: string[] = [];
  for (const item of listing.split('\0')) {
    if (item === '') continue;
    const newline = item.indexOf('\n');
    const key = newline < 0 ? item : item.slice(0, newline);
    const value = newline < 0 ? null : item.slice(newline + 1);
    if (!runsNoProgram(key, value)) found.push(`${key} = ${shown(value ?? '(no value)')} in ${path.basename(file)}`);
  }
  return found;
}

/** Whether the user's own git, with no guard, reads no program from `key` set to `value`. */
export function runsNoProgram(key: string, value: string | null): boolean {
  const parts = keyParts(key);
  const plain = `${parts.section}.${parts.variable}`;
  if (parts.subsection === null && GUARDED_PROGRAMS.has(plain))
    return plain === 'core.fsmonitor' && BOOLEAN.test(value ?? '');
  return namesNoProgram(parts, value);
}

/** `git config --list -z` of `bytes`, parsed by git from stdin with no other config read. */
function parsedConfig(bytes: Buffer, gitPath: string): Promise<string | { error: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'git',
      ['config', '--file', '-', '--list', '-z', '--no-includes'],
      {
        cwd: '/',
        env: {
          PATH: gitPath,
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          HOME: '/nonexistent',
          LC_ALL: 'C',
        },
        encoding: 'utf8',
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 4 * CONFIG_MAX_BYTES,
      },
      (error, stdout, stderr) => {
        if (!error) resolve(stdout);
        else resolve({ error: (stderr.trim().split('\n')[0] || error.message).slice(0, 200) });
      },
    );
    child.stdin?.on('error', () => {});
    child.stdin?.end(bytes);
  });
}

/** Renames `entry` (a `.git`) or a bare repository's HEAD aside, to a name not taken. */
function moveAside(entry: string): { movedTo: string | null; moveError: string | null } {
  const from = path.basename(entry) === '.git' ? entry : path.join(entry, 'HEAD');
  for (let n = 1; n < 100; n++) {
    const to = `${from}${QUARANTINE_SUFFIX}${n === 1 ? '' : `-${n}`}`;
    if (exists(to)) continue;
    try {
      renameSync(from, to);
      return { movedTo: to, moveError: null };
    } catch (error) {
      return { movedTo: null, moveError: (error as NodeJS.ErrnoException).code ?? String(error) };
    }
  }
  return { movedTo: null, moveError: 'every name to move it to is taken' };
}

function statPrint(file: string, lstat: boolean): string {
  try {
    const s = (lstat ? lstatSync : statSync)(file, { bigint: true });
    return `${s.mode}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return '-';
  }
}

/** The text of a small regular file; null for anything else. */
function textOf(file: string): string | null {
  try {
    return readRegularFile(file, (stats) => stats.size <= CONFIG_MAX_BYTES).toString('utf8');
  } catch {
    return null;
  }
}

function linkText(link: string): string {
  try {
    return readlinkSync(link);
  } catch {
    return '?';
  }
}

function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function realOr<T extends string | null = string>(file: string, fallback?: T): string | T {
  try {
    return realpathSync(file);
  } catch {
    return fallback === undefined ? (file as T) : fallback;
  }
}

/** A value as shown: one line, at most 80 characters. */
const shown = (value: string): string => {
  const line = JSON.stringify(value).slice(1, -1);
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
};

const within = (file: string, dir: string): boolean => file === dir || file.startsWith(`${dir}${path.sep}`);
