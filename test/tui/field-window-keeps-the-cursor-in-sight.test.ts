/**
 * A one-line field shows a window of its text: within its width whatever the text (wide
 * characters, emoji, accents), the cursor always in it on the character it is before, `…` only
 * where text is hidden, and the window kept where it was while the cursor moves inside it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineWindow } from '../../src/tui/prompt/line-window';
import { cellWidth, graphemes } from '../../src/tui/text/cell-width';
import { fcRuns } from '../support/fc-runs';

const TEXT = fc
  .array(fc.constantFrom('a', 'b', ' ', '中', '😀', 'e\u0301', '👍🏽', 'x'), { maxLength: 60 })
  .map((parts) => parts.join(''));

/** The grapheme boundaries of `text`, 0 and its length included: where a cursor may be. */
function boundaries(text: string): number[] {
  const out = [0];
  for (const g of graphemes(text)) out.push(out[out.length - 1]! + g.text.length);
  return out;
}

/** What the window shows at the cursor's cell: the grapheme there, or a blank after the last one. */
function atCursor(text: string, column: number): string {
  let at = 0;
  for (const g of graphemes(text)) {
    if (at === column) return g.text;
    at += g.width;
  }
  return at === column ? '' : '(no cell starts there)';
}

describe('the window of a one-line field', () => {
  it('fits its width, holds the cursor on the character it is before, and marks hidden text with …', () => {
    fc.assert(
      fc.property(TEXT, fc.nat(), fc.integer({ min: 3, max: 30 }), fc.nat(), (value, at, width, previous) => {
        const cuts = boundaries(value);
        const cursor = cuts[at % cuts.length]!;
        const shown = lineWindow({ value, cursor }, width, previous % (value.length + 1));
        expect(cellWidth(shown.text)).toBeLessThanOrEqual(width);
        const rest = value.slice(shown.start);
        const under = atCursor(shown.text, shown.cursorColumn);
        // The cursor's cell (a blank after the last character) is inside the width.
        expect(shown.cursorColumn + Math.max(1, cellWidth(under))).toBeLessThanOrEqual(width);
        expect(under).toBe(graphemes(value.slice(cursor))[0]?.text ?? '');
        // Text hidden before the window shows as a leading …, and after it as a trailing one (a
        // width too small for both and a wide character under the cursor keeps the cursor's cell).
        expect(shown.text.startsWith('…')).toBe(shown.start > 0);
        const after = shown.text.slice(shown.start > 0 ? 1 : 0);
        const trailing = after.endsWith('…');
        const body = trailing ? after.slice(0, -1) : after;
        expect(rest.startsWith(body)).toBe(true);
        if (trailing) expect(body.length).toBeLessThan(rest.length);
        if (width >= 4) expect(trailing).toBe(body.length < rest.length);
        // The whole text that fits is shown whole.
        if (cellWidth(value) + 1 <= width) expect(shown.text).toBe(value);
      }),
      { numRuns: fcRuns() },
    );
  });

  it('stays where it was while the cursor moves within it', () => {
    const value = 'abcdefghijklmnopqrstuvwxyz';
    const atEnd = lineWindow({ value, cursor: value.length }, 10);
    expect(atEnd).toEqual({ start: 18, text: '…stuvwxyz', cursorColumn: 9 });
    const left = lineWindow({ value, cursor: 20 }, 10, atEnd.start);
    expect(left).toEqual({ start: 18, text: '…stuvwxyz', cursorColumn: 3 });
    // Past its left edge, it moves just as far as the cursor.
    const further = lineWindow({ value, cursor: 17 }, 10, left.start);
    expect(further).toMatchObject({ start: 17, text: '…rstuvwxy…', cursorColumn: 1 });
  });
});
