/** The tokens the lexer hands the grammar, and the error both raise. */
import type { RedirectOp, Word } from './syntax';

export class ShellParseError extends Error {}

export type Op = ';' | '&' | '&&' | '||' | '|' | '|&' | '\n' | '(' | ')';

export type Token =
  | { readonly kind: 'word'; readonly word: Word; readonly assignment?: AssignmentPrefix }
  | { readonly kind: 'op'; readonly op: Op }
  | { readonly kind: 'redirect'; readonly op: RedirectOp; readonly fd?: number; readonly fdName?: string }
  | { readonly kind: 'eof' };

export interface AssignmentPrefix {
  readonly name: string;
  /** Length of `NAME=` or `NAME+=` at the start of the word's text. */
  readonly length: number;
}

export function describe(t: Token): string {
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

export function isOp(t: Token, op: Op): boolean {
  return t.kind === 'op' && t.op === op;
}

export function isSeparator(t: Token): boolean {
  return isOp(t, ';') || isOp(t, '&') || isOp(t, '\n');
}

export function isKeyword(t: Token, text: string): boolean {
  return t.kind === 'word' && t.word.plain && t.word.text === text;
}
