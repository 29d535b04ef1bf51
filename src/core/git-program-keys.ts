/**
 * Keys of a repository's git config that name a program for git to run, and the inert value tole
 * gives each through `GIT_CONFIG_COUNT` (which outranks every config file): the filters become
 * `cat`, a textconv `cat`, a diff command one line saying it was not run, a merge driver git's
 * own text merge, an alias one line saying it was not run. Keys are matched as canonicalKey
 * writes them: the section and the variable lowercased, a subsection (a driver's name) as written.
 */

/**
 * `text` as one shell word. A driver's name is the repository's (any bytes but newline), so it
 * goes to the shell single-quoted, never inside double quotes where `$(…)` would run.
 */
const shellWord = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * Where a value takes the key's name (a driver's or a tool's): always inside a single-quoted
 * shell word, so the name goes in with each `'` written `'\''` (nameInsideQuotes). The same
 * templates are written into tole's git shim (git-shim-script.ts), which fills them in the same way.
 */
export const NAME_SLOT = '@NAME@';

/** `name` as it goes in place of NAME_SLOT: inside single quotes. */
export const nameInsideQuotes = (name: string): string => name.replaceAll("'", `'\\''`);

/** A command that runs nothing and says so (what git appends to it falls in the comment). */
const NOT_RUN = (what: string): string => `echo ${shellWord(`tole: this repository's ${what} was not run`)} #`;

/** As NOT_RUN, on stderr, and failing: for a program whose success would be taken as done. */
const NOT_RUN_FAILS = (what: string): string =>
  `echo ${shellWord(`tole: this repository's ${what} was not run`)} >&2; false #`;

/**
 * A merge driver's stand-in: git's own three-way text merge of the file, which is what git does
 * for a file with no driver. A driver's exit status is its verdict, so one that only said it was
 * not run would report a clean merge and keep our side alone, dropping the other side's changes.
 * git fills in the placeholders; nothing is appended to the command.
 */
const TEXT_MERGE =
  `echo ${shellWord(`tole: this repository's merge driver ${NAME_SLOT} was not run; git merged the file as text`)} >&2; ` +
  'git merge-file --marker-size=%L -L ours -L base -L theirs %A %O %B';

export interface ProgramKey {
  /**
   * The keys, as a regular expression both JavaScript and the shell's `[[ =~ ]]` (POSIX extended)
   * read alike: its first group is the name NAME_SLOT stands for.
   */
  readonly key: string;
  /** The inert value; NAME_SLOT is replaced by the key's name. */
  readonly value: string;
}

/** Every key that names a program, in order: when two match, the later one's value is given. */
export const PROGRAM_KEYS: readonly ProgramKey[] = [
  { key: '^filter\\.(.+)\\.(clean|smudge)$', value: 'cat' },
  { key: '^filter\\.(.+)\\.process$', value: '' },
  { key: '^diff\\.(.+)\\.textconv$', value: 'cat' },
  { key: '^diff\\.(.+)\\.command$', value: NOT_RUN(`diff driver ${NAME_SLOT}`) },
  { key: '^diff\\.external$', value: NOT_RUN('diff.external') },
  { key: '^merge\\.(.+)\\.driver$', value: TEXT_MERGE },
  {
    key: '^tar\\.(.+)\\.command$',
    // Reads the archive git sends before failing: a stand-in that left first would have git die of a
    // broken pipe (exit 141) or fail (128) by a race, where this fails the same way every time.
    value: `cat >/dev/null; echo ${shellWord(`tole: this repository's archive command for ${NAME_SLOT} was not run`)} >&2; false`,
  },
  { key: '^gpg\\.program$', value: 'gpg' },
  // The program each signature format runs when no config names one; a format git does not know runs none.
  { key: '^gpg\\.(.+)\\.program$', value: 'false' },
  { key: '^gpg\\.(openpgp)\\.program$', value: 'gpg' },
  { key: '^gpg\\.(x509)\\.program$', value: 'gpgsm' },
  { key: '^gpg\\.(ssh)\\.program$', value: 'ssh-keygen' },
  { key: '^gpg\\.ssh\\.defaultkeycommand$', value: '' },
  { key: '^submodule\\.(.+)\\.update$', value: 'checkout' },
  { key: '^remote\\.(.+)\\.uploadpack$', value: 'git-upload-pack' },
  { key: '^remote\\.(.+)\\.receivepack$', value: 'git-receive-pack' },
  { key: '^credential\\.(.+\\.)?helper$', value: '' },
  { key: '^core\\.editor$', value: 'false' },
  { key: '^sequence\\.editor$', value: 'false' },
  { key: '^core\\.pager$', value: 'cat' },
  { key: '^pager\\..+$', value: 'cat' },
  // core.gitProxy is not here: git takes the first value it reads (connect.c), so a later inert one
  // would not undo a repository's; a repository's core.gitProxy is refused (not vouched) instead.
  // Its output is read as refs the alternate has; `true` says it has none.
  { key: '^core\\.alternaterefscommand$', value: 'true' },
  // Every alias: a `!` alias runs the shell, and a plain one can bring `-c` settings that outrank tole's.
  { key: '^alias\\.(.+)$', value: `!${NOT_RUN_FAILS(`alias ${NAME_SLOT}`)}` },
  { key: '^difftool\\.(.+)\\.cmd$', value: NOT_RUN_FAILS(`difftool ${NAME_SLOT}`) },
  { key: '^mergetool\\.(.+)\\.cmd$', value: NOT_RUN_FAILS(`mergetool ${NAME_SLOT}`) },
  { key: '^guitool\\.(.+)\\.cmd$', value: NOT_RUN_FAILS(`guitool ${NAME_SLOT}`) },
  { key: '^browser\\.(.+)\\.cmd$', value: NOT_RUN_FAILS(`browser ${NAME_SLOT}`) },
  { key: '^man\\.(.+)\\.cmd$', value: NOT_RUN_FAILS(`man viewer ${NAME_SLOT}`) },
  // A tool's path is run as the tool's program.
  { key: '^(difftool|mergetool|browser|man)\\.(.+)\\.path$', value: 'false' },
  { key: '^interactive\\.difffilter$', value: 'cat' },
  { key: '^imap\\.tunnel$', value: NOT_RUN_FAILS('imap.tunnel') },
  // A template directory's hooks and config are copied into every repository git init makes.
  { key: '^init\\.templatedir$', value: '' },
  // An absolute smtpServer is run as a sendmail program; the *Cmd keys are run for addresses.
  { key: '^sendemail\\.(.+\\.)?smtpserver$', value: '/usr/bin/false' },
  { key: '^sendemail\\.(.+\\.)?sendmailcmd$', value: 'false' },
  { key: '^sendemail\\.(.+\\.)?(tocmd|cccmd|headercmd)$', value: 'true' },
  // Not a program, but a file written wherever the repository says (the cookie jar).
  { key: '^http\\.(.+\\.)?savecookies$', value: 'false' },
];

const COMPILED = PROGRAM_KEYS.map((program) => ({ key: new RegExp(program.key), value: program.value }));

/** The inert value for `key` (canonicalKey's form) when it names a program; null otherwise. */
export function inertValue(key: string): string | null {
  let value: string | null = null;
  for (const program of COMPILED) {
    const match = program.key.exec(key);
    if (match) value = program.value.replaceAll(NAME_SLOT, () => nameInsideQuotes(match[1] ?? ''));
  }
  return value;
}
