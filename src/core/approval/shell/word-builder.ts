import type { Script, Word, WordPiece } from './syntax';

/** Collects the pieces of one word as the lexer reads them. */
export class WordBuilder {
  text = '';
  plain = true;
  expands = false;
  glob = false;
  leadingGlob = false;
  substitutions: Script[] = [];
  /** See `Word.evaluates`. */
  evaluates = false;
  /** The unquoted literal characters at the start of the word (for `NAME=value`). */
  literalPrefix = '';
  private literalOpen = true;
  private pieces = 0;
  private startsWithProcessSubstitution = false;
  /** Whether an open unquoted `[` started the word (undefined: no `[` seen). */
  private squareAtStart: boolean | undefined;
  private braceStart = -1;
  private readonly parts: WordPiece[] = [];

  private piece(kind: WordPiece['kind'], text: string): void {
    const last = this.parts.at(-1);
    if (last !== undefined && last.kind === kind && kind !== 'expansion')
      this.parts[this.parts.length - 1] = { kind, text: last.text + text };
    else this.parts.push({ kind, text });
  }

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
    this.piece('unquoted', c);
    if (this.literalOpen) this.literalPrefix += c;
    this.pieces++;
  }

  quoted(s: string): void {
    this.text += s;
    this.piece('quoted', s);
    this.plain = false;
    this.literalOpen = false;
    this.pieces++;
  }

  expansion(raw: string, scripts: readonly Script[], processSubstitution = false): void {
    if (this.pieces === 0 && processSubstitution) this.startsWithProcessSubstitution = true;
    this.text += raw;
    this.piece('expansion', raw);
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
      evaluates: this.evaluates,
      pieces: this.parts,
    };
  }

  private markGlob(atStart: boolean): void {
    this.glob = true;
    if (atStart) this.leadingGlob = true;
  }
}
