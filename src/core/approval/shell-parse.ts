/**
 * A parser for bash command lines, good enough to decide what a line may do, never to run it.
 *
 * It understands quoting (`'…'`, `"…"`, `$'…'`, backslashes, adjacent pieces: `r''m` is `rm`),
 * the list and pipe operators, subshells and brace groups, command and process substitution
 * (parsed recursively), redirections, heredocs, leading assignments, `if`/`while`/`for` loops
 * and function definitions. Whatever it does not understand is an error: the caller must treat
 * an error as the most dangerous outcome, never as "probably fine".
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
}

export interface Assignment {
  readonly name: string;
  readonly value: Word;
}

export type RedirectOp = '<' | '>' | '>>' | '>|' | '<>' | '<<' | '<<-' | '<<<' | '>&' | '<&' | '&>' | '&>>';

export interface Heredoc {
  readonly body: string;
  /** False when the delimiter was quoted: the body is then taken literally. */
  readonly expands: boolean;
  readonly substitutions: readonly Script[];
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
export interface GroupCommand {
  readonly kind: 'group';
  readonly body: Script;
  readonly redirects: readonly Redirect[];
}

export interface FunctionDefinition {
  readonly kind: 'function';
  readonly name: string;
  readonly body: Command;
}

export type Command = SimpleCommand | GroupCommand | FunctionDefinition;

export interface Pipeline {
  readonly commands: readonly Command[];
}

/** Every pipeline of a line, whatever joins them (`;`, `&&`, `||`, `&`, newlines). */
export interface Script {
  readonly pipelines: readonly Pipeline[];
}

export type ParseResult =
  | { readonly ok: true; readonly script: Script }
  | { readonly ok: false; readonly error: string };

/** Parses `line`; `depth` is how deeply the line is already nested (a `bash -c` string is 1). */
export function parseShell(line: string, depth = 0): ParseResult {
  if (line.length > MAX_COMMAND_LINE_CHARS) {
    return { ok: false, error: `it is longer than ${MAX_COMMAND_LINE_CHARS} characters` };
  }
  try {
    return { ok: true, script: new ShellParser(line, depth).parseAll() };
  } catch (error) {
    if (error instanceof ShellParseError) return { ok: false, error: error.message };
    throw error;
  }
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
  };
}

class ShellParseError extends Error {}

type Op = ';' | '&' | '&&' | '||' | '|' | '|&' | '\n' | '(' | ')';

type Token =
  | { readonly kind: 'word'; readonly word: Word; readonly assignment?: AssignmentPrefix }
  | { readonly kind: 'op'; readonly op: Op }
  | { readonly kind: 'redirect'; readonly op: RedirectOp; readonly fd?: number; readonly fdName?: string }
  | { readonly kind: 'eof' };

interface AssignmentPrefix {
  readonly name: string;
  /** Length of `NAME=` or `NAME+=` at the start of the word's text. */
  readonly length: number;
}

interface MutableHeredoc {
  body: string;
  expands: boolean;
  substitutions: Script[];
}

interface PendingHeredoc {
  readonly delimiter: string;
  readonly quoted: boolean;
  readonly stripTabs: boolean;
  readonly heredoc: MutableHeredoc;
}

const PREFIX_KEYWORDS = new Set(['!', 'if', 'then', 'elif', 'else', 'do', 'while', 'until', 'time']);
const CLOSING_KEYWORDS = new Set(['fi', 'done']);
const UNSUPPORTED_KEYWORDS = new Set(['case', 'esac', 'select', 'coproc', 'function']);
const REDIRECT_OPS: readonly RedirectOp[] = ['<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>|', '>&', '>'];
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

/** Collects the pieces of one word as the lexer reads them. */
class WordBuilder {
  text = '';
  plain = true;
  expands = false;
  glob = false;
  leadingGlob = false;
  substitutions: Script[] = [];
  /** The unquoted literal characters at the start of the word (for `NAME=value`). */
  literalPrefix = '';
  private literalOpen = true;
  private pieces = 0;
  private startsWithProcessSubstitution = false;
  /** Whether an open unquoted `[` started the word (undefined: no `[` seen). */
  private squareAtStart: boolean | undefined;
  private braceStart = -1;

