/**
 * The one terminal sanitizer names every character that draws nothing (zero-width marks, bidi
 * marks, the Hangul fillers a terminal draws as blanks, selectors, tag characters, line and
 * paragraph separators), so a path or command named in a notice, in headless output or in the
 * trust prompt cannot look like another; the hidden parts of a whole emoji (a ZWJ family, ❤️, a
 * keycap, a subdivision flag) stay, so emoji still draw as emoji.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownOnTerminal } from '../../src/cli/terminal-output';
import { terminalSafeJson, VisibleControlsStream, visibleControls } from '../../src/core/terminal-text';
import { fcRuns } from '../support/fc-runs';

/** Every character that draws nothing, by the property (not the code's own list). */
const HIDDEN = /[\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;
/** The `v` flag is newer than the compile target: given as a string, read at run time. */
const UNICODE_SETS: string = 'gv';
const RGI = new RegExp('\\p{RGI_Emoji}', UNICODE_SETS);

/** What is left of `shown` once its whole emoji are taken out: nothing hidden may be in it. */
const outsideEmoji = (shown: string): string => shown.replace(RGI, '');

const named = (char: string): string => `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;

/** Characters that draw nothing or draw as a blank, each put after `rm -rf build`. */
const HIDDEN_CORPUS: readonly (readonly [string, string])[] = [
  ['zero-width space', '\u200b'],
  ['zero-width non-joiner', '\u200c'],
  ['zero-width joiner', '\u200d'],
  ['left-to-right mark', '\u200e'],
  ['right-to-left mark', '\u200f'],
  ['Arabic letter mark', '\u061c'],
  ['word joiner', '\u2060'],
  ['invisible times', '\u2062'],
  ['byte order mark', '\ufeff'],
  ['soft hyphen', '\u00ad'],
  ['combining grapheme joiner', '\u034f'],
  ['Mongolian vowel separator', '\u180e'],
  ['Hangul filler', '\u3164'],
  ['Hangul choseong filler', '\u115f'],
  ['Hangul jungseong filler', '\u1160'],
  ['halfwidth Hangul filler', '\uffa0'],
  ['line separator', '\u2028'],
  ['paragraph separator', '\u2029'],
  ['variation selector 1', '\ufe00'],
  ['emoji presentation selector after a letter', '\ufe0f'],
  ['text presentation selector', '\ufe0e'],
  ['variation selector 17', '\u{e0100}'],
  ['language tag', '\u{e0001}'],
  ['tag A (smuggled ASCII)', '\u{e0041}'],
  ['cancel tag', '\u{e007f}'],
];

describe('characters that draw nothing', () => {
  it.each(HIDDEN_CORPUS)('names a %s, so the path cannot read as another', (_name, char) => {
    expect(visibleControls(`rm -rf build${char}`)).toBe(`rm -rf build${named(char)}`);
    expect(visibleControls(`${char}rm`)).toBe(`${named(char)}rm`);
  });

  it('keeps whole emoji as they are: ZWJ families, selectors, keycaps, skin tones, flags', () => {
    for (const emoji of [
      '👨‍👩‍👧',
      '❤️',
      '❤️‍🔥',
      '1️⃣',
      '#️⃣',
      '🏳️‍🌈',
      '🧑🏽‍💻',
      '👍🏽',
      '🇺🇸',
      '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}',
      '☺️',
    ])
      expect(visibleControls(`see ${emoji} here`)).toBe(`see ${emoji} here`);
  });

  // Attacks: hidden characters next to or inside something that looks like an emoji.
  it.each([
    ['a joiner after a letter', 'a\u200db', 'a⟨U+200D⟩b'],
    ['a joiner between a letter and an emoji', 'build\u200d👍', 'build⟨U+200D⟩👍'],
    ['a joiner that ends an emoji', '👍\u200d.txt', '👍⟨U+200D⟩.txt'],
    ['a joiner that begins a family', '\u200d👨‍👩‍👧', '⟨U+200D⟩👨‍👩‍👧'],
    ['a zero-width space after a family', '👨‍👩‍👧\u200b', '👨‍👩‍👧⟨U+200B⟩'],
    ['a doubled selector', '❤️\ufe0f', '❤️⟨U+FE0F⟩'],
    ['a selector after a digit with no keycap', '2\ufe0f>/dev/null', '2⟨U+FE0F⟩>/dev/null'],
    ['a selector after a flag', '🇺🇸\ufe0f', '🇺🇸⟨U+FE0F⟩'],
    ['a filler inside a family', '👨‍\u3164👩', '👨⟨U+200D⟩⟨U+3164⟩👩'],
    ['ASCII smuggled as tags after a black flag', '🏴\u{e0072}\u{e006d}\u{e007f}', '🏴⟨U+E0072⟩⟨U+E006D⟩⟨U+E007F⟩'],
    ['tags after an emoji that is no flag', '👍\u{e0041}\u{e007f}', '👍⟨U+E0041⟩⟨U+E007F⟩'],
    [
      'a subdivision flag with no cancel tag',
      '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}',
      '🏴⟨U+E0067⟩⟨U+E0062⟩⟨U+E0065⟩⟨U+E006E⟩⟨U+E0067⟩',
    ],
    ['a hidden character between two emoji', '👍\u2060👍', '👍⟨U+2060⟩👍'],
  ])('names %s', (_name, hostile, shown) => {
    expect(visibleControls(hostile)).toBe(shown);
  });

  const alphabet = fc.constantFrom(
    'a',
    'rm ',
    '2',
    '#',
    '\r',
    '\n',
    '\u001b',
    ...HIDDEN_CORPUS.map(([, char]) => char),
    '👨',
    '👩',
    '👍',
    '🏽',
    '🏴',
    '🇺',
    '🇸',
    '\u20e3',
    '\u{e0067}',
    '👨‍👩‍👧',
    '❤️',
    '1️⃣',
  );

  it('in any text, nothing hidden is left outside a whole emoji, and a second pass changes nothing', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 16 }), (parts) => {
        const shown = visibleControls(parts.join(''));
        expect(outsideEmoji(shown)).not.toMatch(HIDDEN);
        expect(visibleControls(shown)).toBe(shown);
      }),
      { numRuns: fcRuns() },
    );
  });

  it('a stream cut at any character shows the same as the whole (an emoji split across writes stays whole)', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 16 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
        const chars = [...parts.join('')];
        const at = [...new Set(cuts.map((cut) => cut % (chars.length + 1)))].sort((a, b) => a - b);
        const stream = new VisibleControlsStream();
        let shown = '';
        let from = 0;
        for (const cut of [...at, chars.length]) {
          const piece = stream.push(chars.slice(from, cut).join(''));
          expect(outsideEmoji(piece)).not.toMatch(HIDDEN);
          shown += piece;
          from = cut;
        }
        shown += stream.end();
        expect(shown).toBe(visibleControls(chars.join('')));
      }),
      { numRuns: fcRuns() },
    );
  });

  it('a family written one byte at a time to a terminal is drawn as the family', () => {
    let text = '';
    const target = {
      isTTY: true,
      write(chunk: string): boolean {
        text += chunk;
        return true;
      },
    };
    const stream = shownOnTerminal(target as never);
    const bytes = Buffer.from('👨‍👩‍👧 in build\u3164', 'utf8');
    for (let i = 0; i < bytes.length; i++) stream.write(bytes.subarray(i, i + 1));
    expect(text).toBe('👨‍👩‍👧 in build⟨U+3164⟩');
  });

  it('JSON for a terminal escapes them too (a whole emoji aside) and reads back as the same text', () => {
    const value = { path: `build\u3164/x\u200b\u{e0041}`, note: '👨‍👩‍👧 ❤️ 2\ufe0f' };
    const line = terminalSafeJson(value);
    expect(line).toBe('{"path":"build\\u3164/x\\u200b\\udb40\\udc41","note":"👨‍👩‍👧 ❤️ 2\\ufe0f"}');
    expect(JSON.parse(line)).toEqual(value);
    expect(outsideEmoji(line)).not.toMatch(HIDDEN);
  });
});
