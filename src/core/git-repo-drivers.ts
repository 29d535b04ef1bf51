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
import { execFile } from 'node:child_process';
import { keyParts, namesNoProgram } from './git-inert-keys';
import { inertValue } from './git-program-keys';

/** One key of the repository's config: where git read it, and its value (null for a bare key). */
export interface ConfigEntry {
  readonly origin: string;
  readonly key: string;
  readonly value: string | null;
}

/** What the repository's config asks of a command the model runs. */
export interface RepositoryGitConfig {
  /** `[key, inert value]` for each key that names a program, for withGitGuard. */
  readonly settings: (readonly [string, string])[];
  /** What tole cannot vouch for, one line each (`key (in file)`): a command must not run unconfined. */
  readonly unvouched: readonly string[];
}

/** Scopes that belong to the repository, not to the user or the machine. */
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);

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

/** Whether `key` is an include: the file it names is read as part of the config. */
export function isInclude(key: string): boolean {
  const { section, subsection, variable } = keyParts(key);
  return variable === 'path' && ((section === 'include' && subsection === null) || section === 'includeif');
}

/** The settings and the unvouched keys of `entries`. */
export function vetEntries(entries: readonly ConfigEntry[]): RepositoryGitConfig {
  const settings = new Map<string, string>();
  const unvouched = new Map<string, string>();
  for (const entry of entries) {
    const key = canonicalKey(entry.key);
    if (key === '' || settings.has(key) || unvouched.has(key)) continue;
    const value = inertValue(key);
    if (value !== null) settings.set(key, value);
    else if (!isInclude(key) && !namesNoProgram(keyParts(key))) unvouched.set(key, `${key} (in ${entry.origin})`);
  }
  return { settings: [...settings], unvouched: [...unvouched.values()] };
}

/** The settings that neutralise the programs named by `items` (each `key\nvalue`, or a bare key). */
export function neutralSettings(items: readonly string[]): (readonly [string, string])[] {
  return vetEntries(items.map((item) => ({ origin: '', ...splitItem(item) }))).settings;
}

function splitItem(item: string): { key: string; value: string | null } {
  const newline = item.indexOf('\n');
  return newline < 0 ? { key: item, value: null } : { key: item.slice(0, newline), value: item.slice(newline + 1) };
}

/**
 * The repository's own entries of `git config --list --show-scope --show-origin -z` (a scope, an
 * origin, then its item, in turn).
 */
export function repositoryEntries(listing: string): ConfigEntry[] {
  const items = listing.split('\0');
  const kept: ConfigEntry[] = [];
  for (let i = 0; i + 2 < items.length; i += 3) {
    if (REPOSITORY_SCOPES.has(items[i]!)) kept.push({ origin: fileOf(items[i + 1]!), ...splitItem(items[i + 2]!) });
  }
  return kept;
}

/** `file:.git/config` → `.git/config` (other origins as they are). */
const fileOf = (origin: string): string => (origin.startsWith('file:') ? origin.slice('file:'.length) : origin);

/**
 * What the config of the repository at `cwd` asks (nothing when git is missing). `env` should
 * already carry tole's git guard, so that reading the config runs nothing. Any failure to read (a
 * listing past the limit, a time-out, git refusing the config) rejects with what to do: the
 * settings would be missing, and the command must not run without them.
 */
export function repositoryGitConfig(cwd: string, env: Readonly<Record<string, string>>): Promise<RepositoryGitConfig> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['config', '--list', '--show-scope', '--show-origin', '-z'],
      { cwd, env, encoding: 'utf8', maxBuffer: LISTING_MAX_BYTES, timeout: 10_000 },
      (error, stdout, stderr) => {
        if (!error) resolve(vetEntries(repositoryEntries(stdout)));
        else if ((error as NodeJS.ErrnoException).code === 'ENOENT') resolve({ settings: [], unvouched: [] });
        else reject(new Error(unreadableConfig(error, stderr)));
      },
    );
  });
}

/** The most of `git config --list` read; a longer listing is a failure to read. */
const LISTING_MAX_BYTES = 4 * 1024 * 1024;

function unreadableConfig(error: Error & { code?: unknown; killed?: boolean }, stderr: string): string {
  const reason =
    error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
      ? `its config is longer than ${LISTING_MAX_BYTES / (1024 * 1024)} MB`
      : error.killed
        ? 'git config did not answer within 10 s'
        : stderr.trim().split('\n')[0] || error.message;
  return (
    `tole could not read this repository's git config to keep the programs it names from running (${reason}), ` +
    'so the command was not run. Fix the config (git config --list shows what git finds in it) and run the command again.'
  );
}

/** The most unvouched keys a refusal names; the rest are counted. */
const NAMED_MAX = 5;

/** Why a command that would run unconfined was not run, with what to do. */
export function unvouchedRefusal(unvouched: readonly string[]): string {
  const named = unvouched.slice(0, NAMED_MAX).join(', ');
  const more = unvouched.length > NAMED_MAX ? ` and ${unvouched.length - NAMED_MAX} more` : '';
  return (
    `tole did not run this command outside its sandbox: this repository's git config has ${named}${more}, ` +
    'which tole does not know to name no program, and git could run a program it names. ' +
    'If a key is not needed, remove it (git config --unset <key>); otherwise run the command in the sandbox ' +
    '(without outside_sandbox), where what git runs is confined.'
  );
}