  unquoted(c: string): void {
    const atStart = this.pieces === 0;
    if (c === '*' || c === '?') this.markGlob(atStart);
    if (c === '[') this.squareAtStart ??= atStart;
    if (c === ']' && this.squareAtStart !== undefined) this.markGlob(this.squareAtStart);
    if (c === '{') this.braceStart = this.text.length;
    if (c === '}' && this.braceStart >= 0 && /,|\.\./.test(this.text.slice(this.braceStart))) {
      // Brace expansion: `{rm,-rf,x}` becomes three words, so the text says nothing reliable.
      this.expands = true;
      this.plain = false;
    }
    this.text += c;
    if (this.literalOpen) this.literalPrefix += c;
    this.pieces++;
  }

  quoted(s: string): void {
    this.text += s;
    this.plain = false;
    this.literalOpen = false;
    this.pieces++;
  }

  expansion(raw: string, scripts: readonly Script[], processSubstitution = false): void {
    if (this.pieces === 0 && processSubstitution) this.startsWithProcessSubstitution = true;
    this.text += raw;
    this.plain = false;
    this.expands = true;
    this.literalOpen = false;
    this.substitutions.push(...scripts);
    this.pieces++;
  }

  build(): Word {
    return {
      text: this.text,
      plain: this.plain,
      expands: this.expands,
      glob: this.glob,
      leadingGlob: this.leadingGlob,
      processSubstitution: this.startsWithProcessSubstitution && this.pieces === 1,
      substitutions: this.substitutions,
    };
  }

  private markGlob(atStart: boolean): void {
    this.glob = true;
    if (atStart) this.leadingGlob = true;
  }
}

const ANSI_SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes one `$'…'` escape at `src[pos]` (a backslash): the text and how many characters it used. */
function decodeAnsiEscape(src: string, pos: number): [string, number] {
  const c = src[pos + 1];
  if (c === undefined) throw new ShellParseError("a $'…' string is never closed");
  const simple = ANSI_SIMPLE_ESCAPES[c];
  if (simple !== undefined) return [simple, 2];
  const numeric = /^(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8}))/.exec(
    src.slice(pos + 1, pos + 10),
  );
  if (numeric) {
    const [all, octal, hex2, hex4, hex8] = numeric;
    const code = octal !== undefined ? parseInt(octal, 8) : parseInt((hex2 ?? hex4 ?? hex8)!, 16);
    if (code > 0x10ffff) throw new ShellParseError(`\\${all} is not a character`);
    return [String.fromCodePoint(code), 1 + all.length];
  }
  if (c === 'c' && src[pos + 2] !== undefined) return [String.fromCharCode(src.charCodeAt(pos + 2) & 0x1f), 3];
  return ['\\' + c, 2];
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'the end of the line';
    case 'op':
      return t.op === '\n' ? 'a line break' : `\`${t.op}\``;
    case 'redirect':
      return `\`${t.op}\``;
    case 'word':
      return `\`${t.word.text}\``;
  }
}

function isOp(t: Token, op: Op): boolean {
  return t.kind === 'op' && t.op === op;
}

function isSeparator(t: Token): boolean {
  return isOp(t, ';') || isOp(t, '&') || isOp(t, '\n');
}

function isKeyword(t: Token, text: string): boolean {
  return t.kind === 'word' && t.word.plain && t.word.text === text;
}

class ShellParser {
  private pos = 0;
  private peeked: Token | undefined;
  private pendingHeredocs: PendingHeredoc[] = [];

  constructor(
    private readonly src: string,
    private depth: number,
  ) {
    if (depth > MAX_SHELL_DEPTH) this.fail(`it nests commands more than ${MAX_SHELL_DEPTH} levels deep`);
  }

  parseAll(): Script {
    const script = this.parseList(undefined);
    const t = this.next();
    if (t.kind !== 'eof') this.fail(`unexpected ${describe(t)}`);
    return script;
  }

