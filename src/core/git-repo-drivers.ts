/**
 * The commands a repository's own config names for git to run: content filters
 * (`filter.<name>.clean/smudge/process`), diff drivers (`diff.<name>.textconv/command`,
 * `diff.external`), merge drivers, `git archive`'s compressors (`tar.<format>.command`),
 * signing programs, submodule update commands, a local remote's upload/receive programs and
 * credential helpers. Git has no setting that switches a
 * named driver off, and `.gitattributes` in the work tree picks which run, so a hostile
 * repository's `git diff` would run its code. tole reads the repository's config (the local and
 * worktree scopes, with their includes) before each command the model runs and gives every such
 * key, through `GIT_CONFIG_COUNT`, a value that runs nothing of the repository's: the filters
 * become `cat`, a textconv `cat`, a diff command one line saying it was not run, a merge driver
 * git's own text merge.
 * The user's own (system and global) settings are left as they are.
 */
import { execFile } from 'node:child_process';

/**
 * `text` as one shell word. A driver's name is the repository's (any bytes but newline), so it
 * goes to the shell single-quoted, never inside double quotes where `$(…)` would run.
 */
const shellWord = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A command that runs nothing and says so (what git appends to it falls in the comment). */
const NOT_RUN = (what: string): string => `echo ${shellWord(`tole: this repository's ${what} was not run`)} #`;

/**
 * A merge driver's stand-in: git's own three-way text merge of the file, which is what git does
 * for a file with no driver. A driver's exit status is its verdict, so one that only said it was
 * not run would report a clean merge and keep our side alone, dropping the other side's changes.
 * git fills in the placeholders; nothing is appended to the command.
 */
const TEXT_MERGE = (name: string): string =>
  `echo ${shellWord(`tole: this repository's merge driver ${name} was not run; git merged the file as text`)} >&2; ` +
  'git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B';

interface Neutral {
  readonly key: RegExp;
  readonly value: (name: string) => string;
}

/** Keys of the local scope that name a program, and what they become. */
const NEUTRAL: readonly Neutral[] = [
  { key: /^filter\.(.+)\.(clean|smudge)$/, value: () => 'cat' },
  { key: /^filter\.(.+)\.process$/, value: () => '' },
  { key: /^diff\.(.+)\.textconv$/, value: () => 'cat' },
  { key: /^diff\.(.+)\.command$/, value: (name) => NOT_RUN(`diff driver ${name}`) },
  { key: /^diff\.external$/, value: () => NOT_RUN('diff.external') },
  { key: /^merge\.(.+)\.driver$/, value: (name) => TEXT_MERGE(name) },
  {
    key: /^tar\.(.+)\.command$/,
    // Reads the archive git sends before failing: a stand-in that left first would have git die of a
    // broken pipe (exit 141) or fail (128) by a race, where this fails the same way every time.
    value: (name) =>
      `cat >/dev/null; echo ${shellWord(`tole: this repository's archive command for ${name} was not run`)} >&2; false`,
  },
  { key: /^gpg\.program$/, value: () => 'gpg' },
  { key: /^gpg\.openpgp\.program$/, value: () => 'gpg' },
  { key: /^gpg\.x509\.program$/, value: () => 'gpgsm' },
  { key: /^gpg\.ssh\.program$/, value: () => 'ssh-keygen' },
  { key: /^gpg\.ssh\.defaultkeycommand$/, value: () => '' },
  { key: /^submodule\.(.+)\.update$/, value: () => 'checkout' },
  { key: /^remote\.(.+)\.uploadpack$/, value: () => 'git-upload-pack' },
  { key: /^remote\.(.+)\.receivepack$/, value: () => 'git-receive-pack' },
  { key: /^credential\.(.+\.)?helper$/, value: () => '' },
  { key: /^core\.editor$/, value: () => 'false' },
  { key: /^sequence\.editor$/, value: () => 'false' },
  { key: /^core\.pager$/, value: () => 'cat' },
  { key: /^pager\..+$/, value: () => 'cat' },
  { key: /^core\.gitproxy$/, value: () => '' },
];

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

/** The settings that neutralise the programs named by `items` (each `key\nvalue`, or a bare key). */
export function neutralSettings(items: readonly string[]): (readonly [string, string])[] {
  const settings = new Map<string, string>();
  for (const item of items) {
    const key = canonicalKey(item.split('\n', 1)[0]!);
    if (key === '' || settings.has(key)) continue;
    for (const neutral of NEUTRAL) {
      const match = neutral.key.exec(key);
      if (match) settings.set(key, neutral.value(match[1] ?? ''));
    }
  }
  return [...settings];
}

/** The repository's own items of `git config --list --show-scope -z` (a scope, then its item, in turn). */
export function repositoryItems(listing: string): string[] {
  const items = listing.split('\0');
  const kept: string[] = [];
  for (let i = 0; i + 1 < items.length; i += 2) if (REPOSITORY_SCOPES.has(items[i]!)) kept.push(items[i + 1]!);
  return kept;
}

/**
 * The neutral settings for the repository at `cwd` (none when git is missing). `env` should
 * already carry tole's git guard, so that reading the config runs nothing. Only the keys are
 * read (`--name-only`): the values are not needed, and a repository cannot fill the listing with
 * them. Any other failure to read (a listing past the limit, a time-out, git refusing the config)
 * rejects with what to do: the settings would be missing, and the command must not run without
 * them.
 */
export function repositoryDriverSettings(
  cwd: string,
  env: Readonly<Record<string, string>>,
): Promise<(readonly [string, string])[]> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['config', '--list', '--show-scope', '--name-only', '-z'],
      { cwd, env, encoding: 'utf8', maxBuffer: LISTING_MAX_BYTES, timeout: 10_000 },
      (error, stdout, stderr) => {
        if (!error) resolve(neutralSettings(repositoryItems(stdout)));
        else if ((error as NodeJS.ErrnoException).code === 'ENOENT') resolve([]);
        else reject(new Error(unreadableConfig(error, stderr)));
      },
    );
  });
}

/** The most of `git config --list --name-only` read; a longer listing is a failure to read. */
const LISTING_MAX_BYTES = 4 * 1024 * 1024;

function unreadableConfig(error: Error & { code?: unknown; killed?: boolean }, stderr: string): string {
  const reason =
    error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
      ? `its config names more than ${LISTING_MAX_BYTES / (1024 * 1024)} MB of keys`
      : error.killed
        ? 'git config did not answer within 10 s'
        : stderr.trim().split('\n')[0] || error.message;
  return (
    `tole could not read this repository's git config to keep the programs it names from running (${reason}), ` +
    'so the command was not run. Fix the config (git config --list shows what git finds in it) and run the command again.'
  );
}
