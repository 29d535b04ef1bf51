/**
 * Where a command line runs programs, read with tole's shell parser for the guard check
 * (git-guard-drops.ts): a word counts as a program only in command position — the first word of
 * a command after `;`, `&&`, `|`, `$(`, backticks, in a group — or as an argument of a program
 * that may run its arguments (`xargs`, `find -exec`, `nice`, any program tole does not know to
 * run none), and a string a program may run as a command line (`bash -c`, `eval`, `rg --pre`) is
 * read as one. Arguments of a program that runs none of them (`grep`, `echo`) and the values of
 * git's text options (`-m`, `--grep`) are text. What the parser cannot read is handed back as
 * text for the loose reading, which refuses on any word anywhere (fail closed).
 */
import { INTERPRETER_CODE_OPTIONS, INTERPRETERS, SHELLS, WRAPPERS } from './approval/command-rules';
import { parseShell } from './approval/shell/parser';
import { type Command, MAX_SHELL_DEPTH, type Redirect, type Script, type Word } from './approval/shell/syntax';

/** What the guard check reads in a command line. */
export type GuardItem =
  /**
   * A program in command position: `words[0]`, then its arguments. `argument`: another program
   * hands it on; `wrapped`: that program is one that runs a command it is given (`nice`, `xargs`).
   */
  | { readonly kind: 'program'; readonly words: readonly Word[]; readonly argument: boolean; readonly wrapped: boolean }
  /** Text in which a guard variable's name or `HOME=` counts (assignments, arguments that may be run). */
  | { readonly kind: 'text'; readonly text: string }
  /** An interpreter's code given on its command line or stdin; null when it is only known at run time. */
  | { readonly kind: 'code'; readonly program: string; readonly code: string | null }
  /** Text the parser could not read: the loose reading takes it. */
  | { readonly kind: 'unread'; readonly text: string };

/** A program item that runs as a command: in command position, or handed to a program that runs what it is given (`nice`, `xargs`). */
export function runsAsCommand(item: GuardItem): item is Extract<GuardItem, { kind: 'program' }> {
  return item.kind === 'program' && (!item.argument || item.wrapped);
}

/**
 * Programs that run none of their arguments as a command, whatever they are given: there `sudo`,
 * `su` or `env -i` after the program is text (`grep -rn sudo docs`, `cat su.md`). Not find,
 * xargs, git, rg (`--pre`), man (`-P`), less, sed (`e`), awk (`system`), printf (`-v`).
 */
export const ARGUMENTS_NEVER_RUN = new Set([
  'grep',
  'egrep',
  'fgrep',
  'cat',
  'echo',
  'ls',
  'head',
  'tail',
  'wc',
  'stat',
  'file',
  'which',
]);

/** git's options whose value is text git never runs: a message, a pattern, a format, a name. */
const GIT_TEXT_OPTIONS = new Set([
  '-m',
  '--message',
  '--grep',
  '--author',
  '--committer',
  '-S',
  '-G',
  '--format',
  '--pretty',
  '--since',
  '--until',
  '--after',
  '--before',
  '--date',
  '--trailer',
]);

/** git subcommands that run a command given in their arguments (`bisect run`, `submodule foreach`…). */
const GIT_RUNS_ARGUMENTS = new Set(['bisect', 'submodule', 'filter-branch', 'rebase', 'difftool', 'mergetool']);

/**
 * Programs tole's approval rules do not list as wrappers that also run the command their
 * arguments give (`flock LOCK CMD`, `strace CMD`, `parallel CMD :::`): a program named there is
 * read as in command position, as after `nice` or `xargs`.
 */
const ALSO_RUN_ARGUMENTS = new Set([
  'flock',
  'parallel',
  'strace',
  'ltrace',
  'firejail',
  'systemd-inhibit',
  'caffeinate',
  'chronic',
  'entr',
  'watchexec',
  'sg',
  'taskset',
  'chrt',
  'prlimit',
  'numactl',
  'unshare',
  'faketime',
  'proxychains',
  'proxychains4',
  'torsocks',
  'valgrind',
  'catchsegv',
  'sshpass',
]);

/** awk and its kin: their program text can change the environment (`ENVIRON`) and run commands (`system`). */
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);

const basename = (text: string): string => text.slice(text.lastIndexOf('/') + 1);

