/**
 * The word level of the bash parser: quoting (`'…'`, `"…"`, `$'…'`, backslashes) and expansions
 * (`$X`, `${…}`, `$(…)`, backticks, `$((…))`, process substitution), whose nested scripts are
 * parsed recursively by the grammar.
 */
import { decodeAnsiEscape } from './ansi-c-escape';
import { isLiteralArithmetic, parameterEvaluates } from './arithmetic';
import { ShellLexer } from './lexer';
import type { Script, Word } from './syntax';
import { WordBuilder } from './word-builder';

export abstract class WordReader extends ShellLexer {
  protected abstract parseNested(end: ')' | '}'): Script;

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

  protected readWord(): Word | undefined {
    return this.readWordPieces()?.build();
  }

  protected readWordPieces(): WordBuilder | undefined {
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

  protected readWordPiece(w: WordBuilder): void {
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
    if (next === '[') return this.readOldArithmetic(w);
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

  /** `$'…'`: a NUL (`\0`, `\x00`, `\c@`) ends the string's value there, as in bash (`$'rm\0x'` is `rm`). */
  private readAnsiC(w: WordBuilder): void {
    this.pos += 2;
    let out = '';
    let ended = false;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail("a $'…' string is never closed");
      if (c === "'") break;
      let text = c;
      if (c === '\\') {
        const [decoded, used] = decodeAnsiEscape(this.src, this.pos);
        text = decoded;
        this.pos += used;
      } else this.pos++;
      const nul = text.indexOf('\0');
      if (!ended) out += nul < 0 ? text : text.slice(0, nul);
      ended ||= nul >= 0;
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
    const fed = this.src[start] === '>' ? { ...script, fedByPipe: true } : script;
    w.expansion(this.src.slice(start, this.pos), [fed], true);
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
    const script = this.nested(inner, this.depth + 1).parseAll();
    w.expansion(this.src.slice(start, this.pos), [script]);
  }

  private readArithmetic(w: WordBuilder): void {
    const start = this.pos;
    this.pos += 3;
    const scratch = new WordBuilder();
    this.scanArithmetic(scratch);
    w.expansion(this.src.slice(start, this.pos), scratch.substitutions);
    if (scratch.evaluates || !isLiteralArithmetic(this.src.slice(start + 3, this.pos - 2))) w.evaluates = true;
  }

  /** `$[…]`: the old spelling of `$((…))`. */
  private readOldArithmetic(w: WordBuilder): void {
    const start = this.pos;
    this.pos += 2;
    const scratch = new WordBuilder();
    let brackets = 0;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) this.fail('`$[` is never closed');
      if (c === ']' && brackets === 0) break;
      if (c === '[') brackets++;
      if (c === ']') brackets--;
      if ('$`"\'\\'.includes(c)) this.readWordPiece(scratch);
      else this.pos++;
    }
    this.pos++;
    w.expansion(this.src.slice(start, this.pos), scratch.substitutions);
    if (scratch.evaluates || !isLiteralArithmetic(this.src.slice(start + 2, this.pos - 1))) w.evaluates = true;
  }

  /** From just inside `((` to just after the matching `))`. */
  protected scanArithmetic(scratch: WordBuilder): void {
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
    if (scratch.evaluates || parameterEvaluates(this.src.slice(start + 2, this.pos - 1))) w.evaluates = true;
  }
}
