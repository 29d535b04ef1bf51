/**
 * Commands whose git runs without tole's git (git-shim-script.ts) although tole put it first on
 * PATH: a shell started to read startup files (a login shell, `bash -i`, `. /etc/profile`), whose
 * files set PATH again; a program that runs a command in an environment of its own, started
 * outside tole (a tmux or screen server, ssh, at, a container); and a command that looks up where
 * tole's git is and changes files, which may remove or replace it within the same call. Read by
 * git-guard-drops.ts. Each is refused unconfined with what to do, but for those that only go where
 * tole's git does not reach (REACH_START): with no sandbox, a person's key at the approval box,
 * shown them, runs those unconfined. A removal of tole's git stays refused.
 */
import { DROP_START, REACH_START } from './approval/unconfined-vetting';

const basename = (text: string): string => text.slice(text.lastIndexOf('/') + 1);

/** bash, sh and their kin: started with one of STARTUP_OPTIONS they read startup files first. */
const POSIX_SHELLS = new Set(['sh', 'bash', 'dash', 'ksh', 'mksh', 'ash', 'rbash', 'busybox']);
/** Shells that read startup files however they are started (zsh's zshenv, fish's config.fish). */
const ALWAYS_READ = new Set(['zsh', 'fish', 'csh', 'tcsh']);
/** `-l`, `-i` alone or among short options (`-lc`, `-il`), `--login`, `--rcfile`, `--init-file`, `--interactive`. */
const STARTUP_OPTION = /^(-[a-zA-Z]*[li][a-zA-Z]*|--login|--rcfile(=.*)?|--init-file(=.*)?|--interactive)$/;
/**
 * Files a shell reads when it starts, which may set PATH outright (Debian's /etc/profile does):
 * sourcing one (`. /etc/profile`, `source ~/.profile`) puts PATH back without tole's git.
 */
const STARTUP_FILE =
  /^\.?(profile|bashrc|bash_profile|bash_login|bash\.bashrc|zshrc|zshenv|zprofile|zlogin|kshrc|mkshrc|cshrc|tcshrc|login|environment|config\.fish)$/;

/**
 * Programs that run a command through a server, a daemon or another machine, in an environment
 * that was never tole's: a tmux or screen server started earlier, ssh, at and batch, a
 * container, a running editor. Read only in command position (or handed to a program that runs
 * its arguments, `xargs ssh`): `git commit -m "fix ssh"` and `man tmux` start none.
 */
const ELSEWHERE_PROGRAMS = new Set([
  'tmux',
  'screen',
  'byobu',
  'ssh',
  'at',
  'batch',
  'emacsclient',
  'machinectl',
  'nsenter',
  'flatpak-spawn',
  'distrobox-enter',
  'toolbox',
  'launchctl',
  'crontab',
  'sshpass',
  'autossh',
  'mosh',
  'slogin',
  'rsh',
  'gnome-terminal',
  'kitten',
  'run0',
  // The desktop session opens a file (a .desktop file's Exec) in its own environment.
  'xdg-open',
  'gtk-launch',
  'kioclient',
  'kioclient5',
]);
/**
 * tmux commands that only read or show (a hook's `tmux display-message`): allowed where nothing
 * else in the line can run a command (no `#(…)` format, no second command after `;`).
 */
const TMUX_READS = new Set([
  'display-message',
  'display',
  'has-session',
  'has',
  'list-sessions',
  'ls',
  'list-windows',
  'lsw',
  'list-panes',
  'lsp',
  'list-clients',
  'lsc',
  'show-options',
  'show',
  'show-window-options',
  'showw',
  'capture-pane',
  'capturep',
  'list-buffers',
  'lsb',
  'show-buffer',
  'showb',
]);

/** Whether tmux run with `rest` only reads or shows: one command of TMUX_READS, nothing that runs a shell. */
function tmuxOnlyReads(rest: readonly string[]): boolean {
  let i = 0;
  while (i < rest.length && rest[i]!.startsWith('-')) {
    const option = rest[i]!;
    // -c runs a shell command; -f reads a config file when it starts a server; -C reads commands.
    if (/^-[a-zA-Z]*[cfC]/.test(option)) return false;
    i += /^-[a-zA-Z]*[SLT]$/.test(option) ? 2 : 1;
  }
  const command = rest[i];
  if (command === undefined || !TMUX_READS.has(command)) return false;
  return rest.slice(i + 1).every((word) => !word.includes('#(') && !word.endsWith(';'));
}

