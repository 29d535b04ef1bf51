/**
 * Puts tole's git (git-shim-script.ts) on disk for the commands tole runs outside its sandbox: a
 * private folder (mode 0700, removed when tole exits) holding `bin/git`, the script, and `exec/`,
 * a copy of git's own programs folder in which every entry that is git itself (`git`, `git-diff`…)
 * is the script and every other one (`git-remote-https`, `git-mergetool`…) links to git's. The
 * real git, bash and the user's own config files are found once, from the commands' environment.
 */
import { execFile } from 'node:child_process';
import {
  accessSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { includeTarget } from '../git-config-listing';
import { withGitGuard } from '../git-guard-env';
import { isInclude } from '../git-repo-config-read';
import { gitShimScript } from '../git-shim-script';

export interface GitShim {
  /** The folder to put first on a command's PATH: it holds `git`. */
  readonly binDir: string;
  /**
   * Whether the folder still holds exactly what tole wrote: the script's bytes and mode, `bin/`
   * holding it alone, every link in `exec/` to where it was made to point. A command run
   * unconfined may have removed or rewritten any of it (a /tmp cleaner, or a command that put a
   * git of its own there for the next call); a shim not intact is written again before it is used.
   */
  intact(): boolean;
}

/** Where the script goes when no PATH is given: bash's own default. */
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The first executable `name` on `searchPath`, absolute and real; null when there is none. */
export function onPath(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(':')) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // not here
    }
  }
  return null;
}

/** `env`'s PATH with the shim's folder first. */
export function pathWithShim(shim: GitShim, env: Readonly<Record<string, string>>): string {
  return `${shim.binDir}:${env['PATH'] ?? DEFAULT_PATH}`;
}

const made = new Set<string>();
let removeOnExit = false;
/** The shims in use, by what they were written for (shimKey): shared by the bash tool, hooks and prompt commands. */
const kept = new Map<string, Promise<GitShim | null>>();

/**
 * What installGitShim reads from its inputs: the workspace, the trusted keys, and the variables
 * that decide which git, which bash and which user config files it finds. A hook's own variables
 * (`TOLE_EVENT`…) do not make it a different shim.
 */
function shimKey(workspaceRoot: string, env: Readonly<Record<string, string>>, trusted: readonly string[]): string {
  const read = Object.entries(env)
    .filter(([name]) => name === 'PATH' || name === 'HOME' || name === 'XDG_CONFIG_HOME' || name.startsWith('GIT_'))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([workspaceRoot, trusted, read]);
}

/**
 * tole's git for commands run unconfined with `env` in `workspaceRoot`: written at the first call,
 * then the same one, written again when it is no longer intact (a /tmp cleaner removed it, a
 * command run unconfined changed it). Null when there is no git on the commands' PATH. Rejects
 * when it cannot be written (tried again at the next call); the command must then not run.
 */
export async function gitShimFor(
  workspaceRoot: string,
  env: Readonly<Record<string, string>>,
  trusted: readonly string[],
): Promise<GitShim | null> {
  const key = shimKey(workspaceRoot, env, trusted);
  const before = kept.get(key);
  const current = await before?.catch(() => null);
  if (current && !current.intact() && kept.get(key) === before) kept.delete(key);
  let shim = kept.get(key);
  if (shim === undefined) {
    const writing: Promise<GitShim | null> = installGitShim(workspaceRoot, env, trusted).catch((error: unknown) => {
      if (kept.get(key) === writing) kept.delete(key);
      throw error;
    });
    shim = writing;
    kept.set(key, shim);
  }
  return shim;
}

/**
 * Removes every shim folder this process wrote (also done when it exits). A test runner whose
 * workers end without an exit calls it after each file; a bash tool whose shim is gone writes it
 * again at its next unconfined run.
 */
export function removeGitShims(): void {
  removeAll();
}

function removeAll(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
  kept.clear();
}

