/**
 * The commands a repository's own config names for git to run: content filters, diff and merge
 * drivers, `git archive`'s compressors, signing programs, aliases, tools, editors, pagers,
 * credential helpers… Git has no setting that switches a named driver off, and `.gitattributes`
 * in the work tree picks which run, so a hostile repository's `git diff` would run its code. tole
 * reads the repository's config (the local and worktree scopes, with their includes) before each
 * command the model runs and vets every key, failing closed:
 * - a key known to name no program (git-inert-keys.ts) passes as it is;
 * - a key that names a program (git-program-keys.ts) gets an inert value through
 *   `GIT_CONFIG_COUNT`, which outranks every config file;
 * - any other key is one tole cannot vouch for: the command does not run unconfined (the refusal
 *   names the keys and what to do); in the sandbox it runs, confined.
 * The user's own (system and global) settings are left as they are.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { type ConfigEntry, entryOf } from './git-config-listing';
import { guardDrops } from './git-guard-drops';
import { keyParts, namesNoProgram } from './git-inert-keys';
import { inertValue } from './git-program-keys';
import { isInclude, readRepositoryConfig } from './git-repo-config-read';

/** What the repository's config asks of a command the model runs. */
export interface RepositoryGitConfig {
  /** `[key, inert value]` for each key that names a program, for withGitGuard. */
  readonly settings: (readonly [string, string])[];
  /** What tole cannot vouch for, one line each (`key (in file)`): a command must not run unconfined. */
  readonly unvouched: readonly string[];
}

/** What a command's own text and the repository's config ask of the command (repositoryGitConfig). */
export interface CommandGitConfig extends RepositoryGitConfig {
  /**
   * The command's own findings (guardDrops), the first lines of `unvouched`: a person's key may
   * accept these (isReachDrop), never a line of the repository's that happens to read like one.
   */
  readonly fromCommand: readonly string[];
}

/**
 * `key` as git compares it: the section and the variable name lowercased, a subsection (a
 * driver's name) kept as written. Git tells `diff.Evil.textconv` from `diff.evil.textconv`, so a
 * setting for the lowercased name would leave the repository's driver as it is.
 */
export function canonicalKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first === last) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

/**
 * Whether the user vouched for `key` in their own config (`trustedGitKeys`): a key as git prints
 * it, or a prefix ending in `.*` (`gitflow.path.*`). Compared as git compares keys.
 */
export function trustedByUser(key: string, trusted: readonly string[]): boolean {
  return trusted.some((item) =>
    item.endsWith('.*')
      ? key.startsWith(canonicalKey(`${item.slice(0, -2)}.x`).slice(0, -1))
      : canonicalKey(item) === key,
  );
}

/** The settings and the unvouched keys of `entries`. */
export function vetEntries(
  entries: readonly ConfigEntry[],
  /** The workspace root: a core.worktree outside it is not vouched for. */
  root: string | null = null,
  /** Keys the user vouched for in their own config (`trustedGitKeys`); never those that name a program. */
  trusted: readonly string[] = [],
): RepositoryGitConfig {
  const settings = new Map<string, string>();
  const unvouched = new Map<string, string>();
  for (const entry of entries) {
    const key = canonicalKey(entry.key);
    if (key === '' || settings.has(key) || unvouched.has(key)) continue;
    const value = inertValue(key);
    if (value !== null) settings.set(key, value);
    else if (key === 'core.worktree') {
      if (!worktreeWithin(entry, root))
        unvouched.set(key, `${key} = ${entry.value} (in ${shown(entry.origin, root)}), outside the workspace`);
    } else if (!isInclude(key) && !namesNoProgram(keyParts(key), entry.value) && !trustedByUser(key, trusted))
      unvouched.set(key, `${key} (in ${shown(entry.origin, root)})`);
  }
  return { settings: [...settings], unvouched: [...unvouched.values()] };
}

/**
 * Whether a core.worktree (where git writes on a checkout or a reset) lies in the workspace: one
 * pointing at the home folder would have `git reset --hard` write the repository's files there.
 * git reads it relative to the git directory, which holds the config file that sets it.
 */
function worktreeWithin(entry: ConfigEntry, root: string | null): boolean {
  if (root === null || entry.value === null) return false;
  const fromGitDir = ['config', 'config.worktree'].includes(path.basename(entry.origin));
  if (!fromGitDir && !path.isAbsolute(entry.value)) return false;
  const target = realOrAsIs(path.resolve(path.dirname(entry.origin), entry.value));
  return target === root || target.startsWith(`${root}${path.sep}`);
}

/** `file` as the refusal names it: from the workspace root when it lies there. */
function shown(file: string, root: string | null): string {
  return root !== null && file.startsWith(`${root}${path.sep}`) ? path.relative(root, file) : file;
}

function realOrAsIs(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** The settings that neutralise the programs named by `items` (each `key\nvalue`, or a bare key). */
export function neutralSettings(items: readonly string[]): (readonly [string, string])[] {
  return vetEntries(items.map((item) => entryOf('', item))).settings;
}

/**
 * What the config of the repository at `cwd` asks (nothing when git is missing), after what the
 * command's own text finds (guardDrops), each kept apart as well. `env` should
 * already carry tole's git guard, so that reading the config runs nothing. Rejects with what to do
 * when the config cannot be read: the settings would be missing, and the command must not run
 * without them.
 */
export async function repositoryGitConfig(
  cwd: string,
  env: Readonly<Record<string, string>>,
  /** The command about to run: the nested repositories it names are read too. */
  command = '',
  /** Keys the user vouched for (`trustedGitKeys`). */
  trusted: readonly string[] = [],
): Promise<CommandGitConfig> {
  const fromCommand = guardDrops(command);
  const read = await readRepositoryConfig(cwd, env, command);
  if (read === null) return { settings: [], unvouched: fromCommand, fromCommand };
  const { settings, unvouched } = vetEntries(read.entries, cwd, trusted);
  return { settings, unvouched: [...fromCommand, ...read.unvouched, ...unvouched], fromCommand };
}