  /** The expansions in a heredoc body (the parser's whole source). */
  scanExpansions(): WordBuilder {
    const scratch = new WordBuilder();
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === '\\') this.pos += 2;
      else if (c === '$') this.readDollar(scratch, true);
      else if (c === '`') this.readBackticks(scratch, false);
      else this.pos++;
    }
    return scratch;
  }

  // ---- grammar ----

  private parseList(end: ')' | '}' | undefined): Script {
    const pipelines: Pipeline[] = [];
    let needCommand = false;
    for (;;) {
      const t = this.peek();
      if (isSeparator(t) && !needCommand) {
        this.next();
        continue;
      }
      if (t.kind === 'eof' || this.isEnd(t, end)) {
        if (needCommand) this.fail(`a command is missing before ${describe(t)}`);
        return { pipelines };
      }
      pipelines.push(this.parsePipeline());
      needCommand = false;
      const sep = this.peek();
      if (isOp(sep, '&&') || isOp(sep, '||')) {
        this.next();
        this.skipNewlines();
        needCommand = true;
      } else if (!isSeparator(sep) && sep.kind !== 'eof' && !this.isEnd(sep, end)) {
        this.fail(`unexpected ${describe(sep)}`);
      }
    }
  }

  private isEnd(t: Token, end: ')' | '}' | undefined): boolean {
    if (end === ')') return isOp(t, ')');
    if (end === '}') return isKeyword(t, '}');
    return false;
  }

  private parsePipeline(): Pipeline {
    const commands = [this.parseCommand()];
    while (isOp(this.peek(), '|') || isOp(this.peek(), '|&')) {
      this.next();
      this.skipNewlines();
      commands.push(this.parseCommand());
    }
    return { commands };
  }

  private parseCommand(): Command {
    this.skipPrefixKeywords();
    const t = this.peek();
    if (isOp(t, '(')) return this.src[this.pos] === '(' ? this.parseArithmeticCommand() : this.parseSubshell();
    if (t.kind === 'word' && t.word.plain) {
      const keyword = t.word.text;
      if (keyword === '{') return this.parseBraceGroup();
      if (CLOSING_KEYWORDS.has(keyword)) {
        this.next();
        return { kind: 'simple', assignments: [], words: [], redirects: this.parseRedirects() };
      }
      if (UNSUPPORTED_KEYWORDS.has(keyword)) this.fail(`\`${keyword}\` is not supported`);
      if (keyword === '[[') return this.parseDoubleBracket();
      if (keyword === 'for') return this.parseForHeader();
    }
    return this.parseSimple();
  }

  /** `!`, `if`, `then`, `do`, `time [-p]` … only introduce the command that follows them. */
  private skipPrefixKeywords(): void {
    for (let t = this.peek(); t.kind === 'word' && t.word.plain && PREFIX_KEYWORDS.has(t.word.text); t = this.peek()) {
      this.next();
      if (t.word.text === 'time' && isKeyword(this.peek(), '-p')) this.next();
      this.skipNewlines();
    }
  }

  private parseSubshell(): Command {
    this.next();
    const body = this.parseNested(')');
    this.expectOp(')', '`(` is never closed');
    return { kind: 'group', body, redirects: this.parseRedirects() };
  }

  private parseBraceGroup(): Command {
    this.next();
    const body = this.parseNested('}');
    if (!isKeyword(this.next(), '}')) this.fail('`{` is never closed');
    return { kind: 'group', body, redirects: this.parseRedirects() };
  }

  /** `(( … ))`: an arithmetic command; only its substitutions can do anything. */
  private parseArithmeticCommand(): Command {
    this.next();
    this.pos++;
    const scratch = new WordBuilder();
    const start = this.pos - 2;
    this.scanArithmetic(scratch);
    scratch.expansion(this.src.slice(start, this.pos), []);
    const words = [literalWord('(('), scratch.build()];
    return { kind: 'simple', assignments: [], words, redirects: this.parseRedirects() };
  }

  /** `[[ … ]]`: `<`, `>`, `&&`, `(` inside are operands, not redirections or lists. */
  private parseDoubleBracket(): Command {
    const words: Word[] = [];
    for (;;) {
      const t = this.next();
      if (t.kind === 'eof' || isOp(t, '\n')) this.fail('`[[` is never closed');
      if (t.kind === 'word') {
        words.push(t.word);
        if (words.length > 1 && isKeyword(t, ']]')) break;
      } else {
        words.push(literalWord(t.op));
      }
    }
    return { kind: 'simple', assignments: [], words, redirects: this.parseRedirects() };
  }

  /** `for NAME in WORDS`: the loop body follows as ordinary commands after `do`. */
  private parseForHeader(): Command {
    const words: Word[] = [];
    for (let t = this.peek(); t.kind === 'word'; t = this.peek()) words.push((this.next() as { word: Word }).word);
    if (isOp(this.peek(), '(')) this.fail('`for ((…))` is not supported');
    return { kind: 'simple', assignments: [], words, redirects: [] };
  }

  private parseSimple(): Command {
    const assignments: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (let t = this.peek(); t.kind === 'word' || t.kind === 'redirect'; t = this.peek()) {
      this.next();
      if (t.kind === 'redirect') redirects.push(this.readRedirectTarget(t));
      else if (words.length === 0 && t.assignment) assignments.push(this.finishAssignment(t.word, t.assignment));
      else words.push(t.word);
    }
    const t = this.peek();
    if (isOp(t, '(') && words.length === 1 && assignments.length === 0 && redirects.length === 0) {
      return this.parseFunction(words[0]!);
    }
    if (words.length + assignments.length + redirects.length === 0)
      this.fail(`a command is missing before ${describe(t)}`);
    return { kind: 'simple', assignments, words, redirects };
  }

  /** `name() body`: the body is parsed (and later classified) as if it ran. */
  private parseFunction(name: Word): Command {
    this.next();
    this.expectOp(')', `\`${name.text}(\` must be followed by \`)\``);
    this.skipNewlines();
    this.enter();
    try {
      return { kind: 'function', name: name.text, body: this.parseCommand() };
    } finally {
      this.depth--;
    }
  }

  private finishAssignment(word: Word, prefix: AssignmentPrefix): Assignment {
    if (word.text.length === prefix.length && this.peeked === undefined && this.src[this.pos] === '(') {
      return { name: prefix.name, value: this.readArray() };
    }
    return { name: prefix.name, value: { ...word, text: word.text.slice(prefix.length) } };
  }

  /** `NAME=(a b c)`: the elements' substitutions still run. */
  private readArray(): Word {
    this.pos++;
    const merged = new WordBuilder();
    const texts: string[] = [];
    for (;;) {
      this.skipBlanks(true);
      const c = this.src[this.pos];
      if (c === undefined) this.fail('an array `(` is never closed');
      if (c === ')') break;
      const word = this.readWord();
      if (word === undefined) this.fail(`unexpected \`${c}\` in an array`);
      texts.push(word.text);
      if (word.expands) merged.expansion('', word.substitutions);
    }
    this.pos++;
    merged.quoted(`(${texts.join(' ')})`);
    return merged.build();
  }

  private parseRedirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (let t = this.peek(); t.kind === 'redirect'; t = this.peek()) {
      this.next();
      redirects.push(this.readRedirectTarget(t));
    }
    return redirects;
  }

  private readRedirectTarget(token: {
    readonly op: RedirectOp;
    readonly fd?: number;
    readonly fdName?: string;
  }): Redirect {
    const { op } = token;
    const fd = token.fdName === undefined ? { fd: token.fd } : { fdName: token.fdName };
    this.skipBlanks(false);
    const target = this.readWord();
    if (target === undefined) this.fail(`\`${op}\` is not followed by a file name`);
    if (op !== '<<' && op !== '<<-') return { op, ...fd, target };
    const heredoc: MutableHeredoc = { body: '', expands: false, substitutions: [] };
    this.pendingHeredocs.push({ delimiter: target.text, quoted: !target.plain, stripTabs: op === '<<-', heredoc });
    return { op, ...fd, target, heredoc };
  }

  private parseNested(end: ')' | '}'): Script {
    this.enter();
    try {
      return this.parseList(end);
    } finally {
      this.depth--;
    }
  }

  private enter(): void {
    this.depth++;
    if (this.depth > MAX_SHELL_DEPTH) this.fail(`it nests commands more than ${MAX_SHELL_DEPTH} levels deep`);
  }

  private expectOp(op: Op, message: string): void {
    if (!isOp(this.next(), op)) this.fail(message);
  }

  private skipNewlines(): void {
    while (isOp(this.peek(), '\n')) this.next();
  }

  private peek(): Token {
    this.peeked ??= this.lex();
    return this.peeked;
  }

  private next(): Token {
    const t = this.peek();
    this.peeked = undefined;
    return t;
  }

  private fail(message: string): never {
    throw new ShellParseError(message);
  }

  // ---- tokens ----

  private lex(): Token {
    this.skipBlanks(false);
    const c = this.src[this.pos];
    if (c === undefined) {
      this.pendingHeredocs = [];
      return { kind: 'eof' };
    }
    if (c === '\n') {
      this.pos++;
      this.readHeredocBodies();
      return { kind: 'op', op: '\n' };
    }
    const token = this.readOperator() ?? this.readRedirectOperator();
    if (token) return token;
    const builder = this.readWordPieces();
    if (builder === undefined) this.fail(`unexpected \`${c}\``);
    const word = builder.build();
    const m = ASSIGNMENT.exec(builder.literalPrefix);
    return m ? { kind: 'word', word, assignment: { name: m[1]!, length: m[0].length } } : { kind: 'word', word };
  }

  /** Blanks, line continuations and comments; newlines too when `newlines` is set. */
  private skipBlanks(newlines: boolean): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t' || (newlines && c === '\n')) this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      else return;
    }
  }

  private readOperator(): Token | undefined {
    const two = this.src.slice(this.pos, this.pos + 2);
    if (two === '&&' || two === '||' || two === '|&') {
      this.pos += 2;
      return { kind: 'op', op: two };
    }
    if (two === ';;' || two === ';&') this.fail(`\`${two}\` belongs to \`case\`, which is not supported`);
    if (two === '&>') return undefined;
    const c = this.src[this.pos]!;
    if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
      this.pos++;
      return { kind: 'op', op: c };
    }
    return undefined;
  }

  private readRedirectOperator(): Token | undefined {
    const prefix = /^(?:([0-9]+)|\{([A-Za-z_][A-Za-z0-9_]*)\})(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 80));
    let p = this.pos + (prefix ? prefix[0].length : 0);
    const fd = prefix?.[1] !== undefined ? Number(prefix[1]) : undefined;
    const fdName = prefix?.[2];
    let op: RedirectOp | undefined;
    if (!prefix && this.src.startsWith('&>>', p)) op = '&>>';
    else if (!prefix && this.src.startsWith('&>', p)) op = '&>';
    else op = REDIRECT_OPS.find((candidate) => this.src.startsWith(candidate, p));
    if (op === undefined) return undefined;
    if ((op === '<' || op === '>') && this.src[p + 1] === '(') return undefined;
    p += op.length;
    this.pos = p;
    return { kind: 'redirect', op, fd, fdName };
  }

  private readWord(): Word | undefined {
    return this.readWordPieces()?.build();
  }

  private readWordPieces(): WordBuilder | undefined {
    const start = this.pos;
    const w = new WordBuilder();
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (c === ' ' || c === '\t' || c === '\n') break;
      if (c === '<' || c === '>') {
        if (this.src[this.pos + 1] !== '(') break;
        this.readProcessSubstitution(w);
        continue;
      }
      if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') break;
      this.readWordPiece(w);
    }
    return this.pos === start ? undefined : w;
  }

  private readWordPiece(w: WordBuilder): void {
    switch (this.src[this.pos]) {
      case '\\':
        return this.readEscape(w);
      case "'":
        return this.readSingleQuoted(w);
      case '"':
        return this.readDoubleQuoted(w);
      case '$':
        return this.readDollar(w, false);
      case '`':
        return this.readBackticks(w, false);
      default:
        w.unquoted(this.src[this.pos]!);
        this.pos++;
    }
  }

  private readEscape(w: WordBuilder): void {
    const next = this.src[this.pos + 1];
    if (next === undefined) this.fail('the line ends with a lone backslash');
    this.pos += 2;
    if (next !== '\n') w.quoted(next);
  }

  private readSingleQuoted(w: WordBuilder): void {
    const end = this.src.indexOf("'", this.pos + 1);
    if (end < 0) this.fail('a single quote is never closed');
    w.quoted(this.src.slice(this.pos + 1, end));
    this.pos = end + 1;
  }

  private readDoubleQuoted(w: WordBuilder): void {
    this.pos++;
    w.quoted('');
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail('a double quote is never closed');
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === '$') this.readDollar(w, true);
      else if (c === '`') this.readBackticks(w, true);
      else if (c === '\\') this.readDoubleQuotedEscape(w);
      else {
        w.quoted(c);
        this.pos++;
      }
    }
  }

  private readDoubleQuotedEscape(w: WordBuilder): void {
    const next = this.src[this.pos + 1];
    if (next === undefined) this.fail('a double quote is never closed');
    if ('$`"\\\n'.includes(next)) {
      if (next !== '\n') w.quoted(next);
      this.pos += 2;
    } else {
      w.quoted('\\');
      this.pos++;
    }
  }

  private readDollar(w: WordBuilder, inDouble: boolean): void {
    const next = this.src[this.pos + 1];
    if (next === "'" && !inDouble) return this.readAnsiC(w);
    if (next === '"' && !inDouble) {
      this.pos++;
      return this.readDoubleQuoted(w);
    }
    if (next === '(') return this.src[this.pos + 2] === '(' ? this.readArithmetic(w) : this.readCommandSubstitution(w);
    if (next === '{') return this.readParameterExpansion(w);
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(this.src.slice(this.pos + 1, this.pos + 256));
    if (name) {
      w.expansion(this.src.slice(this.pos, this.pos + 1 + name[0].length), []);
      this.pos += 1 + name[0].length;
      return;
    }
    if (inDouble) w.quoted('$');
    else w.unquoted('$');
    this.pos++;
  }

  private readAnsiC(w: WordBuilder): void {
    this.pos += 2;
    let out = '';
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail("a $'…' string is never closed");
      if (c === "'") break;
      if (c === '\\') {
        const [text, used] = decodeAnsiEscape(this.src, this.pos);
        out += text;
        this.pos += used;
      } else {
        out += c;
        this.pos++;
      }
    }
    this.pos++;
    w.quoted(out);
  }

  private readCommandSubstitution(w: WordBuilder): void {
    const start = this.pos;
    this.pos += 2;
    const script = this.parseNested(')');
    this.expectOp(')', '`$(` is never closed');
    w.expansion(this.src.slice(start, this.pos), [script]);
  }

  private readProcessSubstitution(w: WordBuilder): void {
    const start = this.pos;
    this.pos += 2;
    const script = this.parseNested(')');
    this.expectOp(')', `\`${this.src[start]}(\` is never closed`);
    w.expansion(this.src.slice(start, this.pos), [script], true);
  }

  private readBackticks(w: WordBuilder, inDouble: boolean): void {
    const start = this.pos;
    this.pos++;
    let inner = '';
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail('a backtick is never closed');
      this.pos++;
      if (c === '`') break;
      const next = this.src[this.pos];
      if (c === '\\' && next !== undefined && ('$`\\'.includes(next) || (inDouble && next === '"'))) {
        inner += next;
        this.pos++;
      } else {
        inner += c;
      }
    }
    const script = new ShellParser(inner, this.depth + 1).parseAll();
    w.expansion(this.src.slice(start, this.pos), [script]);
  }

  private readArithmetic(w: WordBuilder): void {
    const start = this.pos;
    this.pos += 3;
    const scratch = new WordBuilder();
    this.scanArithmetic(scratch);
    w.expansion(this.src.slice(start, this.pos), scratch.substitutions);
  }

  /** From just inside `((` to just after the matching `))`. */
  private scanArithmetic(scratch: WordBuilder): void {
    let parens = 0;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail('`((` is never closed');
      if (c === ')' && parens === 0) {
        if (this.src[this.pos + 1] !== ')') this.fail('`((` is never closed');
        this.pos += 2;
        return;
      }
      if (c === '(') parens++;
      if (c === ')') parens--;
      if ('$`"\'\\'.includes(c)) this.readWordPiece(scratch);
      else this.pos++;
    }
  }

  private readParameterExpansion(w: WordBuilder): void {
    const start = this.pos;
    this.pos += 2;
    const scratch = new WordBuilder();
    let braces = 0;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail('`${` is never closed');
      if (c === '}' && braces === 0) break;
      if (c === '{') braces++;
      if (c === '}') braces--;
      if ('$`"\'\\'.includes(c)) this.readWordPiece(scratch);
      else this.pos++;
    }
    this.pos++;
    w.expansion(this.src.slice(start, this.pos), scratch.substitutions);
  }

  private readHeredocBodies(): void {
    const pending = this.pendingHeredocs;
    this.pendingHeredocs = [];
    for (const h of pending) this.readHeredocBody(h);
  }

  private readHeredocBody(h: PendingHeredoc): void {
    const lines: string[] = [];
    while (this.pos < this.src.length) {
      const newline = this.src.indexOf('\n', this.pos);
      const end = newline < 0 ? this.src.length : newline;
      const raw = this.src.slice(this.pos, end);
      this.pos = Math.min(end + 1, this.src.length);
      const line = h.stripTabs ? raw.replace(/^\t+/, '') : raw;
      if (line === h.delimiter) break;
      lines.push(line);
    }
    h.heredoc.body = lines.map((line) => line + '\n').join('');
    if (h.quoted) return;
    const scan = new ShellParser(h.heredoc.body, this.depth + 1).scanExpansions();
    h.heredoc.expands = scan.expands;
    h.heredoc.substitutions = scan.substitutions;
  }
}
