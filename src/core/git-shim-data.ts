/**
 * What tole's git (git-shim-script.ts) is written with: the facts tole found when it started (the
 * real git, its programs folder, the workspace, the user's config files and trustedGitKeys) and
 * the vouching data shared with the vetting before the run (git-inert-keys.ts, git-program-keys.ts,
 * git-guard-env.ts), each as a line of bash setting a `__tole_*` variable.
 */
import { GIT_GUARD_CONFIG } from './git-guard-env';
import { INERT_PATTERNS, NAMED_ONLY } from './git-inert-keys';
import { NAME_SLOT, PROGRAM_KEYS } from './git-program-keys';

export interface GitShimFacts {
  /** bash, absolute. */
  readonly bash: string;
  /** The real git, absolute. */
  readonly realGit: string;
  /** The folder given to git as its programs folder (GIT_EXEC_PATH): a copy of git's own whose gits are this script. */
  readonly execDir: string;
  /**
   * A regular file holding the config `[tole] stdin = read`, given to the listing as its stdin: a
   * config file git reads from stdin then lists tole.stdin (a file, reopened at each read, where a
   * pipe would be read empty after git's first read).
   */
  readonly stdinConfig: string;
  /** The workspace root, real path: a core.worktree outside it is not vouched for. */
  readonly workspaceRoot: string;
  /** The user's trustedGitKeys. */
  readonly trusted: readonly string[];
  /** The user's own config files (system and global scopes), as `git config --show-origin` names them when tole started. */
  readonly userOrigins: readonly string[];
}

/** `text` as one single-quoted shell word. */
const word = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A bash associative array literal whose keys are `keys`. */
const keySet = (name: string, keys: Iterable<string>): string =>
  `declare -A ${name}=(${[...keys].map((key) => `[${word(key)}]=1`).join(' ')})`;

/** A bash array literal of `items`. */
const list = (name: string, items: readonly string[]): string => `${name}=(${items.map(word).join(' ')})`;

/** A trusted key as the script compares it: its canonical form, or a prefix when it ends in `.*`. */
function trustedForms(trusted: readonly string[]): { exact: string[]; prefixes: string[] } {
  const canonical = (key: string): string => {
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first === last) return key.toLowerCase();
    return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
  };
  const exact = trusted.filter((item) => !item.endsWith('.*')).map(canonical);
  const prefixes = trusted
    .filter((item) => item.endsWith('.*'))
    .map((item) => canonical(`${item.slice(0, -2)}.x`).slice(0, -1));
  return { exact, prefixes };
}

/**
 * For each section whose keys may name a program, the PROGRAM_KEYS that can match there (their
 * offsets in the script's flat key/value list, in PROGRAM_KEYS' order): a key is tried only
 * against its own section's patterns, as bash compiles a regular expression at each match.
 */
export function programKeysBySection(): Map<string, number[]> {
  const bySection = new Map<string, number[]>();
  PROGRAM_KEYS.forEach((program, index) => {
    for (const section of /^\^\(?([a-z|]+)/.exec(program.key)![1]!.split('|')) {
      const offsets = bySection.get(section) ?? [];
      offsets.push(index * 2);
      bySection.set(section, offsets);
    }
  });
  return bySection;
}

/**
 * INERT_PATTERNS as one variable per section, `__tole_inert_<section>` (`-` written `_`: git's
 * section names hold only letters, digits and `-`), each the rest of its patterns between
 * newlines, which no key git lists holds: a plain string is set at once, where bash took ~1 ms
 * to fill an associative array of ~290 keys at each git's start.
 */
function inertBySection(): string[] {
  const rests = new Map<string, string[]>();
  for (const pattern of INERT_PATTERNS) {
    const dot = pattern.indexOf('.');
    const section = pattern.slice(0, dot);
    if (!/^[a-z0-9-]+$/.test(section)) throw new Error(`inert pattern with an unexpected section: ${pattern}`);
    rests.set(section, [...(rests.get(section) ?? []), pattern.slice(dot + 1)]);
  }
  return [...rests].map(
    ([section, list]) => `__tole_inert_${section.replaceAll('-', '_')}=${word(`\n${list.join('\n')}\n`)}`,
  );
}

/** A bash associative array literal from `entries`. */
const table = (name: string, entries: Iterable<readonly [string, string]>): string =>
  `declare -A ${name}=(${[...entries].map(([key, value]) => `[${word(key)}]=${word(value)}`).join(' ')})`;

/** The script's data, one bash line each. */
export function shimData(facts: GitShimFacts): string[] {
  const trusted = trustedForms(facts.trusted);
  return [
    `__tole_real=${word(facts.realGit)}`,
    `__tole_exec=${word(facts.execDir)}`,
    `__tole_stdin=${word(facts.stdinConfig)}`,
    `__tole_root=${word(facts.workspaceRoot)}`,
    ...inertBySection(),
    keySet('__tole_named', NAMED_ONLY),
    keySet('__tole_user', facts.userOrigins),
    keySet('__tole_trusted', trusted.exact),
    list('__tole_trusted_prefixes', trusted.prefixes),
    table(
      '__tole_program_index',
      [...programKeysBySection()].map(([section, offsets]) => [section, offsets.join(' ')] as const),
    ),
    // One expression per section matching where any of its own does: most keys of such a section
    // (core.bare…) name no program, and are then tried once instead of once per pattern.
    table(
      '__tole_program_any',
      [...programKeysBySection()].map(
        ([section, offsets]) =>
          [section, offsets.map((offset) => `(${PROGRAM_KEYS[offset / 2]!.key})`).join('|')] as const,
      ),
    ),
    list(
      '__tole_program_keys',
      PROGRAM_KEYS.flatMap((program) => [program.key, program.value]),
    ),
    list('__tole_guard', GIT_GUARD_CONFIG.flat()),
    `__tole_slot=${word(NAME_SLOT)}`,
  ];
}
