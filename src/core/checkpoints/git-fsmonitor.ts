/**
 * How a scan's gits hear the change journal (change-journal.ts): as git's fsmonitor hook
 * (`core.fsmonitor`, protocol 2). git keeps a token in the index with a bit for each entry that
 * says it matched its file at a moment after that token; it asks the hook for the paths that
 * may have changed since its token, and looks (lstat) only at those and at the entries without
 * the bit. tole asks watchman before it starts the scan's gits, writes the answer to a file, and
 * the hook prints it, so that no hook runs a watchman client of its own.
 *
 * The hook answers from the token git gives it (`$2`, the one in the index it read):
 * - the token tole asked the journal about: the new token and the paths changed since;
 * - the new token itself (an index a git of this scan already wrote): the new token and no path,
 *   as every change after it will be in the next question;
 * - any other (an index another git wrote, a token from another watch, none): the new token and
 *   `/`, which git takes as "everything may have changed": it looks at every entry.
 * Whichever it prints, an index a git writes holds the new token, which the journal gave before
 * the git started. It is a shell script given in the environment (no file to keep or tamper
 * with); git runs it through `sh -c`, with the version and the token as its arguments.
 */
const HOOK = [
  '[ "$1" = 2 ] && [ -n "$TOLE_FSMONITOR_TOKEN" ] || exit 1',
  'if [ -n "$TOLE_FSMONITOR_SINCE" ] && [ "$2" = "$TOLE_FSMONITOR_SINCE" ]; then',
  '  printf "%s\\000" "$TOLE_FSMONITOR_TOKEN" && exec cat -- "$TOLE_FSMONITOR_PATHS"',
  'fi',
  'if [ "$2" = "$TOLE_FSMONITOR_TOKEN" ]; then printf "%s\\000" "$TOLE_FSMONITOR_TOKEN"; exit 0; fi',
  'printf "%s\\000/" "$TOLE_FSMONITOR_TOKEN"',
].join('\n');

/** What the hook answers in one scan. */
export interface FsmonitorAnswer {
  /** The token the journal was asked about, or null: the hook then answers "everything" to any other than `token`. */
  readonly since: string | null;
  /** The journal's new token. */
  readonly token: string;
  /** A file of the paths changed since `since`, each followed by a NUL. */
  readonly paths: string;
}

/** The options that make a git ask the hook (before the command's name). */
export const FSMONITOR_ARGS = [
  '-c',
  'core.fsmonitor=sh -c "$TOLE_FSMONITOR_HOOK" tole-fsmonitor',
  '-c',
  'core.fsmonitorHookVersion=2',
];

export function fsmonitorEnv(answer: FsmonitorAnswer): NodeJS.ProcessEnv {
  return {
    TOLE_FSMONITOR_HOOK: HOOK,
    TOLE_FSMONITOR_SINCE: answer.since ?? '',
    TOLE_FSMONITOR_TOKEN: answer.token,
    TOLE_FSMONITOR_PATHS: answer.paths,
  };
}

/**
 * The hook's list for the paths the journal named: each as itself and as a folder (`p/`, every
 * entry under it: a folder removed or made a symlink), and the folders watchman leaves out of a
 * watch at its root (`.hg/`, `.svn/`: its default `ignore_vcs`; `.git` is never in a checkpoint).
 */
export function fsmonitorPaths(changed: readonly string[]): Buffer {
  const parts: string[] = ['.hg/', '.svn/'];
  for (const path of changed) parts.push(path, `${path}/`);
  return Buffer.from(`${parts.join('\0')}\0`);
}
