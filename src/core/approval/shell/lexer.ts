/**
 * The token level of the bash parser: a cursor over the line, blanks and comments, list and
 * redirection operators, redirection targets and heredoc bodies. Words (quoting, expansions) are
 * read by the subclass in word-reader.ts; the grammar is in parser.ts.
 */
import { MAX_SHELL_DEPTH, type Redirect, type RedirectOp, type Script, type Word } from './syntax';
import { isOp, ShellParseError, type Op, type Token } from './tokens';
import type { WordBuilder } from './word-builder';

interface MutableHeredoc {
  body: string;
  expands: boolean;
  substitutions: Script[];
  evaluates: boolean;
}

interface PendingHeredoc {
  readonly delimiter: string;
  readonly quoted: boolean;
  readonly stripTabs: boolean;
  readonly heredoc: MutableHeredoc;
}

const REDIRECT_OPS: readonly RedirectOp[] = ['<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>|', '>&', '>'];
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

export abstract class ShellLexer {
  protected pos = 0;
  protected peeked: Token | undefined;
  protected pendingHeredocs: PendingHeredoc[] = [];

  constructor(
    protected readonly src: string,
    protected depth: number,
  ) {
    if (depth > MAX_SHELL_DEPTH) this.fail(`it nests commands more than ${MAX_SHELL_DEPTH} levels deep`);
  }

  /** The whole source as a script. */
  abstract parseAll(): Script;
  /** The expansions in a heredoc body (the parser's whole source). */
  abstract scanExpansions(): WordBuilder;
  /** A parser for text nested inside this one (a backtick string, a heredoc body). */
  protected abstract nested(src: string, depth: number): ShellLexer;
  protected abstract readWord(): Word | undefined;
  protected abstract readWordPieces(): WordBuilder | undefined;

  protected readRedirectTarget(token: {
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
    const heredoc: MutableHeredoc = { body: '', expands: false, substitutions: [], evaluates: false };
    this.pendingHeredocs.push({ delimiter: target.text, quoted: !target.plain, stripTabs: op === '<<-', heredoc });
    return { op, ...fd, target, heredoc };
  }

  protected enter(): void {
    this.depth++;
    if (this.depth > MAX_SHELL_DEPTH) this.fail(`it nests commands more than ${MAX_SHELL_DEPTH} levels deep`);
  }

  protected expectOp(op: Op, message: string): void {
    if (!isOp(this.next(), op)) this.fail(message);
  }

  protected skipNewlines(): void {
    while (isOp(this.peek(), '\n')) this.next();
  }

  protected peek(): Token {
    this.peeked ??= this.lex();
    return this.peeked;
  }

  protected next(): Token {
    const t = this.peek();
    this.peeked = undefined;
    return t;
  }

  protected fail(message: string): never {
    throw new ShellParseError(message);
  }

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
  protected skipBlanks(newlines: boolean): void {
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
    const scan = this.nested(h.heredoc.body, this.depth + 1).scanExpansions();
    h.heredoc.expands = scan.expands;
    h.heredoc.substitutions = scan.substitutions;
    h.heredoc.evaluates = scan.evaluates;
  }
}