/** Container programs: their `exec`, `run`, `compose`, `container` run a command inside one. */
const CONTAINERS = new Set(['docker', 'podman', 'nerdctl', 'lxc', 'incus', 'kubectl']);
const CONTAINER_RUNS = new Set(['exec', 'run', 'compose', 'container', 'attach', 'debug']);
/** Programs whose remote control opens a window or a program in a running terminal or desktop session: `kitty @ launch`, `wezterm cli spawn`, `gio launch`. */
const TERMINAL_REMOTE: Readonly<Record<string, string>> = { kitty: '@', wezterm: 'cli', gio: 'launch' };
/** vim's options that send keys or an expression to a running vim server. */
const EDITOR_REMOTE = /^--remote-(send|expr)/;

/**
 * What `program` run with `rest` does that starts git elsewhere. `named`: the word is in command
 * position or handed to a program that runs it (not an argument of a program that may not).
 */
export function elsewhereDrops(
  program: string,
  rest: readonly string[],
  named: boolean,
  /** The word is the command's own program (not handed on by `xargs`, `find -exec`): `script` counts only there. */
  first = named,
): string[] {
  if (!named) return [];
  const base = basename(program);
  const options = leadingOptions(rest);
  // util-linux script runs its command (or an interactive shell) with $SHELL, which may be zsh or fish.
  if (first && base === 'script')
    return [`${REACH_START}runs script, which starts the user's shell, which can set PATH without tole's git`];
  if (ALWAYS_READ.has(base) || (POSIX_SHELLS.has(base) && options.some((each) => STARTUP_OPTION.test(each))))
    return [
      `${REACH_START}starts ${base} to read startup files (a login or interactive shell), which can set PATH without tole's git`,
    ];
  if (base === 'exec' && options.some((each) => /^-[a-zA-Z]*l/.test(each) || each === '-a'))
    return [`${REACH_START}runs exec -l or -a, which starts a login shell that can set PATH without tole's git`];
  // A glob may name a startup file only where the shell itself sources it (`. /etc/prof*`): a word
  // handed on (`find . -name '*.ts' -exec …`, whose start folder is `.`) sources nothing.
  if (
    (base === '.' || base === 'source') &&
    rest.some(
      (each) => STARTUP_FILE.test(basename(each)) || each.includes('/profile.d/') || (first && /[*?[]/.test(each)),
    )
  )
    return [`${REACH_START}sources a shell's startup file, which can set PATH without tole's git`];
  if (
    (ELSEWHERE_PROGRAMS.has(base) && !(base === 'tmux' && tmuxOnlyReads(rest))) ||
    (CONTAINERS.has(base) && rest.some((each) => CONTAINER_RUNS.has(each))) ||
    (Object.hasOwn(TERMINAL_REMOTE, base) && rest.includes(TERMINAL_REMOTE[base]!)) ||
    (/^(vim|nvim|gvim|vi)$/.test(base) && rest.some((each) => EDITOR_REMOTE.test(each)))
  )
    return [`${REACH_START}runs ${base}, which runs commands in an environment of its own`];
  return [];
}

/** A startup file named anywhere in the line, as a path word (`/etc/profile`, `~/.bashrc`, `$HOME/.zshrc`). */
const STARTUP_PATH =
  /(^|[\s='"/:])\.?(profile|bashrc|bash_profile|bash_login|bash\.bashrc|zshrc|zshenv|zprofile|zlogin|kshrc|mkshrc|cshrc|tcshrc)(?![\w.-])|\/profile\.d\/|\/etc\/environment\b/;
/** `builtin .`, `command source` and the like: the shell's own source, given as an argument. */
const BUILTIN_SOURCE = /(^|[\s;&|(`])(builtin|command)(\s+-\S+)*\s+(\.|source)(\s|$)/;
/** A variable naming the file a shell reads when it starts (bash's BASH_ENV, sh's ENV). */
const STARTUP_VARIABLE = /(^|[^\w])(BASH_ENV|ENV)\+?=/;
/** The names of ELSEWHERE_PROGRAMS and the rest as whole words, for a line that also runs a program named at run time. */
const ELSEWHERE_WORD = new RegExp(
  `(^|[^\\w.])(${[...ELSEWHERE_PROGRAMS, ...CONTAINERS, ...ALWAYS_READ, 'systemd-run', 'kitty', 'wezterm'].join('|')})($|[^\\w.-])`,
);

/**
 * What the whole line does that no one word shows: a startup file named where the line sources
 * a file or sets BASH_ENV/ENV (`f=/etc/profile; . $f`), a program named at run time where the
 * line names one of the programs above (`t=tmux; $t run-shell …`). `programs`: the line's
 * programs in command position with their arguments; `dynamic`: whether one is named at run time.
 */
export function lineElsewhereDrops(line: string, programs: readonly (readonly string[])[], dynamic: boolean): string[] {
  const found: string[] = [];
  const sources = programs.some((words) => words[0] === '.' || words[0] === 'source');
  // `builtin .` and `command .` source as `.` does, though the parser reads `.` as their argument.
  const sourcesByBuiltin = BUILTIN_SOURCE.test(line) && /[*?[]/.test(line);
  if ((STARTUP_PATH.test(line) && (sources || STARTUP_VARIABLE.test(line))) || sourcesByBuiltin)
    found.push(`${REACH_START}sources a shell's startup file, which can set PATH without tole's git`);
  const named = dynamic ? ELSEWHERE_WORD.exec(line) : null;
  if (named)
    found.push(
      `${REACH_START}runs a program named at run time where it names ${named[2]}, which runs commands in an environment of its own`,
    );
  return found;
}

/**
 * Interpreter code (`python3 -c`, awk's `system`) that names a program of the above, a login
 * shell or a startup file: it may start git without tole's git.
 */
const CODE_ELSEWHERE = new RegExp(
  `(?<![\\w.-])(${[...ELSEWHERE_PROGRAMS].filter((name) => !['at', 'batch'].includes(name)).join('|')}|systemd-run)(?![\\w.-])|--login|\\b(ba|z|da|k|fi)?sh\\W{1,6}-[a-zA-Z]*l|${STARTUP_PATH.source}`,
);

/** What in interpreter code starts a command elsewhere (see CODE_ELSEWHERE). */
export function codeElsewhereDrops(program: string, code: string): string[] {
  const named = CODE_ELSEWHERE.exec(code);
  return named
    ? [
        `${REACH_START}runs ${program} code that starts a login shell, a startup file or a program with an environment of its own (${named[0].trim()})`,
      ]
    : [];
}

/** A shell's options before its first operand; the value of `-o`/`-O` (`bash -O extglob -l`) is skipped. */
function leadingOptions(rest: readonly string[]): string[] {
  const options: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (!word.startsWith('-') && !word.startsWith('+')) break;
    options.push(word);
    if (/^[-+][oO]$/.test(word)) i++;
  }
  return options;
}

/** A lookup of where git is: `command -v git`, `type -a git`, `which git`, `whereis git`, `hash -t git`. */
const GIT_LOOKUP =
  /(^|[^\w-])(command\s+(-\w+\s+)*-[a-zA-Z]*[vV]|type|which|whereis|hash\s+-[a-zA-Z]*t)(\s+-\w+)*(\s+[^\s;&|)`]+)*?\s+["']?git["']?($|[\s;&|)`"'])/;
/** Programs that remove, replace or change files. */
const CHANGES_FILES = new Set([
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'cp',
  'mv',
  'ln',
  'install',
  'chmod',
  'chown',
  'chattr',
  'truncate',
  'tee',
  'dd',
  'rsync',
  'ed',
  'patch',
  'tar',
  'unzip',
]);
/** Programs that change files only with some options: `sed -i`, `perl -i`, `find -delete`/`-exec`. */
const CHANGES_WITH = new Map<string, RegExp>([
  ['sed', /^(-[a-zA-Z]*i|--in-place)/],
  ['perl', /^-[a-zA-Z]*i/],
  ['find', /^-(delete|exec|execdir|ok|okdir|fprint)/],
]);
/** A redirection that writes to a file named at run time (`> $g`, `>> "$(command -v git)"`). */
const WRITE_TO_EXPANSION = /(^|[^<>&\d])\d*>[>|]?\s*["']?[$`]/;

/** The program of `words` that changes files, when it is one. */
function changer(words: readonly string[]): string | null {
  const base = basename(words[0] ?? '');
  if (CHANGES_FILES.has(base)) return base;
  const option = CHANGES_WITH.get(base);
  return option !== undefined && words.slice(1).some((word) => option.test(word)) ? base : null;
}

/**
 * Whether `line` looks up where git is and, in the same line, changes files or writes to a file
 * named at run time: it may remove or replace tole's git, and the next git would be another one.
 * `programs` are the line's programs in command position with their arguments (the parser's
 * reading; every word for what it cannot read).
 */
export function shimRemovalDrops(line: string, programs: readonly (readonly string[])[]): string[] {
  if (!GIT_LOOKUP.test(line)) return [];
  const found = programs.map(changer).find((each) => each !== null) ?? null;
  if (found === null && !WRITE_TO_EXPANSION.test(line)) return [];
  const what = found === null ? 'writes to a file named when it runs' : `runs ${found}`;
  return [
    `${DROP_START}looks up where git is and ${what}, which may remove or replace tole's git; write the lookup and the change in calls of their own`,
  ];
}
