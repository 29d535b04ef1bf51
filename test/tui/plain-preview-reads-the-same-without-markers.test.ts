/**
 * A text with no marker and no whitespace but single spaces skips plainPreview's passes (find
 * in the tree works out 100,000 of them on its first key): it must read exactly as the passes
 * make it, whatever the text, a marker at its start included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine, plainPreview } from '../../src/tui/text/format';

/** Every pass, on every text: what plainPreview did before it looked for the common case. */
function everyPass(text: string): string {
  return oneLine(
    text
      .replace(/```[\w+#.-]*/g, ' ')
      .replace(/^\s{0,3}(#{1,6}|[-*+]|\d+[.)])\s+/gm, '')
      .replace(/(\*\*|__|`)/g, ''),
  );
}

/** Pieces that markdown markers, list bullets and whitespace of every kind are made of. */
const PIECES = [
  'a',
  'b',
  'z',
  ' ',
  '  ',
  '#',
  '##',
  '-',
  '*',
  '+',
  '1',
  '12',
  '.',
  ')',
  '_',
  '`',
  '\n',
  '\t',
  '\r',
  '\u00a0',
  '\u2028',
  '\u0085',
  '\ufeff',
  'é',
  '😀',
];

describe('plainPreview', () => {
  it('reads as every pass makes it, whether or not the passes run', () => {
    const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, (t) => plainPreview(t) === everyPass(t)));
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (t) => plainPreview(t) === everyPass(t)));
  });

  it('reads as every pass makes it with any one whitespace character in a plain text', () => {
    const plain = fc
      .array(fc.constantFrom('a', 'z', ' ', '#', '-', '+', '1', '.', ')'), { maxLength: 10 })
      .map((parts) => parts.join(''));
    // Every character JavaScript's \s matches but the space, and one it does not.
    const spaces = [...'\t\n\v\f\r\u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff\u0085'];
    for (let c = 0x2000; c <= 0x200a; c++) spaces.push(String.fromCharCode(c));
    const text = fc.tuple(plain, fc.constantFrom(...spaces), plain).map(([a, space, b]) => `${a}${space}${b}`);
    fc.assert(fc.property(text, (t) => plainPreview(t) === everyPass(t)));
    for (const space of spaces) expect(plainPreview(`a${space}b`)).toBe(everyPass(`a${space}b`));
  });

  it('drops a heading or list marker at the start of a text of single spaces', () => {
    for (const [text, shown] of [
      ['- a list item', 'a list item'],
      ['   ## a heading', 'a heading'],
      ['12) a numbered item', 'a numbered item'],
      ['+ plus', 'plus'],
      ['#no space is a word', '#no space is a word'],
      ['####### seven hashes', '####### seven hashes'],
      ['    - four spaces in is code', '- four spaces in is code'],
    ] as const) {
      expect(plainPreview(text)).toBe(shown);
      expect(everyPass(text)).toBe(shown);
    }
  });
});
