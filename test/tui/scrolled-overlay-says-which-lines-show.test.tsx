import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ScrolledLinesOverlay } from '../../src/tui/overlays/ScrolledLinesOverlay';
import { seg } from '../../src/tui/style/styled-line';
import { loadTheme } from '../../src/tui/style/theme';
import { ThemeContext, themeView } from '../../src/tui/style/theme-context';

const theme = themeView(loadTheme('dark'), true);

function overlay(count: number, offset: number): string {
  const { lastFrame } = render(
    <ThemeContext.Provider value={theme}>
      <ScrolledLinesOverlay title="cost" lines={lines.slice(0, count)} width={40} height={10} offset={offset} />
    </ThemeContext.Provider>,
  );
  return lastFrame() ?? '';
}

const lines = Array.from({ length: 30 }, (_, i) => [seg(`line ${i + 1}`)]);

describe('an overlay of lines that scroll (/cost, a command report)', () => {
  it('shows the lines from the offset and says which of how many show', () => {
    const frame = overlay(30, 5);
    expect(frame).toContain('6-13 of 30');
    expect(frame).toContain('line 6');
    expect(frame).toContain('line 13');
    expect(frame).not.toContain('line 14');
  });

  it('keeps an offset past the end to the last page, and says nothing when every line fits', () => {
    expect(overlay(30, 99)).toContain('23-30 of 30');
    const fits = overlay(3, 0);
    expect(fits).toContain('line 3');
    expect(fits).not.toMatch(/ of 3/);
  });
});