/** A word that may be a command line of its own: blanks or the shell's operators in it. */
const LINE_LIKE = /[\s;&|<>()`$]/;

/**
 * A line that may give `which`, `command` or `echo` another meaning: a function of that name, an
 * alias, `enable` (a builtin turned off or loaded). Read loosely, anywhere in the line (fail closed).
 */
const REDEFINES = /\b(which|command|echo)\s*\(\s*\)|\bfunction\s+(which|command|echo)\b|\balias\b|\benable\b/;

/**
 * Whether the line being read may take `$(which NAME)` and `echo TEXT | bash` at their word (see
 * programLookedUp, echoedLine): set by guardItems for the one synchronous reading.
 */
let plainMeanings = false;

/** What the guard check reads in `line`; null when the parser cannot read the line at all. */
export function guardItems(line: string): GuardItem[] | null {
  const parsed = parseShell(line);
  if (!parsed.ok) return null;
  const items: GuardItem[] = [];
  plainMeanings = !REDEFINES.test(line);
  try {
    script(parsed.script, items, 0);
  } finally {
    plainMeanings = false;
  }
  return items;
}

/** A program name `which` or `command -v` may be asked for: no path, no expansion. */
const LOOKED_UP_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;

/**
 * The program a word that is nothing but `$(which NAME)`, `` `which NAME` `` or `$(command -v
 * NAME)` runs: NAME, found on PATH as bash would find it, so the word is read as NAME itself
 * (`$(which sudo) git diff` is sudo). Null for any other word, or where the line may redefine
 * `which` or `command`. What a program planted on PATH under NAME or `which` does, it could do
 * run by its own name too: the check does not read programs.
 */
function programLookedUp(word: Word): string | null {
  if (!plainMeanings || word.substitutions.length !== 1 || !/^(\$\(.*\)|`.*`)$/s.test(word.text)) return null;
  const inner = word.substitutions[0]!;
  if (inner.pipelines.length !== 1 || inner.pipelines[0]!.commands.length !== 1) return null;
  const command = inner.pipelines[0]!.commands[0]!;
  if (command.kind !== 'simple' || command.assignments.length > 0 || command.redirects.length > 0) return null;
  if (!command.words.every((each) => each.plain)) return null;
  const words = command.words.map((each) => each.text);
  const name =
    words.length === 2 && words[0] === 'which'
      ? words[1]!
      : words.length === 3 && words[0] === 'command' && words[1] === '-v'
        ? words[2]!
        : null;
  return name !== null && LOOKED_UP_NAME.test(name) ? name : null;
}

/** A word standing for `name` as written: plain, nothing expanded. */
const plainWord = (name: string): Word => ({
  text: name,
  plain: true,
  expands: false,
  glob: false,
  leadingGlob: false,
  processSubstitution: false,
  substitutions: [],
  evaluates: false,
});

/**
 * What `echo` prints when it is given only literal words, none an option and none with a
 * backslash (which `echo -e`, xpg_echo or a POSIX echo would read as an escape): the words joined
 * by blanks. Null for anything else, or where the line may redefine `echo`.
 */
function echoedLine(command: Command): string | null {
  if (!plainMeanings || command.kind !== 'simple') return null;
  if (command.assignments.length > 0 || command.redirects.length > 0) return null;
  const [program, ...args] = command.words;
  if (program?.text !== 'echo' || !program.plain || args.length === 0) return null;
  if (args.some((word) => word.expands || word.glob || word.text.includes('\\'))) return null;
  if (args[0]!.text.startsWith('-')) return null;
  return args.map((word) => word.text).join(' ');
}

/** `text` read as a command line of its own, nested `depth` deep; what does not parse is unread. */
function nestedLine(text: string, items: GuardItem[], depth: number): void {
  if (depth > MAX_SHELL_DEPTH) return void items.push({ kind: 'unread', text });
  const parsed = parseShell(text, depth);
  if (!parsed.ok) return void items.push({ kind: 'unread', text });
  script(parsed.script, items, depth);
}

/** Programs a pipe may feed without running what they read. */
const READS_AS_DATA = new Set([
  ...ARGUMENTS_NEVER_RUN,
  'sort',
  'uniq',
  'tr',
  'cut',
  'tee',
  'nl',
  'fold',
  'column',
  'rev',
  'tac',
  'base64',
  'od',
  'xxd',
  'less',
  'more',
]);

function script(s: Script, items: GuardItem[], depth: number, feeds = false): void {
  for (const pipeline of s.pipelines) {
    // A pipe into a program that may run what it reads (`| bash`, `| xargs`, `| sed e`): what the
    // commands before it print may be a command, so their arguments are read as if they ran them.
    const fed = feeds || pipeline.commands.slice(1).some((command) => !readsAsData(command));
    pipeline.commands.forEach((command, index) => {
      if (index > 0 && runsStdin(command)) {
        // `echo "git status" | bash`: the shell runs what echo prints, known before it runs.
        const echoed = shellReadsLines(command) ? echoedLine(pipeline.commands[index - 1]!) : null;
        if (echoed !== null) nestedLine(echoed, items, depth + 1);
        else items.push({ kind: 'code', program: programOf(command)!, code: null });
      }
      node(command, items, depth, fed);
    });
  }
}

const programOf = (command: Command): string | null =>
  command.kind === 'simple' && command.words[0] ? basename(command.words[0].text) : null;

/** A shell or interpreter given no code or script on its command line: it runs what the pipe brings. */
function runsStdin(command: Command): boolean {
  const program = programOf(command);
  if (program === null || command.kind !== 'simple') return false;
  const args = command.words.slice(1).map((word) => word.text);
  if ((SHELLS as readonly string[]).includes(program))
    return !args.some((arg) => /^-[a-zA-Z]*c/.test(arg)) && args.every((arg) => arg.startsWith('-'));
  return (INTERPRETERS as readonly string[]).includes(program) && args.every((arg) => arg.startsWith('-'));
}

/**
 * bash or sh given nothing or `-s`: a shell whose reading of a line tole's parser (bash's grammar)
 * reads as it does, and that reads nothing else first (`-i` reads ~/.bashrc and runs PROMPT_COMMAND).
 */
function shellReadsLines(command: Command): boolean {
  const program = programOf(command);
  if (command.kind !== 'simple' || (program !== 'bash' && program !== 'sh')) return false;
  const args = command.words.slice(1);
  return args.length === 0 || (args.length === 1 && args[0]!.plain && args[0]!.text === '-s');
}

function readsAsData(command: Command): boolean {
  return (
    command.kind === 'simple' && command.words[0] !== undefined && READS_AS_DATA.has(basename(command.words[0].text))
  );
}

function node(command: Command, items: GuardItem[], depth: number, fed = false): void {
  if (command.kind === 'function') return node(command.body, items, depth, fed);
  if (command.kind === 'group') {
    script(command.body, items, depth);
    for (const redirect of command.redirects) redirection(redirect, null, items, depth);
    return;
  }
  for (const assignment of command.assignments) {
    const { value } = assignment;
    items.push({ kind: 'text', text: `${assignment.name}=${value.text}` });
    substitutions(value, items, depth);
    // A value bash or a program may run as a command line (PROMPT_COMMAND, PS1's `$(…)`).
    if (LINE_LIKE.test(value.text) && !value.expands) nestedLine(value.text, items, depth + 1);
  }
  for (const word of command.words) substitutions(word, items, depth);
  // `$(which python3) x.py` is read as `python3 x.py` (its lookup was read just above).
  const lookedUp = command.words[0] ? programLookedUp(command.words[0]) : null;
  const words = lookedUp === null ? command.words : [plainWord(lookedUp), ...command.words.slice(1)];
  const program = words[0] ? basename(words[0].text) : null;
  for (const redirect of command.redirects) redirection(redirect, program, items, depth, fed);
  if (words.length > 0) argv(words, { argument: false, wrapped: false, fed }, items, depth);
  // Unquoted, a lookup that finds nothing leaves no word: the next one is the program then.
  if (lookedUp !== null && words.length > 1)
    argv(words.slice(1), { argument: false, wrapped: false, fed }, items, depth);
}

/** A word's substitutions; what a process substitution prints is read by the program, maybe run (`source <(…)`). */
function substitutions(word: Word, items: GuardItem[], depth: number): void {
  for (const inner of word.substitutions) script(inner, items, depth + 1, word.processSubstitution);
}

/**
 * A redirection's substitutions; a heredoc or here-string fed to a program that may run what it
 * reads (a shell, an interpreter, anything but a program that runs none of its input) is read as
 * that program's code.
 */
function redirection(
  redirect: Redirect,
  program: string | null,
  items: GuardItem[],
  depth: number,
  piped = false,
): void {
  substitutions(redirect.target, items, depth);
  for (const inner of redirect.heredoc?.substitutions ?? []) script(inner, items, depth + 1);
  const fed = redirect.heredoc ? redirect.heredoc.body : redirect.op === '<<<' ? redirect.target.text : null;
  if (fed === null || program === null || (ARGUMENTS_NEVER_RUN.has(program) && !piped)) return;
  if ((INTERPRETERS as readonly string[]).includes(program)) items.push({ kind: 'code', program, code: fed });
  else nestedLine(fed, items, depth + 1);
}

/** A program and its arguments: the program, then what of its arguments may be run. */
function argv(
  words: readonly Word[],
  how: { readonly argument: boolean; readonly wrapped: boolean; readonly fed: boolean },
  items: GuardItem[],
  depth: number,
): void {
  items.push({ kind: 'program', words, argument: how.argument, wrapped: how.wrapped });
  const name = basename(words[0]!.text);
  const args = words.slice(1);
  if (ARGUMENTS_NEVER_RUN.has(name) && !how.fed) {
    // Text, but for what the shell expands in it (its substitutions were read above).
    for (const word of args) if (word.expands) items.push({ kind: 'text', text: word.text });
    return;
  }
  if ((INTERPRETERS as readonly string[]).includes(name)) return interpreter(name, args, items);
  if (AWKS.has(name)) {
    const code = args.find((word) => !word.text.startsWith('-'));
    if (code && !args.some((word) => word.text.startsWith('-f')))
      items.push({ kind: 'code', program: name, code: code.expands ? null : code.text });
  }
  if ((SHELLS as readonly string[]).includes(name)) {
    const c = args.findIndex((word) => /^-[a-zA-Z]*c/.test(word.text));
    const line = c >= 0 ? args[c + 1] : undefined;
    if (line?.expands) items.push({ kind: 'code', program: name, code: null });
  }
  if (name === 'eval') {
    if (args.some((word) => word.expands)) items.push({ kind: 'code', program: 'eval', code: null });
    else nestedLine(args.map((word) => word.text).join(' '), items, depth + 1);
    return;
  }
  const gitText = name === 'git' ? gitTextValues(args) : new Set<number>();
  const wrapped =
    Object.hasOwn(WRAPPERS, name) ||
    ALSO_RUN_ARGUMENTS.has(name) ||
    name === 'find' ||
    (SHELLS as readonly string[]).includes(name);
  args.forEach((word, index) => {
    if (gitText.has(index)) return;
    items.push({ kind: 'text', text: word.text });
    if (LINE_LIKE.test(word.text) && !word.expands) {
      nestedLine(word.text, items, depth + 1);
      // A setting's value may be a command line too: `git -c alias.x='!env -i git diff'`, `-o ProxyCommand=…`.
      const value = word.text.slice(word.text.indexOf('=') + 1).replace(/^[:!]+/, '');
      if (value !== word.text) nestedLine(value, items, depth + 1);
    }
    // Handed on as a program (`xargs sudo`, `find -exec env -i`, `nice sudo`): read from there on.
    else items.push({ kind: 'program', words: args.slice(index), argument: true, wrapped });
  });
}

/**
 * The indexes of git's arguments that are the values of its text options (`-m MSG`, `--grep=P`
 * is one word), where git runs none of its arguments as a command; none for a subcommand that may.
 */
function gitTextValues(args: readonly Word[]): Set<number> {
  const text = new Set<number>();
  if (args.some((word) => GIT_RUNS_ARGUMENTS.has(word.text))) return text;
  args.forEach((word, index) => {
    const eq = word.text.indexOf('=');
    if (word.text.startsWith('--') && eq > 0 && GIT_TEXT_OPTIONS.has(word.text.slice(0, eq))) text.add(index);
    else if (GIT_TEXT_OPTIONS.has(word.text) && index + 1 < args.length) text.add(index + 1);
  });
  return text;
}

/** An interpreter's code on its command line (`python3 -c CODE`, `perl -e CODE`); a script file is not read. */
function interpreter(name: string, args: readonly Word[], items: GuardItem[]): void {
  const code = (word: Word | undefined, text?: string): void => {
    if (word !== undefined)
      items.push({ kind: 'code', program: name, code: word.expands ? null : (text ?? word.text) });
  };
  args.forEach((word, index) => {
    const option =
      (INTERPRETER_CODE_OPTIONS as readonly string[]).includes(word.text) ||
      /^-[A-Za-z]*[ceE]$/.test(word.text) ||
      (name === 'deno' && word.text === 'eval');
    if (option) return code(args[index + 1]);
    const attached = /^(?:-[A-Za-z]*?[ceE]|--eval=|--print=)(.+)$/.exec(word.text)?.[1];
    if (attached !== undefined) code(word, attached);
  });
}
