/**
 * Reads what a repository's git config holds for the model's commands, whole: the local and
 * worktree scopes with their includes, and every file an `include.path` or `includeIf.*.path`
 * names whatever its condition (a branch switch or another git dir inside one command would
 * otherwise bring a file in that git skipped when tole read the config). Git itself reads the
 * files: the ones it skipped are listed by a second `git config` that includes them from the
 * command line. What tole cannot vouch for is told, not dropped: an include of a file that does
 * not exist (a command could create it), an include tole cannot resolve, and a config file that
 * lies in the work tree, where a checkout or a write in the same command changes it after tole
 * read it.
 */
import { execFile } from 'node:child_process';
import { watchForFifo } from './fifo-watch';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { keptOutput, repositoryFiles, userConfigFiles } from './git-config-kept';
import { type ConfigEntry, entryOf, includeTarget, listedEntries } from './git-config-listing';
import { withGitGuard } from './git-guard-env';
import { workspaceGitDirs } from './git-nested-dirs';
import { namedGitDirs, type OtherGitDirs, otherGitDirs, outsideGitDirs, submoduleWorkTrees } from './git-other-dirs';

/** The repository's config entries, and what tole could not read or vouch for (one line each). */
export interface RepositoryConfigRead {
  readonly entries: readonly ConfigEntry[];
  readonly unvouched: readonly string[];
}

/** Scopes that belong to the repository, not to the user or the machine. */
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);
/** Files read through tole's own command-line includes. */
const INCLUDED_SCOPES = new Set(['command']);
/**
 * The most config files read for one command (includes, and the configs of every git directory in
 * the workspace or named by the command); more is a config tole does not vouch for. A workspace of
 * many clones, or a tool's cache of test repositories, holds more than a hundred.
 */
const FILES_MAX = 1024;
/** The most files one `git config --list` includes on its command line; more are read by more gits, side by side. */
const FILES_PER_GIT = 64;
/** The most of one `git config --list` read; a longer listing is a failure to read. */
const LISTING_MAX_BYTES = 4 * 1024 * 1024;
const GIT_TIMEOUT_MS = 10_000;

/** Whether `key` is an include: the file it names is read as part of the config. */
export function isInclude(key: string): boolean {
  const lower = key.toLowerCase();
  return lower === 'include.path' || (lower.startsWith('includeif.') && lower.endsWith('.path'));
}

/**
 * The config of the repository at `cwd`, read whole (null when git is missing). `env` should
 * carry tole's git guard. Rejects with what to do when git cannot read it.
 */
export async function readRepositoryConfig(
  cwd: string,
  env: Readonly<Record<string, string>>,
  /** The command about to run: the nested repositories it names are read too. */
  command = '',
): Promise<RepositoryConfigRead | null> {
  const [listing, dirs] = await Promise.all([
    keptGitOutput(['config', '--list', '--show-scope', '--show-origin', '-z'], cwd, env, []),
    gitDirs(cwd, env),
  ]);
  if (listing === null) return null;
  const entries = listedEntries(listing, REPOSITORY_SCOPES, cwd);
  const ownKeys = entries.length > 0;
  const others = othersOf(dirs, cwd, command, env['HOME']);
  const files = others.gitDirs.flatMap((dir) => ['config', 'config.worktree'].map((name) => path.join(dir, name)));
  const unvouched = [
    ...others.unvouched,
    ...(await readIncludes(
      entries,
      cwd,
      env,
      files.filter((file) => existsSync(file)),
    )),
  ];
  if (ownKeys && dirs === null) unvouched.push("tole could not find the repository's git directory");
  // Outside a repository, the workspace is where a nested repository's include could name a file.
  const top = dirs === null ? realPath(cwd) : dirs.top;
  unvouched.push(...inWorkTree(entries, { top, gitDirs: [...(dirs?.gitDirs ?? []), ...others.gitDirs] }));
  return { entries, unvouched };
}

/**
 * The other git directories whose config the command can bring in (real paths, the repository's
 * own left out): every one in the workspace, whether the command names it or not, and those the
 * command names, in the workspace or outside it; with each, its submodules' and other worktrees'. `dirs` is null outside a repository.
 */
