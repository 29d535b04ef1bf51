/**
 * What the bash parser makes of a command line: words, redirections, commands, pipelines. The
 * classifier reads these; nothing here runs anything.
 */

/** Nesting bound for substitutions, groups and re-parsed strings (`bash -c`, `eval`). */
export const MAX_SHELL_DEPTH = 8;
/** Longest command line the parser accepts. */
export const MAX_COMMAND_LINE_CHARS = 65_536;

export interface Word {
  /** The word after quote removal; expansions are kept as written (`$X`, `$(…)`). */
  readonly text: string;
  /** No quotes, escapes or expansions: only such a word can be a reserved word (`{`, `if`). */
  readonly plain: boolean;
  /** The value is only known at run time: `$X`, `${X}`, `$(…)`, backticks, `$((…))`, `<(…)`, `{a,b}`. */
  readonly expands: boolean;
  /** An unquoted `*`, `?` or `[…]` makes bash replace the word with matching file names. */
  readonly glob: boolean;
  /** The word starts with an unquoted glob or brace, so it may become a name like `-delete`. */
  readonly leadingGlob: boolean;
  /** The whole word is `<(…)` or `>(…)`: bash replaces it with a `/dev/fd/N` path. */
  readonly processSubstitution: boolean;
  /** Scripts bash runs while expanding this word. */
  readonly substitutions: readonly Script[];
  /**
   * Bash evaluates text of this word that tole cannot prove literal as arithmetic or as a prompt
   * (`$((x))`, `$[x]`, `${a[$i]}`, `${s:n}`, `${!ref}`, `${v@P}`, `a=([$k]=1)`): a value like
   * `a[$(cmd)]` then runs `cmd`.
   */
  readonly evaluates: boolean;
  /** The pieces the text is made of, in order (the parser's words; absent on words made by the caller). */
  readonly pieces?: readonly WordPiece[];
}

/** One piece of a word as written: unquoted or quoted literal text, or an expansion (`$x`, `${x:-y}`, `$(…)`). */
export interface WordPiece {
  readonly kind: 'unquoted' | 'quoted' | 'expansion';
  readonly text: string;
}

export interface Assignment {
  readonly name: string;
  readonly value: Word;
  /** `NAME+=value`: the value is added to what the variable held. */
  readonly append?: boolean;
}

export type RedirectOp = '<' | '>' | '>>' | '>|' | '<>' | '<<' | '<<-' | '<<<' | '>&' | '<&' | '&>' | '&>>';

interface Heredoc {
  readonly body: string;
  /** False when the delimiter was quoted: the body is then taken literally. */
  readonly expands: boolean;
  readonly substitutions: readonly Script[];
  /** The body holds an expansion bash evaluates (see `Word.evaluates`). */
  readonly evaluates: boolean;
}

export interface Redirect {
  readonly op: RedirectOp;
  readonly fd?: number;
  /** `{name}>file`: bash picks a free descriptor and stores it in `name`. */
  readonly fdName?: string;
  readonly target: Word;
  readonly heredoc?: Heredoc;
}

export interface SimpleCommand {
  readonly kind: 'simple';
  readonly assignments: readonly Assignment[];
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
}

/** `( … )` or `{ …; }`, with the redirections that apply to the whole group. */
interface GroupCommand {
  readonly kind: 'group';
  readonly body: Script;
  readonly redirects: readonly Redirect[];
}

interface FunctionDefinition {
  readonly kind: 'function';
  readonly name: string;
  readonly body: Command;
}

export type Command = SimpleCommand | GroupCommand | FunctionDefinition;

export interface Pipeline {
  readonly commands: readonly Command[];
  /**
   * Whenever the list it is in runs, this pipeline runs exactly once, in that shell: not after
   * `&&`/`||`, not inside an `if`/`while`/`until`/`for` block, not in the background.
   */
  readonly sure?: boolean;
}

/** Every pipeline of a line, whatever joins them (`;`, `&&`, `||`, `&`, newlines). */
export interface Script {
  readonly pipelines: readonly Pipeline[];
  /** `>(…)`: the script reads what the command writes, through a pipe. */
  readonly fedByPipe?: boolean;
}

/** A word made by the caller (an attached option value, a synthetic argument). */
export function literalWord(text: string, like?: Word): Word {
  return {
    text,
    plain: like?.plain ?? true,
    expands: like?.expands ?? false,
    glob: like?.glob ?? false,
    leadingGlob: false,
    processSubstitution: false,
    substitutions: [],
    evaluates: false,
  };
}
