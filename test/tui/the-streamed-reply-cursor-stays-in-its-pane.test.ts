/**
 * The streamed reply's cursor (▍) stands where the next text goes, inside the pane: when the
 * reply's last line already fills the pane's width, the cursor goes on a line of its own. A cursor
 * put after a full line made that line one cell wider than the pane: it was drawn cut (with an
 * ellipsis in the cursor's place), and the transcript pane fell back from one text node to a node
 * per line for that frame, so that frame and the next were React's instead of the streamed-frame
 * bypass's (twice or three times a 2,000-token reply).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LiveTurn } from '../../src/tui/screen/turn-controller';
import { lineWidth, type Line } from '../../src/tui/style/styled-line';
import { markdownLines } from '../../src/tui/text/markdown-lines';
import { liveLines } from '../../src/tui/transcript/live-lines';
import { fcRuns } from '../support/fc-runs';

function streaming(text: string): LiveTurn {
  return {
    phase: 'running',
    startedAtMs: 0,
    text,
    reasoning: '',
    refusal: '',
    stream: null,
    callOpen: true,
    retry: null,
    retryAtMs: null,
    activeTools: [],
    queue: [],
    steering: null,
    interrupting: false,
    lastOutcome: null,
    task: null,
    unstoppable: null,
    lastError: null,
  };
}

const plain = (line: Line): string => line.map((s) => s.text).join('');

/** The reply's lines as liveLines shows them (after the header's blank line and name). */
function replyLines(text: string, width: number): Line[] {
  return liveLines(streaming(text), 'fake-model', 0, false, width).slice(2);
}

describe("the streamed reply's cursor", () => {
  it('goes on a line of its own when the last line fills the pane, and after the text otherwise', () => {
    const width = 20;
    // Two lines, the last one short: the cursor follows it.
    expect(replyLines('alpha alpha alpha mike ', width).map(plain)).toEqual(['alpha alpha alpha', 'mike▍']);
    // A word that fills the line to the last cell: the cursor starts the next line, where the next text goes.
    const full = 'abcdefghij abcdefgh ';
    const lines = markdownLines(full, width);
    expect(lineWidth(lines.at(-1)!)).toBe(width);
    expect(replyLines(full, width).map(plain)).toEqual([...lines.map(plain), '▍']);
    // One cell short of full: the cursor takes that cell.
    expect(replyLines('abcdefghij abcdefg ', width).map(plain)).toEqual(['abcdefghij abcdefg ▍']);
  });

  it('never makes a line wider than the pane, and leaves the text as the layout of the whole text', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('alpha ', 'mike ', 'x', 'ab ', '宽', '宽 ', '\n', '- item ', '`code` ', 'longerword', ' '),
          { minLength: 1, maxLength: 80 },
        ),
        fc.integer({ min: 4, max: 140 }),
        (pieces, width) => {
          const text = pieces.join('');
          const layout = markdownLines(text, width);
          const shown = replyLines(text, width);
          const cursorLine = shown.at(-1)!;
          // The cursor is the last cell shown, alone or after the last line.
          expect(cursorLine.at(-1)?.text).toBe('▍');
          if (layout.every((line) => lineWidth(line) <= width))
            expect(lineWidth(cursorLine)).toBeLessThanOrEqual(width);
          // The text's lines are the whole text's layout: the cursor moves none of them, and goes on
          // a line of its own only when the last one is full.
          const alone = cursorLine.length === 1;
          const textLines = alone ? shown.slice(0, -1) : [...shown.slice(0, -1), cursorLine.slice(0, -1)];
          if (alone && textLines.length === layout.length - 1) textLines.push([]);
          expect(textLines.map(plain)).toEqual(layout.map(plain));
          const last = layout.at(-1);
          if (alone && last !== undefined && last.length > 0) expect(lineWidth(last) + 1).toBeGreaterThan(width);
        },
      ),
      { numRuns: fcRuns(2) },
    );
  });
});
