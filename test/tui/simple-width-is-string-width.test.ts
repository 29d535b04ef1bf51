/**
 * tole measures text of ASCII, punctuation, arrows, box drawing and the like without grapheme
 * segmentation or string-width's emoji pattern (which takes ~10 ms to build): its answers must be
 * string-width's own, for every one of those characters and any mix of them with colours, or a
 * line tole thinks fits wraps in Ink.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphemes } from '../../src/tui/text/cell-width';
import { SIMPLE_RANGES, simpleStyledWidth, simpleWidth } from '../../src/tui/text/simple-width';
import { widthOf } from '../../src/tui/text/text-width';
import { ensureBuilt } from '../support/built-tole';
import { DIST } from '../support/bundle-graph';
import { fcRuns } from '../support/fc-runs';

const simple: string[] = SIMPLE_RANGES.flatMap(([from, to]) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)),
);
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

describe('the width of simple text', () => {
  it("is string-width's for every simple character, alone and beside ASCII and itself", () => {
    const wrong = simple.filter((ch) => {
      const twice = `a${ch}${ch}a`;
      return (
        simpleWidth(ch) !== stringWidth(ch) ||
        simpleWidth(twice) !== stringWidth(twice) ||
        [...segmenter.segment(twice)].length !== 4
      );
    });
    expect(wrong.map((ch) => ch.codePointAt(0)!.toString(16))).toEqual([]);
  });

  it("measures braille (the status bar's spinner, redrawn on every streamed frame) itself", () => {
    const spinner = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
    expect(simpleWidth(spinner)).toBe(10);
    expect(simpleStyledWidth(`\u001b[36m⠋\u001b[39m Streaming · 12 s`)).toBe(stringWidth('⠋ Streaming · 12 s'));
  });

  it('is left to string-width for anything else: controls, marks, emoji, wide and astral text', () => {
    for (const text of ['a\tb', 'e\u0301', '\u00ad', '\u200b', '🚀', '漢', '한', '☀\ufe0f', 'x\u009b1m', '\u2060'])
      expect(simpleWidth(text), JSON.stringify(text)).toBeUndefined();
  });

  it("with colours and bold between the characters: string-width's, or left to it", () => {
    const sgr = fc.constantFrom(
      '\u001b[1m',
      '\u001b[22m',
      '\u001b[38;5;239m',
      '\u001b[48;2;10;20;30m',
      '\u001b[0m',
      '\u001b[m',
    );
    const other = fc.constantFrom(
      '\u001b[12345m',
      '\u001b]8;;http://x\u0007',
      '\u001b[2J',
      '\u001b(B',
      '🚀',
      'e\u0301',
    );
    const char = fc.constantFrom(...simple.filter((_, i) => i % 7 === 0), 'a', ' ', '~');
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ arbitrary: char, weight: 6 }, { arbitrary: sgr, weight: 3 }, other), { maxLength: 30 }),
        (parts) => {
          const text = parts.join('');
          const fast = simpleStyledWidth(text);
          if (fast !== undefined) expect(fast).toBe(stringWidth(text));
          expect(widthOf(text)).toBe(stringWidth(text));
          if (!text.includes('\u001b'))
            expect(graphemes(text).reduce((sum, g) => sum + g.width, 0)).toBe(stringWidth(text));
        },
      ),
      { numRuns: fcRuns() },
    );
  });
});

describe('the built screen script', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("builds string-width's emoji pattern on first use, not when it is loaded", () => {
    const screen = readFileSync(join(DIST, 'screen.cjs'), 'utf8');
    expect(screen).toContain('rgiEmojiPattern ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")');
    expect(screen).not.toMatch(/var rgiEmojiRegex = (?:new RegExp|\/)/);
  });
});
