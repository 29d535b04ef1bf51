/**
 * What in a command's text would let git run without tole's guard, or read a config tole did not
 * vet: tole's settings travel in the environment (`GIT_CONFIG_COUNT`, git-guard-env.ts), and a
 * command that unsets them, clears its environment (`env -i`, `exec -c`, `sudo`) or points git at
 * another config (`GIT_CONFIG_GLOBAL=`, `HOME=`) runs git as if tole had read nothing. Such a
 * command does not run unconfined.
 *
 * The command is read with tole's shell parser (git-guard-commands.ts): only a word in command
 * position counts as a program, so `git commit -m "never use sudo"` or `git log --grep env -i`
 * drop nothing; a line the parser cannot read is read loosely, every word anywhere (fail closed).
 * An interpreter's code on the command line (`python3 -c`, `perl -e`, `node -e`) or `eval` text
 * that touches the environment or names the guard, or that is only known at run time, counts as
 * a drop. What a program the command runs does (a script, make, a server started earlier) is not
 * seen; the README's security model says so.
 */

import { DROP_START, REACH_START } from './approval/unconfined-vetting';
import { ARGUMENTS_NEVER_RUN, type GuardItem, guardItems, runsAsCommand } from './git-guard-commands';
import type { Word } from './approval/shell/syntax';
import { codeElsewhereDrops, elsewhereDrops, lineElsewhereDrops, shimRemovalDrops } from './git-guard-elsewhere';

/**
 * Every variable git reads its command-line config from, the files it reads config from, and where
 * it finds its own programs (`--exec-path=DIR` runs DIR's `git-remote-<name>` for a fetch).
 */
const GUARD_NAME = /GIT_CONFIG|GIT_EXEC_PATH|--exec-path=/;
/** Variables that move where git finds the user's own config, which tole does not vet. */
const CONFIG_HOME = /(^|[^\w])(HOME|XDG_CONFIG_HOME)\+?=/;
/**
 * A PATH the command sets that does not keep tole's first: `PATH=/usr/bin git`, `export PATH=bin:$PATH`
 * find a git other than tole's (git-shim-script.ts). `PATH=$PATH:…` keeps it first.
 */
