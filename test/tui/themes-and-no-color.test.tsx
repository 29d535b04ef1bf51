import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_THEMES, loadTheme, parseTheme, ThemeError } from '../../src/tui/style/theme';
import { renderScreen, type Screen } from './harness';
import { prepareSession } from './session-fixture';
import { tempDirForTest } from '../support/after-the-test';
import { inFullColor } from './full-color';

let screen: Screen | undefined;
inFullColor();
afterEach(() => screen?.unmount());

/** SGR colour parameters: 30-37, 38;…, 39, 40-47, 48;…, 49, 90-97, 100-107. */
const COLOUR_CODE = /\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

function themeFile(data: unknown): string {
  const path = join(tempDirForTest('tole-theme-'), 'mine.json');
  writeFileSync(path, JSON.stringify(data));
  return path;
}

describe('themes', () => {
  it('loads every built-in theme', () => {
    expect(BUILT_IN_THEMES).toEqual(['dark', 'light', 'high-contrast']);
    for (const name of BUILT_IN_THEMES) {
      expect(loadTheme(name).name).toBe(name);
      // Loaded without a check at start: each must pass the check a theme file gets.
      expect(parseTheme(loadTheme(name), name)).toEqual(loadTheme(name));
    }
  });

  it('loads a theme file by path and names the field that is wrong', () => {
    const good = { ...loadTheme('dark'), name: 'mine' };
    expect(loadTheme(themeFile(good)).name).toBe('mine');

    const badColour = { ...good, palette: { ...good.palette, danger: 'blood' } };
    expect(() => loadTheme(themeFile(badColour))).toThrow(/palette\.danger: expected a colour/);
    const missing = { ...good, palette: { ...good.palette, diffAdd: undefined } };
    expect(() => loadTheme(themeFile(missing))).toThrow(/palette\.diffAdd/);
    expect(() => loadTheme('solarized')).toThrow(ThemeError);
    expect(() => loadTheme('solarized')).toThrow(/not a built-in theme \(dark, light, high-contrast\)/);
  });

  it('colours the screen from the theme', async () => {
    screen = renderScreen({ store: prepareSession().store, theme: loadTheme('dark') });
    const frame = await screen.waitFor('branches');
    expect(frame).toMatch(COLOUR_CODE);
    // The dark theme's user colour, #87d7ff, as a 24-bit foreground.
    expect(frame).toContain('\x1b[38;2;135;215;255m');
  });

  it('with NO_COLOR writes no colour code at all, yet keeps the selection and the danger visible', async () => {
    screen = renderScreen({ store: prepareSession().store, noColor: true });
    await screen.waitFor('branches');
    await screen.press('\t');
    const frame = await screen.waitFor('check out');
    expect(frame).not.toMatch(COLOUR_CODE);
    expect(frame).toContain('\x1b[7m');
    screen.approvals.decide(
      {
        callId: 'c',
        tool: 'bash',
        subject: 'rm -rf /tmp/x',
        input: { command: 'rm -rf /tmp/x' },
        risk: 'Destructive',
        reason: 'removes a tree',
      },
      new AbortController().signal,
    );
    const asked = await screen.waitFor('approve?');
    expect(asked).not.toMatch(COLOUR_CODE);
    expect(asked).toMatch(/\x1b\[7m[^\n]*Destructive/);
  });
});