function othersOf(dirs: GitDirs | null, cwd: string, command: string, home: string | undefined): OtherGitDirs {
  const root = realPath(cwd) ?? cwd;
  const own = dirs?.gitDirs ?? [];
  const common = own[own.length - 1];
  const found: OtherGitDirs[] = [];
  if (common !== undefined) found.push(otherGitDirs(common));
  const submodules = dirs?.top ? submoduleWorkTrees(dirs.top) : [];
  const named = namedGitDirs(command, root, own, submodules);
  const nested = workspaceGitDirs(root);
  const outside = outsideGitDirs(command, root, home);
  const reached = [named, nested, outside];
  found.push(...reached, ...reached.flatMap((each) => each.gitDirs.map((dir) => otherGitDirs(dir))));
  const real = new Set(found.flatMap((each) => each.gitDirs.map((dir) => realPath(dir) ?? dir)));
  for (const dir of own) real.delete(dir);
  return { gitDirs: [...real], unvouched: [...new Set(found.flatMap((each) => each.unvouched))] };
}

/** Reads the files `entries` include that git did not read, adding their entries; returns what tole cannot vouch for. */
async function readIncludes(
  entries: ConfigEntry[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  /** Config files to read besides the includes: other git directories'. */
  files: readonly string[],
) {
  const unvouched: string[] = [];
  const read = new Set(entries.map((entry) => entry.origin));
  const looked = new Set<ConfigEntry>();
  for (let round = 0; ; round++) {
    const targets = round === 0 ? files.filter((file) => !read.has(file)) : [];
    for (const entry of entries) {
      if (looked.has(entry) || !isInclude(entry.key) || entry.value === null) continue;
      looked.add(entry);
      const target = includeTarget(entry.value, entry.origin, env['HOME']);
      if (target === null)
        unvouched.push(`${entry.key} = ${entry.value} (in ${entry.origin}), a path tole cannot resolve`);
      else if (read.has(target) || targets.includes(target)) continue;
      else if (!existsSync(target))
        unvouched.push(
          `${entry.key} (in ${entry.origin}) of ${target}, which does not exist (a command could create it)`,
        );
      else targets.push(target);
    }
    if (targets.length === 0) return unvouched;
    if (read.size + targets.length > FILES_MAX) {
      unvouched.push(
        `more than ${FILES_MAX} config files to read (includes, and the git directories in the workspace or named by the command)`,
      );
      return unvouched;
    }
    const listings = await Promise.all(
      chunked(targets, FILES_PER_GIT).map((chunk) =>
        keptGitOutput(
          [
            ...chunk.flatMap((target) => ['-c', `include.path=${target}`]),
            ...['config', '--list', '--show-scope', '--show-origin', '-z'],
          ],
          cwd,
          includingEnv(env),
          chunk,
        ),
      ),
    );
    for (const listing of listings)
      for (const entry of listedEntries(listing ?? '', INCLUDED_SCOPES, cwd)) {
        entries.push(entry);
        read.add(entry.origin);
      }
    for (const target of targets) read.add(target);
  }
}

/**
 * `env` for listing only the files tole includes on the command line: no system or global config,
 * and none of the user's command-line settings (their includes would be taken for the repository's).
 */
function includingEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (!/^GIT_CONFIG_(COUNT|KEY_|VALUE_|PARAMETERS)/.test(name)) out[name] = value;
  return withGitGuard({ ...out, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' });
}

interface GitDirs {
  /** Real paths: the work tree's top (null in a bare repository) and the git directories. */
  readonly top: string | null;
  readonly gitDirs: readonly string[];
}

/** The config files of `entries` that lie in the work tree, outside the git directories. */
function inWorkTree(entries: readonly ConfigEntry[], dirs: GitDirs): string[] {
  if (dirs.top === null) return [];
  const files = new Set(entries.map((entry) => entry.origin));
  const within = (file: string, dir: string) => file === dir || file.startsWith(`${dir}${path.sep}`);
  const found: string[] = [];
  for (const file of files) {
    const real = realPath(file);
    if (real !== null && within(real, dirs.top) && !dirs.gitDirs.some((dir) => within(real, dir)))
      found.push(
        `${file}, a config file in the work tree (a checkout or a write in the command changes it after tole read it)`,
      );
  }
  return found;
}

function realPath(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}

/** The repository's git directories and work tree at `cwd`; null outside a repository. */
async function gitDirs(cwd: string, env: Readonly<Record<string, string>>): Promise<GitDirs | null> {
  let out: string | null;
  try {
    const args = ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--show-toplevel'];
    out = await keptOutput(
      keyOf(args, cwd, env),
      () => gitOutput(args, cwd, env),
      (output) => [
        ...repositoryFiles(cwd),
        ...userConfigFiles(env),
        ...output.split('\n').filter((line) => line !== ''),
      ],
    );
  } catch {
    return null;
  }
  const [gitDir, commonDir, top] = (out ?? '').split('\n');
  if (!gitDir || !commonDir) return null;
  const dirs = [gitDir, commonDir].map(realPath).filter((dir): dir is string => dir !== null);
  return { top: top ? realPath(top) : null, gitDirs: dirs };
}

/**
 * `git config --list --show-scope --show-origin -z` (with `args` before it) as gitOutput, kept
 * while every file it read or could read is unchanged (git-config-kept.ts): the files it names
 * and those their includes name, `files` (included on the command line: an empty one is named by
 * no entry), the user's and the system's configs, and those that find the repository.
 */
function keptGitOutput(
  args: string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  files: readonly string[],
): Promise<string | null> {
  return keptOutput(
    keyOf(args, cwd, env),
    () => gitOutput(args, cwd, env),
    (listing) => [
      ...files,
      ...listedFiles(listing, cwd, env['HOME']),
      ...userConfigFiles(env),
      ...repositoryFiles(cwd),
    ],
  );
}

const keyOf = (args: readonly string[], cwd: string, env: Readonly<Record<string, string>>): string[] => [
  cwd,
  ...args,
  JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
];

/** The files a `--show-origin -z` listing names as origins, of any scope, and those its includes name. */
function listedFiles(listing: string, cwd: string, home: string | undefined): string[] {
  const items = listing.split('\0');
  const files = new Set<string>();
  for (let i = 0; i + 2 < items.length; i += 3) {
    const origin = items[i + 1]!.startsWith('file:') ? path.resolve(cwd, items[i + 1]!.slice('file:'.length)) : null;
    if (origin !== null) files.add(origin);
    const entry = entryOf(origin ?? cwd, items[i + 2]!);
    if (!isInclude(entry.key) || entry.value === null) continue;
    const target = includeTarget(entry.value, origin ?? path.join(cwd, 'command-line'), home);
    if (target !== null) files.add(target);
  }
  return [...files];
}

/** git's stdout (null when git is missing); rejects with what to do on any other failure. */
function gitOutput(args: string[], cwd: string, env: Readonly<Record<string, string>>): Promise<string | null> {
  return new Promise((resolve, reject) => {
    // A config or an included file that is a FIFO blocks git for good: seen at once (fifo-watch.ts), not after the timeout.
    let onFifo: string | null = null;
    const child = execFile(
      'git',
      args,
      { cwd, env, encoding: 'utf8', maxBuffer: LISTING_MAX_BYTES, timeout: GIT_TIMEOUT_MS },
      (error, stdout, stderr) => {
        unwatch();
        if (onFifo !== null) reject(new Error(unreadableConfig(new Error(onFifo), '')));
        else if (!error) resolve(stdout);
        else if ((error as NodeJS.ErrnoException).code === 'ENOENT') resolve(null);
        else reject(new Error(unreadableConfig(error, stderr)));
      },
    );
    const unwatch = watchForFifo(child.pid, (fifo) => {
      onFifo = `git config waited on ${fifo.path === null ? 'a FIFO' : `the FIFO ${fifo.path}`}, which never ends`;
      child.kill('SIGKILL');
    });
  });
}

function unreadableConfig(error: Error & { code?: unknown; killed?: boolean }, stderr: string): string {
  const reason =
    error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
      ? `its config is longer than ${LISTING_MAX_BYTES / (1024 * 1024)} MB`
      : error.killed
        ? `git config did not answer within ${GIT_TIMEOUT_MS / 1000} s`
        : stderr.trim().split('\n')[0] || error.message;
  return (
    `tole could not read this repository's git config to keep the programs it names from running (${reason}), ` +
    'so the command was not run. Fix the config (git config --list shows what git finds in it) and run the command again.'
  );
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let at = 0; at < items.length; at += size) chunks.push(items.slice(at, at + size));
  return chunks;
}
