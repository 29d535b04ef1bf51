/**
 * What git printed when tole read a repository's config (git-repo-config-read.ts), kept so that
 * the next bash call, or the run of the call whose approval box just read it, does not start git
 * again while nothing it read has changed. Every git of a read costs a few milliseconds, and a
 * workspace of many repositories reads their configs 64 to a git.
 *
 * An output is used again only for the same git arguments, folder and environment, and while every
 * file it depends on is the one it was read from, unchanged: the same device, inode, size, mtime
 * and ctime to the nanosecond (ctime moves on every write, rename or chmod, and no call sets it
 * back, so `touch -r` cannot hide an edit of the same size; a file replaced by a rename is another
 * inode); a file that was missing still missing; a folder the same folder with the same owner (git
 * refuses a repository another user owns). Which files: every file git names as an origin (all
 * scopes), every file an include there names (read or not), the user's and the system's config
 * files where git looks for them, and for the folder git runs in and each folder above it, what
 * git looks at to find its repository (`.git`, or HEAD, objects, refs and commondir of a bare one)
 * and in the repository's git directory HEAD (`includeIf.onbranch`), config, config.worktree,
 * commondir and gitdir. Anything else reads again, and a failed read is never kept.
 *
 * A file changed in the clock tick of its last change before git read it keeps its mtime and
 * ctime; so an output is kept only when each file's last change is older than the start of the read
 * by a margin (100 ms; 4 s where times are whole seconds). A system config at a place tole does not
 * look (a git built with another prefix) that appears after a read is not seen until something else
 * changes; so is one a file system whose clock runs behind this machine's changes in the tick of its
 * last change.
 */
import { type BigIntStats, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The most outputs kept; past it all are dropped. */
const KEPT_MAX = 256;
/** Outputs longer than this are not kept. */
const KEPT_OUTPUT_MAX = 1024 * 1024;
const FINE_MARGIN_NS = 100n * 1_000_000n;
const COARSE_MARGIN_NS = 4_000n * 1_000_000n;
const NS_PER_S = 1_000_000_000n;
/** Where a git looks for the system config, by the prefix it was built with. */
const SYSTEM_CONFIGS = [
  '/etc/gitconfig',
  '/usr/etc/gitconfig',
  '/usr/local/etc/gitconfig',
  '/opt/homebrew/etc/gitconfig',
];

interface Kept {
  readonly output: string;
  /** Each file or folder the output depends on, and what it was (`fileState`). */
  readonly states: ReadonlyMap<string, string>;
}

const kept = new Map<string, Kept>();
/** How many times a git was run because no output was kept for it. */
let runs = 0;

/**
 * `run`'s output, or the one kept from an earlier run with the same `key` while every path
 * `dependsOn` named for it is unchanged. A rejection or a null (git missing) is never kept.
 */
export async function keptOutput(
  key: readonly string[],
  run: () => Promise<string | null>,
  dependsOn: (output: string) => readonly string[],
): Promise<string | null> {
  const id = JSON.stringify(key);
  const before = kept.get(id);
  if (before !== undefined && [...before.states].every(([file, state]) => fileState(file).state === state))
    return before.output;
  kept.delete(id);
  // Taken before git reads: a change after it falls in a later tick than a settled file's last one.
  const startedNs = BigInt(Date.now()) * 1_000_000n;
  runs++;
  const output = await run();
  if (output === null || output.length > KEPT_OUTPUT_MAX) return output;
  const states = new Map<string, string>();
  for (const file of dependsOn(output)) {
    const { state, lastChangeNs, margin } = fileState(file);
    if (lastChangeNs !== null && lastChangeNs + margin >= startedNs) return output;
    states.set(file, state);
  }
  if (kept.size >= KEPT_MAX) kept.clear();
  kept.set(id, { output, states });
  return output;
}

/** Forgets every output kept (a test that must read afresh). */
export function forgetKeptOutputs(): void {
  kept.clear();
}

/** How many gits were run because no output was kept (a test's look at whether a read was served from what was kept). */
export function outputRuns(): number {
  return runs;
}

/**
 * What `file` is now, as a string to compare; with the time of its last change (null for a
 * folder, whose times are not compared, or a missing file) and the margin its times call for.
 */
function fileState(file: string): { state: string; lastChangeNs: bigint | null; margin: bigint } {
  let stat: BigIntStats | undefined;
  try {
    stat = statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    return { state: `error ${(error as NodeJS.ErrnoException).code}`, lastChangeNs: null, margin: 0n };
  }
  if (stat === undefined) return { state: 'missing', lastChangeNs: null, margin: 0n };
  if (stat.isDirectory())
    return { state: `folder ${stat.dev} ${stat.ino} ${stat.uid}`, lastChangeNs: null, margin: 0n };
  const wholeSeconds = stat.mtimeNs % NS_PER_S === 0n && stat.ctimeNs % NS_PER_S === 0n;
  return {
    state: `file ${stat.dev} ${stat.ino} ${stat.size} ${stat.mtimeNs} ${stat.ctimeNs} ${stat.mode} ${stat.uid}`,
    lastChangeNs: stat.mtimeNs > stat.ctimeNs ? stat.mtimeNs : stat.ctimeNs,
    margin: wholeSeconds ? COARSE_MARGIN_NS : FINE_MARGIN_NS,
  };
}

/** The user's and the system's config files, where git looks for them with `env`, whether they exist or not. */
export function userConfigFiles(env: Readonly<Record<string, string>>): string[] {
  const home = env['HOME'];
  const xdg = env['XDG_CONFIG_HOME'] || (home ? path.join(home, '.config') : undefined);
  return [
    ...(home ? [path.join(home, '.gitconfig')] : []),
    ...(xdg ? [path.join(xdg, 'git', 'config')] : []),
    ...[env['GIT_CONFIG_GLOBAL'], env['GIT_CONFIG_SYSTEM']].filter((file): file is string => !!file),
    ...SYSTEM_CONFIGS,
  ].map((file) => path.resolve(file));
}

/**
 * What git looks at to find the repository of `cwd`, and in its git directory: each folder from
 * `cwd` up to `/` and its `.git`, HEAD, objects, refs and commondir, up to the first that holds a
 * `.git`; there, the git directory's (and its common directory's) HEAD, config, config.worktree,
 * commondir and gitdir.
 */
export function repositoryFiles(cwd: string): string[] {
  const files: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    files.push(dir, ...['.git', 'HEAD', 'objects', 'refs', 'commondir'].map((name) => path.join(dir, name)));
    const gitDir = gitDirOf(dir);
    if (gitDir !== null) {
      files.push(...gitDirFiles(gitDir));
      const common = readText(path.join(gitDir, 'commondir'));
      if (common !== null) files.push(...gitDirFiles(path.resolve(gitDir, common.trim())));
      return files;
    }
    if (dir === path.dirname(dir)) return files;
  }
}

const gitDirFiles = (gitDir: string) =>
  ['HEAD', 'config', 'config.worktree', 'commondir', 'gitdir'].map((name) => path.join(gitDir, name));

/** The git directory a `.git` in `dir` leads to (the folder, or where a `.git` file points); null when there is none. */
function gitDirOf(dir: string): string | null {
  const dotGit = path.join(dir, '.git');
  const text = readText(dotGit);
  if (text === null) return isFolder(dotGit) ? dotGit : null;
  const pointer = /^gitdir: (.+)$/m.exec(text);
  return pointer ? path.resolve(dir, pointer[1]!.trim()) : null;
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
