/**
 * A parser for bash command lines, good enough to decide what a line may do, never to run it.
 *
 * It understands quoting (`'…'`, `"…"`, `$'…'`, backslashes, adjacent pieces: `r''m` is `rm`),
 * the list and pipe operators, subshells and brace groups, command and process substitution
 * (parsed recursively), redirections, heredocs, leading assignments, `if`/`while`/`for` loops
 * and function definitions. Whatever it does not understand is an error: the caller must treat
 * an error as the most dangerous outcome, never as "probably fine".
 */
import {
  literalWord,
  MAX_COMMAND_LINE_CHARS,
  type Assignment,
  type Command,
  type Pipeline,
  type Redirect,
  type Script,
  type Word,
} from './syntax';
import { arrayElementEvaluates, isLiteralArithmetic } from './arithmetic';
import { describe, isKeyword, isOp, isSeparator, ShellParseError, type AssignmentPrefix, type Token } from './tokens';
import { WordBuilder } from './word-builder';
import { WordReader } from './word-reader';

type ParseResult = { readonly ok: true; readonly script: Script } | { readonly ok: false; readonly error: string };

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

const PREFIX_KEYWORDS = new Set(['!', 'if', 'then', 'elif', 'else', 'do', 'while', 'until', 'time']);
const CLOSING_KEYWORDS = new Set(['fi', 'done']);
const BLOCK_OPENERS = new Set(['if', 'while', 'until']);
const UNSUPPORTED_KEYWORDS = new Set(['case', 'esac', 'select', 'coproc', 'function']);

class ShellParser extends WordReader {
  /**
   * `if`/`while`/`until`/`for` blocks of the list being parsed that are open: what runs inside
   * them may not run, or run again.
   */
  private blocks = 0;

  parseAll(): Script {
    const script = this.parseList(undefined);
    const t = this.next();
    if (t.kind !== 'eof') this.fail(`unexpected ${describe(t)}`);
    return script;
  }

  private parseList(end: ')' | '}' | undefined): Script {
    const outer = this.blocks;
    this.blocks = 0;
    try {
      return this.parsePipelines(end);
    } finally {
      this.blocks = outer;
    }
  }

  private parsePipelines(end: ')' | '}' | undefined): Script {
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
      const sure = !needCommand && this.blocks === 0;
      const pipeline = this.parsePipeline();
      const sep = this.peek();
      // After `&&`/`||`, inside a block or in the background (`&`), it may not run in this shell.
      pipelines.push(sure && !isOp(sep, '&') ? { ...pipeline, sure } : pipeline);
      needCommand = false;
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
        this.blocks = Math.max(0, this.blocks - 1);
        this.next();
        return { kind: 'simple', assignments: [], words: [], redirects: this.parseRedirects() };
      }
      if (UNSUPPORTED_KEYWORDS.has(keyword)) this.fail(`\`${keyword}\` is not supported`);
      if (keyword === '[[') return this.parseDoubleBracket();
      if (keyword === 'for') {
        this.blocks++;
        return this.parseForHeader();
      }
    }
    return this.parseSimple();
  }

  /** `!`, `if`, `then`, `do`, `time [-p]` … only introduce the command that follows them. */
  private skipPrefixKeywords(): void {
    for (let t = this.peek(); t.kind === 'word' && t.word.plain && PREFIX_KEYWORDS.has(t.word.text); t = this.peek()) {
      this.next();
      if (BLOCK_OPENERS.has(t.word.text)) this.blocks++;
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
    if (!isLiteralArithmetic(this.src.slice(start + 2, this.pos - 2))) scratch.evaluates = true;
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
    const value = { ...word, text: word.text.slice(prefix.length) };
    return word.text[prefix.length - 2] === '+'
      ? { name: prefix.name, value, append: true }
      : { name: prefix.name, value };
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
      if (word.evaluates || arrayElementEvaluates(word.text)) merged.evaluates = true;
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

  protected parseNested(end: ')' | '}'): Script {
    this.enter();
    try {
      return this.parseList(end);
    } finally {
      this.depth--;
    }
  }

  protected nested(src: string, depth: number): ShellParser {
    return new ShellParser(src, depth);
  }
}
