/**
 * 👍🏽 (an emoji and a skin-tone modifier) is 2 cells to string-width, which Ink and tole lay out
 * with, and 4 to tmux 3.3, which draws the modifier as an emoji of its own: the pane's right
 * border moved two cells right. ❤️ and 1️⃣ are 2 to string-width and 1 to tmux: it moved left.
 * The screen leaves those parts out (text/drawn-emoji.ts): what it writes is what both count.
 */
import { Box, render } from 'ink';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { LinesPane } from '../../src/tui/panes/LinesPane';
import { seg } from '../../src/tui/style/styled-line';
import { ThemeContext, themeView } from '../../src/tui/style/theme-context';
import { loadTheme } from '../../src/tui/style/theme';
import { cellWidth, truncate } from '../../src/tui/text/cell-width';
import { drawnEmoji } from '../../src/tui/text/drawn-emoji';
import { FakeStdin, FakeStdout } from './harness';

/** The cells tmux 3.3a gives a string, as measured in a tmux pane (cursor_x after printf). */
const TMUX_CELLS: Readonly<Record<string, number>> = {
  '👍🏽': 4,
  '👍': 2,
  '❤️': 1,
  '❤': 1,
  '✌️': 1,
  '✌': 1,
  '1️⃣': 1,
  '1': 1,
};

describe('the width of emoji terminals disagree on', () => {
  it('is counted as drawn: without the modifier, the presentation selector and the keycap mark', () => {
    expect(drawnEmoji('done 👍🏽 reading')).toBe('done 👍 reading');
    expect(drawnEmoji('❤️ ✌🏽 1️⃣ #️⃣')).toBe('❤ ✌ 1 #');
    // A modifier standing alone is a character of its own, kept; text without any is the same string.
    expect(drawnEmoji('🏽')).toBe('🏽');
    const plain = 'plain text, 漢字 and 🚀';
    expect(drawnEmoji(plain)).toBe(plain);
    for (const emoji of ['👍🏽', '❤️', '✌️', '1️⃣']) {
      const drawn = drawnEmoji(emoji);
      expect(cellWidth(emoji), emoji).toBe(TMUX_CELLS[drawn]);
      expect(stringWidth(drawn), emoji).toBe(TMUX_CELLS[drawn]);
    }
  });

  it('keeps the rule right of a pane in one column on every line', () => {
    const stdout = new FakeStdout(40, 6);
    const theme = themeView(loadTheme('dark'), true);
    const lines = [[seg('done 👍🏽 reading ❤️ ok')], [seg('plain line')], [seg(truncate('👍🏽'.repeat(20), 27))]];
    const instance = render(
      <ThemeContext.Provider value={theme}>
        <Box flexDirection="row">
          <LinesPane title="t" lines={lines} width={30} height={6} focused={false} edge="screen" />
          <LinesPane title="u" lines={[]} width={10} height={6} focused={false} edge="beside" />
        </Box>
      </ThemeContext.Provider>,
      {
        stdout: stdout as unknown as NodeJS.WriteStream,
        stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
        patchConsole: false,
        debug: true,
      },
    );
    try {
      const rows = stdout.frames
        .at(-1)!
        .split('\n')
        .map((row) => row.replace(/\x1b\[[0-9;]*m/g, ''))
        .filter((row) => row !== '');
      expect(rows.join('\n')).toContain('done 👍 reading ❤ ok');
      for (const row of rows) {
        // Nothing in the frame that tmux counts apart from string-width, and the next pane's rule
        // 30 cells in on every row.
        expect(drawnEmoji(row)).toBe(row);
        const rule = Math.max(row.lastIndexOf('│'), row.lastIndexOf('┬'));
        expect(stringWidth(row.slice(0, rule)), row).toBe(30);
      }
    } finally {
      instance.unmount();
    }
  });
});
