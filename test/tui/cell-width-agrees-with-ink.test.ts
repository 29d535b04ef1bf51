/**
 * tole cuts every pane to its width before Ink sees it: its widths must be Ink's, or a line that
 * tole thinks fits wraps in Ink and pushes a border. Ink measures with `string-width`, the text as
 * drawn: its sanitizer (frame/ink-sanitize-ansi.ts) leaves out the emoji parts terminals disagree
 * on (text/drawn-emoji.ts) before Ink measures it.
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cellWidth, graphemes, sanitize, truncate } from '../../src/tui/text/cell-width';
import { drawnEmoji } from '../../src/tui/text/drawn-emoji';

/** What Ink counts: string-width of the text as its sanitizer hands it on. */
const inkWidth = (text: string): number => stringWidth(drawnEmoji(text));

describe('cell widths are the ones Ink lays out with', () => {
  it('emoji of every block take two cells, as Ink counts them', () => {
    // U+1F680 (transport), U+2705 and U+2614 (dingbats and misc symbols with emoji presentation):
    // a width table of its own missed these blocks.
    for (const emoji of ['🚀', '🛸', '✅', '☔', '⚡', '❌', '👍🏽', '👨‍👩‍👧', '🇫🇷']) {
      expect(cellWidth(emoji), emoji).toBe(2);
      expect(cellWidth(emoji)).toBe(inkWidth(emoji));
    }
    // Drawn in text presentation (no U+FE0F): one cell, as tmux draws ❤️ too.
    expect(cellWidth('❤️')).toBe(1);
  });

  it('wide, combining and zero-width text: the same count as Ink for any mix', () => {
    const pieces = [
      'a',
      'é',
      'e\u0301',
      '漢',
      '한',
      'ｱ',
      '🚀',
      '✅',
      '☀',
      '\u200b',
      '\u200d',
      '👩‍💻',
      '—',
      '│',
      ' ',
      '1️⃣',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = sanitize(parts.join(''));
        expect(cellWidth(text)).toBe(inkWidth(text));
        expect(graphemes(text).reduce((sum, g) => sum + g.width, 0)).toBe(inkWidth(text));
      }),
    );
  });

  it('a line cut to a width never measures more than that width in Ink', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 1, max: 20 }), (raw, width) => {
        const cut = truncate(sanitize(raw), width);
        expect(inkWidth(cut)).toBeLessThanOrEqual(width);
      }),
    );
  });
});