function gitOutput(git: string, args: string[], cwd: string, env: Readonly<Record<string, string>>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(git, args, { cwd, env, encoding: 'utf8', maxBuffer: 4 * 1024 * 1024, timeout: 10_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

/**
 * The user's own config files as git names them (`file:…`) in `--show-origin`, read in `cwd`: the
 * system and global scopes, and the files their includes name whatever their condition.
 */
async function userOrigins(git: string, cwd: string, env: Readonly<Record<string, string>>): Promise<string[]> {
  const listing = await gitOutput(
    git,
    ['config', '--list', '--show-scope', '--show-origin', '-z'],
    cwd,
    withGitGuard(env),
  );
  const items = listing.split('\0');
  const origins = new Set<string>();
  for (let i = 0; i + 2 < items.length; i += 3) {
    const [scope, origin, item] = [items[i]!, items[i + 1]!, items[i + 2]!];
    if ((scope !== 'system' && scope !== 'global') || !origin.startsWith('file:')) continue;
    origins.add(origin);
    const newline = item.indexOf('\n');
    if (newline < 0 || !isInclude(item.slice(0, newline))) continue;
    const target = includeTarget(item.slice(newline + 1), origin.slice('file:'.length), env['HOME']);
    if (target !== null) origins.add(`file:${target}`);
  }
  return [...origins];
}

/**
 * Writes tole's git for commands run with `env` in `workspaceRoot`; null when there is no git on
 * the commands' PATH (no git to vet). Rejects when it cannot be written.
 */
export async function installGitShim(
  workspaceRoot: string,
  env: Readonly<Record<string, string>>,
  trusted: readonly string[],
): Promise<GitShim | null> {
  const searchPath = env['PATH'] ?? DEFAULT_PATH;
  const realGit = onPath('git', searchPath);
  if (realGit === null) return null;
  const bash = onPath('bash', `/bin:/usr/bin:${searchPath}`);
  if (bash === null) throw new Error('no bash found to run tole’s git check');
  const [gitExecPath, origins] = await Promise.all([
    gitOutput(realGit, ['--exec-path'], workspaceRoot, withGitGuard(env)).then((out) => out.trim()),
    userOrigins(realGit, workspaceRoot, env),
  ]);
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'tole-git-')));
  made.add(dir);
  if (!removeOnExit) {
    removeOnExit = true;
    process.on('exit', removeAll);
  }
  const binDir = path.join(dir, 'bin');
  const execDir = path.join(dir, 'exec');
  mkdirSync(binDir);
  mkdirSync(execDir);
  const script = path.join(binDir, 'git');
  const stdinConfig = path.join(dir, 'stdin.cfg');
  writeFileSync(stdinConfig, STDIN_CONFIG, { mode: 0o444 });
  const text = gitShimScript({
    stdinConfig,
    bash,
    realGit,
    execDir,
    workspaceRoot: realpathSync(workspaceRoot),
    trusted,
    userOrigins: origins,
  });
  writeFileSync(script, text, { mode: 0o555 });
  const links = mirrorExecPath(gitExecPath, execDir, script);
  const modes = new Map([dir, binDir, execDir].map((folder) => [folder, lstatSync(folder).mode]));
  return {
    binDir,
    intact: () => holdsWhatWasWritten(modes, script, text, execDir, links) && holdsStdinConfig(stdinConfig),
  };
}

/** What tole's git gives its listing as stdin (see GitShimFacts.stdinConfig). */
const STDIN_CONFIG = '[tole]\n\tstdin = read\n';

function holdsStdinConfig(file: string): boolean {
  try {
    return lstatSync(file).isFile() && readFileSync(file, 'utf8') === STDIN_CONFIG;
  } catch {
    return false;
  }
}

/** The check behind GitShim.intact; any error reading it (a folder gone, made a link) is a no. */
function holdsWhatWasWritten(
  modes: ReadonlyMap<string, number>,
  script: string,
  text: string,
  execDir: string,
  links: ReadonlyMap<string, string>,
): boolean {
  try {
    for (const [folder, mode] of modes) if (lstatSync(folder).mode !== mode) return false;
    const scriptStat = lstatSync(script);
    if (!scriptStat.isFile() || (scriptStat.mode & 0o7777) !== 0o555) return false;
    if (readdirSync(path.dirname(script)).length !== 1 || readFileSync(script, 'utf8') !== text) return false;
    const names = readdirSync(execDir);
    if (names.length !== links.size) return false;
    return names.every((name) => links.get(name) === readlinkSync(path.join(execDir, name)));
  } catch {
    return false;
  }
}

/**
 * Fills `execDir` from git's programs folder: git itself (under any name) becomes `script`.
 * Returns each link made and where it points.
 */
function mirrorExecPath(gitExecPath: string, execDir: string, script: string): Map<string, string> {
  const links = new Map<string, string>();
  const link = (target: string, name: string): void => {
    symlinkSync(target, path.join(execDir, name));
    links.set(name, target);
  };
  const gitItself = realOrNull(path.join(gitExecPath, 'git'));
  for (const name of readdirSync(gitExecPath)) {
    const entry = path.join(gitExecPath, name);
    const isGit = name === 'git' || (gitItself !== null && realOrNull(entry) === gitItself);
    link(isGit ? script : entry, name);
  }
  if (!links.has('git')) link(script, 'git');
  return links;
}

function realOrNull(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}