const PATH_SET = /(^|[^\w$])PATH=(?!["']?\$(PATH|\{PATH\})(:|["'\s]|$))/;
/** Where git is installed, named anywhere (an interpreter's code included): that git is not tole's. */
const GIT_INSTALLED =
  /(^|[^\w.~/-])\/(usr\/(local\/)?)?(s?bin|lib\/git-core|libexec\/git-core)\/git(-[\w-]+)?(?![\w./-])/;
/** Programs that run a command with an environment of their own, not the one tole gave. */
const OWN_ENV_PROGRAMS = new Set(['sudo', 'doas', 'su', 'pkexec', 'runuser', 'systemd-run', 'setpriv']);
/** Builtins that take variables out of the environment, by the names given after them. */
const UNEXPORTS = new Set(['unset', 'export', 'declare', 'typeset', 'local', 'readonly']);

/** Builtins that make a name reference with -n. */
const NAMEREF_BUILTINS = new Set(['declare', 'typeset', 'local']);
/** The options before a builtin's first name. */
const leadingOptions = (rest: readonly string[]): readonly string[] =>
  rest.slice(0, rest.findIndex((each) => !/^[-+]/.test(each)) >>> 0);

/**
 * Settings a command's own `git -c` (or `--config-env`) could undo tole's guard with, or bring in
 * a config tole did not read with (`include.path`, `includeIf.*.path`): git reads the command's
 * `-c` after the guard's, so the command's value wins. A setting has its `=`: `git log -c include/x.h`
 * is a combined diff of a path.
 */
const GUARD_KEYS =
  /^(include\.|includeif\.|core\.(hookspath|fsmonitor|sshcommand|askpass)|safe\.barerepository|protocol\.)[^=]*=/i;

const INSTALLED_GIT = `${DROP_START}names git by the path it is installed at, which tole's check does not see`;

/** What in `command` keeps git from tole's guard, one line each (empty when nothing does). */
export function guardDrops(command: string): string[] {
  const items = guardItems(command);
  if (items === null) return looseDrops(command);
  const found = new Set<string>();
  for (const item of items) for (const drop of itemDrops(item)) found.add(drop);
  const programs = items.flatMap((item) =>
    runsAsCommand(item) ? [item.words.map((word) => word.text)] : item.kind === 'unread' ? looseWords(item.text) : [],
  );
  for (const drop of shimRemovalDrops(command, programs)) found.add(drop);
  const dynamic = items.some((item) => runsAsCommand(item) && item.words[0]!.expands);
  for (const drop of lineElsewhereDrops(command, programs, dynamic)) found.add(drop);
  return [...found];
}

function itemDrops(item: GuardItem): string[] {
  switch (item.kind) {
    case 'unread':
      return looseDrops(item.text);
    case 'text':
      return textDrops(item.text);
    case 'code':
      return codeDrops(item.program, item.code);
    case 'program': {
      const [program, ...rest] = item.words;
      const named = runsAsCommand(item);
      const found: string[] = [];
      if (named && program!.substitutions.length > 0)
        found.push(`${DROP_START}runs a program named by a command's output (${program!.text})`);
      if (named) found.push(...gitByPath(program!.text), ...gitByPattern(program!), ...byDescriptor(program!.text));
      const args = rest.map((word) => word.text);
      return [
        ...found,
        ...elsewhereDrops(program!.text, args, named, !item.argument),
        ...programDrops(program!.text, args, item.argument, named && program!.expands),
      ];
    }
  }
}

/**
 * The most words of one command read loosely, each as a program with the words after it: that
 * reading is quadratic in a command's words (a line of 40,000 words read so took more than 4 GB
 * and ended tole). A longer command is a finding instead, its words unread (fail closed).
 */
export const LOOSE_WORDS_MAX = 256;

const TOO_MANY_WORDS = `${DROP_START}has a part tole's check cannot read with more than ${LOOSE_WORDS_MAX} words in one command, too many to read each as a program`;

/** The command read loosely, every word anywhere: for what the parser cannot read. */
function looseDrops(command: string): string[] {
  const found = new Set<string>();
  for (const text of [command, unquoted(command)]) {
    for (const drop of textDrops(text)) found.add(drop);
    for (const words of simpleCommands(text))
      if (words.length > LOOSE_WORDS_MAX) found.add(TOO_MANY_WORDS);
      else for (const drop of dropsOf(words)) found.add(drop);
    for (const drop of shimRemovalDrops(text, looseWords(text))) found.add(drop);
    for (const drop of lineElsewhereDrops(text, looseWords(text), /[$`]/.test(text))) found.add(drop);
  }
  return [...found];
}

/**
 * Every word of `text` read loosely as a program with the words after it (fail closed); a command
 * of more than LOOSE_WORDS_MAX words is its first word's alone (looseDrops refuses it).
 */
function looseWords(text: string): string[][] {
  return simpleCommands(text).flatMap((words) =>
    words.length > LOOSE_WORDS_MAX ? [words] : words.map((_word, index) => words.slice(index)),
  );
}

/** A guard variable's name, or `HOME=`, in text that counts. */
function textDrops(text: string): string[] {
  const found: string[] = [];
  const name = GUARD_NAME.exec(text);
  if (name)
    found.push(
      `${DROP_START}names ${name[0]}, which holds the settings that keep the repository's programs from running`,
    );
  const home = CONFIG_HOME.exec(text);
  if (home) found.push(`${DROP_START}sets ${home[2]}, which moves the git config tole did not read`);
  if (PATH_SET.test(text))
    found.push(`${DROP_START}sets PATH other than after tole's own, which can find a git tole does not check`);
  if (GIT_INSTALLED.test(text)) found.push(INSTALLED_GIT);
  return found;
}

/**
 * What in an interpreter's code (or `eval`'s text) may change the environment git gets: the
 * guard's names, the environment itself (`os.environ`, `%ENV`, `process.env`, `env=`), a program
 * with an environment of its own. Code tole cannot read at all counts too.
 */
const ENV_TOUCH =
  /GIT_CONFIG|GIT_EXEC_PATH|exec-path|environ|%ENV|\$ENV\b|\bENV\b|ENVIRON|process\.env|putenv|unsetenv|clearenv|execve|\bexecle\b|\bsudo\b|\bdoas\b|\bsu\b|\bHOME\b|XDG_CONFIG_HOME|setpriv/;
const ENV_WORD = /\benv\b/i;

function codeDrops(program: string, code: string | null): string[] {
  if (code === null) return [`${DROP_START}runs ${program} with code only known when it runs`];
  if (GIT_INSTALLED.test(code)) return [INSTALLED_GIT];
  // Both, when both are there: a key may accept code that goes where tole's git does not reach,
  // never code that also touches the environment (os.environ.pop('GIT_CONFIG_COUNT') beside ssh).
  const elsewhere = codeElsewhereDrops(program, code);
  const touch = ENV_TOUCH.exec(code) ?? ENV_WORD.exec(code);
  return touch
    ? [
        ...elsewhere,
        `${DROP_START}runs ${program} code that touches the environment git runs with (${touch[0]}), which tole cannot read`,
      ]
    : elsewhere;
}

/**
 * `command` with the shell's quotes and backslashes taken out (`un""set`), and what `$'…'` spells
 * with its escapes written out (`$'\x65nv'` is `env`).
 */
function unquoted(command: string): string {
  return command
    .replace(/\$'((?:[^'\\]|\\.)*)'/g, (_all, body: string) => ansiC(body))
    .replace(/\\(.)/g, '$1')
    .replace(/['"]/g, '');
}

/** The escapes bash reads inside `$'…'`: a byte in hex or octal, a code point, a letter's control. */
const ANSI_C_ESCAPE = /\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|c.|.)/g;
const ANSI_C_LETTERS: Record<string, string> = { n: '\n', t: '\t', r: '\r', e: '\x1b', E: '\x1b', a: '\x07' };

/** The text the body of a `$'…'` quote stands for. */
function ansiC(body: string): string {
  return body.replace(ANSI_C_ESCAPE, (_all, sequence: string) => {
    const head = sequence[0]!;
    if (head === 'x') return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    if (head === 'u' || head === 'U') return String.fromCodePoint(Number.parseInt(sequence.slice(1), 16) % 0x110000);
    if (/[0-7]/.test(head)) return String.fromCharCode(Number.parseInt(sequence, 8) & 0xff);
    if (head === 'c') return String.fromCharCode(sequence.charCodeAt(1) & 0x1f);
    return ANSI_C_LETTERS[head] ?? head;
  });
}

/** The words of each simple command in `text`, split loosely at the shell's separators, redirections left out. */
function simpleCommands(text: string): string[][] {
  return text
    .split(/[;&|()`\n]+|\$\(|(?<=^|\s)[{}](?=\s|$)/)
    .map((part) => withoutRedirections(part.split(/\s+/).filter((word) => word !== '')))
    .filter((words) => words.length > 0);
}

/** A redirection's operator alone (`>`, `2>>`, `<`, `&>`), its file the next word; or with its file joined (`>out`, `2>&1`). */
const REDIRECTION_ALONE = /^(\d*|&)[<>]{1,2}$/;
const REDIRECTION_JOINED = /^(\d*|&)[<>]{1,2}&?\S+$/;

/**
 * `words` without their redirections, which the shell takes out before it runs the program
 * (`env > out` runs env alone; `env > out -i git diff` runs env -i git diff).
 */
function withoutRedirections(words: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (REDIRECTION_ALONE.test(words[i]!)) i++;
    else if (!REDIRECTION_JOINED.test(words[i]!)) kept.push(words[i]!);
  }
  return kept;
}

/** What the words of one simple command, read loosely, do to the environment git gets: each word as a program. */
function dropsOf(words: readonly string[]): string[] {
  const program = words.find((word) => !/^\w+=/.test(word));
  if (program === undefined) return [];
  const at = words.indexOf(program);
  const programBase = program.slice(program.lastIndexOf('/') + 1);
  const found = [
    ...gitByPath(program),
    ...programDrops(program, words.slice(at + 1), at > 0, /^[$`][^/]*$/.test(program)),
    ...elsewhereDrops(program, words.slice(at + 1), true),
  ];
  // An argument of a program that runs none of them is text; the program's own name still counts.
  if (ARGUMENTS_NEVER_RUN.has(programBase)) return found;
  for (let index = at + 1; index < words.length; index++)
    found.push(
      ...programDrops(words[index]!, words.slice(index + 1), true, false),
      ...elsewhereDrops(words[index]!, words.slice(index + 1), true, false),
    );
  return found;
}

/**
 * What `program` run with `rest` does to the environment git gets. `argument`: another program
 * hands it on (`xargs env`); `dynamic`: its name is only known at run time (`$e -i`).
 */
function programDrops(program: string, rest: readonly string[], argument: boolean, dynamic: boolean): string[] {
  const found: string[] = [];
  if (dynamic && rest.some(clearsAsEnvOrExec))
    found.push(
      `${DROP_START}runs a program named at run time (${program}) with an option env or exec clears the environment with`,
    );
  const base = program.slice(program.lastIndexOf('/') + 1);
  const options = rest.filter((each) => each.startsWith('-'));
  if (OWN_ENV_PROGRAMS.has(base))
    found.push(`${REACH_START}runs ${base}, which starts what follows with an environment of its own`);
  if (base === 'env' && envDrops(rest, argument))
    found.push(
      `${DROP_START}runs env clearing or unsetting variables (env -i, env -u), or with arguments tole cannot read`,
    );
  if (base === 'exec' && options.some((option) => /^-[a-zA-Z]*c/.test(option)))
    found.push(`${DROP_START}runs exec -c, which clears the environment`);
  if (base === 'git' && gitSetsGuardKey(rest))
    found.push(
      `${DROP_START}gives git a -c or --config-env setting that undoes tole's guard or includes a config tole did not read`,
    );
  // A name reference sets the variable it names by another name (`declare -n p=PATH; p=/usr/bin`,
  // `local -n q=$1`), which none of the checks on PATH and the guard's names read.
  if (NAMEREF_BUILTINS.has(base) && leadingOptions(rest).some((option) => /^-[a-zA-Z]*n/.test(option)))
    found.push(`${DROP_START}runs ${base} -n, which can set PATH or the guard's variables by another name`);
  if (UNEXPORTS.has(base) && unexportsByPattern(base, rest))
    found.push(`${DROP_START}runs ${base} with variable names tole cannot read before it runs`);
  const leading = rest.slice(0, rest.findIndex((each) => !each.startsWith('-')) >>> 0);
  if ((base === 'command' || base === 'hash') && leading.some((option) => /^-[a-zA-Z]*p/.test(option)))
    found.push(`${DROP_START}runs ${base} -p, which finds a git tole does not check`);
  return found;
}

/** A git run by its path (`/usr/bin/git`, `./bin/git`, `$(git --exec-path)/git-diff`): not tole's git, which PATH finds. */
function gitByPath(program: string): string[] {
  return /\/git(-[\w.-]+)?$/.test(program)
    ? [`${DROP_START}runs git by a path (${program}), which tole's check does not see`]
    : [];
}

/**
 * A program run through an open file (`exec 9</usr/bin/git; /dev/fd/9 diff`, `/dev/stdin diff <
 * /usr/bin/git`): the file opened, which a redirection names, may be git, and no path names it.
 */
function byDescriptor(program: string): string[] {
  return /^\/(dev\/(fd\/|std(in|out|err)$)|proc\/[^/]+\/fd\/)/.test(program)
    ? [`${DROP_START}runs a program through an open file (${program}), which may be a git tole's check does not see`]
    : [];
}

/**
 * A program named by a path pattern the shell expands (`/usr/bin/g[i]t`, `./gi?`, `/usr/bin/gi{t,}`)
 * whose last part may match git or one of its programs: git by its path, spelled so that
 * gitByPath's reading of the text does not see it. A pattern with no `/` is looked up in PATH,
 * which finds tole's git.
 */
function gitByPattern(program: Word): string[] {
  const { text } = program;
  const brace = program.expands && /(^|[^$])\{[^}]*(,|\.\.)[^}]*\}/.test(text);
  if (!text.includes('/') || (!program.glob && !brace)) return [];
  const last = text.slice(text.lastIndexOf('/') + 1);
  // A brace may put any text there; a glob is read as a pattern (a class as any one character).
  const pattern = new RegExp(
    `^${last
      .replace(/\[[^\]]*\]/g, '\u0000')
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')
      .replace(/\u0000/g, '.')}$`,
  );
  return brace || ['git', 'git-upload-pack', 'git-remote-http'].some((name) => pattern.test(name))
    ? [`${DROP_START}runs a program by a path pattern (${text}) that may name git, which tole's check does not see`]
    : [];
}

/**
 * Whether env, given `args`, may clear or unset variables: any option before the command it runs
 * (env's options are few, and `--ignore-env` abbreviated, `-C DIR -i` or `-S'-i …'` clear it as
 * well as `-i` does), or arguments built at run time or passed in by another program
 * (`xargs env`, `find -exec env {}`). `env` alone as a command only prints the environment.
 */
function envDrops(args: readonly string[], isArgument: boolean): boolean {
  for (const arg of args) {
    if (arg.startsWith('-')) return true;
    if (/^\w+=/.test(arg)) continue;
    return !/^[\w./+-]+$/.test(arg);
  }
  return isArgument;
}

/** Whether `word` is an option env (`-i`, `-u`, `-S`, `-C`, `-`, `--ignore-…`) or exec (`-c`) clears the environment with. */
function clearsAsEnvOrExec(word: string): boolean {
  return /^(-|-[a-zA-Z0-9]*[iuSCc].*|--(i|u|s|c).*)$/.test(word);
}

/** Whether git's `args` hold a `-c KEY=…` or `--config-env[=]KEY=…` whose key is one of GUARD_KEYS. */
function gitSetsGuardKey(args: readonly string[]): boolean {
  return args.some((arg, index) => {
    const attached = /^--config-env=(.+)$/.exec(arg)?.[1];
    const setting = arg === '-c' || arg === '--config-env' ? args[index + 1] : attached;
    return setting !== undefined && GUARD_KEYS.test(setting);
  });
}

/**
 * Whether `builtin` (unset, export -n, declare +x…) takes out names tole cannot read from the
 * text: one built at run time (`$v`, `${!GIT_@}`, `$(…)`) may be the guard's.
 */
function unexportsByPattern(builtin: string, rest: readonly string[]): boolean {
  const removes = builtin === 'unset' || rest.some((word) => word === '-n' || /^\+[a-zA-Z]*x/.test(word));
  return removes && rest.some((word) => /[$*?[`!]/.test(word));
}
