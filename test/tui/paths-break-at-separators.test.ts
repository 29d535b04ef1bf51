/**
 * Paths on screen are cut or wrapped at their separators: the welcome screen's session path
 * breaks after a `/`, never inside the file's name; the first-run panel gives a config path the
 * room the pane has and cuts one only when it is truly too long, in its middle, keeping the
 * file's name. At 80 and 120 columns.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcRuns } from '../support/fc-runs';
import type { Line } from '../../src/tui/style/styled-line';
import { cellWidth } from '../../src/tui/text/cell-width';
import { fitPath, homeShort, wrapPath } from '../../src/tui/text/path-fit';
import { welcomeLines } from '../../src/tui/transcript/welcome-lines';
import { firstRunLines } from '../../src/tui/dialogs/first-run-lines';
import type { ProviderSetup } from '../../src/tui/dialogs/provider-setup';
import { KEYMAP } from '../../src/tui/input/keymap';

const SESSION = '/home/someone/.local/share/tole/sessions/1796538346976107292-5c7777.jsonl';
const NAME = '1796538346976107292-5c7777.jsonl';
const text = (line: Line): string => line.map((s) => s.text).join('');

describe('fitPath and wrapPath', () => {
  it('leave a path that fits whole, and cut a long one at separators keeping its name', () => {
    expect(fitPath(SESSION, 100)).toBe(SESSION);
    expect(fitPath(SESSION, 50)).toBe(`/…/tole/sessions/${NAME}`);
    expect(fitPath('~/.config/tole/profiles/work/config.json', 30)).toBe('~/…/profiles/work/config.json');
    for (const width of [10, 20, 30, 40, 50, 60, 70])
      expect(cellWidth(fitPath(SESSION, width))).toBeLessThanOrEqual(width);
    // A name longer than the room is cut in its own middle: its start and its end stay.
    expect(fitPath(`/x/${'a'.repeat(30)}.json`, 16)).toMatch(/^\/x\/aaa.*….*\.json$/);
  });

  it('wraps after separators, a name split only when it alone is longer than a line', () => {
    expect(wrapPath(SESSION, 60)).toEqual(['/home/someone/.local/share/tole/sessions/', NAME]);
    expect(wrapPath('/a/b/c', 80)).toEqual(['/a/b/c']);
    const narrow = wrapPath(`/tmp/${'n'.repeat(25)}`, 10);
    expect(narrow.join('')).toBe(`/tmp/${'n'.repeat(25)}`);
    for (const line of narrow) expect(cellWidth(line)).toBeLessThanOrEqual(10);
  });
});

describe('any path at any width', () => {
  it('fitPath stays within the width; wrapPath keeps every character, a line over the width only for one wide character', () => {
    const piece = fc.constantFrom('/', 'a', 'name', '漢字', '👍🏽', '.', '~', 'é', 'long-directory-name-');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.integer({ min: 1, max: 40 }), (parts, width) => {
        const path = parts.join('');
        expect(cellWidth(fitPath(path, width))).toBeLessThanOrEqual(width);
        const lines = wrapPath(path, width);
        expect(lines.join('')).toBe(path);
        for (const line of lines) expect(cellWidth(line) <= width || Array.from(line).length <= 2).toBe(true);
      }),
      { numRuns: fcRuns() },
    );
  });
});

describe('the welcome screen', () => {
  // The transcript's inner width: the whole screen under 100 columns (the side panes fold away),
  // between the tree and the usage pane at 120.
  for (const [columns, width] of [
    [80, 76],
    [120, 53],
  ] as const)
    it(`keeps the session file's name whole at ${columns} columns`, () => {
      const lines = welcomeLines(SESSION, false, width, '/home/other').map(text);
      const at = lines.findIndex((line) => line.startsWith('session  '));
      const pathLines = lines.slice(at).map((line) => line.slice('session  '.length));
      expect(pathLines.join('')).toBe(SESSION);
      expect(pathLines.some((line) => line.endsWith(NAME))).toBe(true);
      for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(width);
    });
});

describe('the session path on the welcome screen', () => {
  it('is shown from ~ when it lies under the home directory, and whole elsewhere', () => {
    expect(homeShort(SESSION, '/home/someone')).toBe(`~/.local/share/tole/sessions/${NAME}`);
    expect(homeShort(SESSION, '/home/someone/')).toBe(`~/.local/share/tole/sessions/${NAME}`);
    // A folder whose name only starts as the home's does, no home, and a home of / leave it whole.
    expect(homeShort(SESSION, '/home/some')).toBe(SESSION);
    expect(homeShort(SESSION, '')).toBe(SESSION);
    expect(homeShort(SESSION, '/')).toBe(SESSION);
    expect(homeShort('/home/someone', '/home/someone')).toBe('/home/someone');
  });

  it('fits one row of the transcript at 120 columns from ~, with the file name whole', () => {
    const lines = welcomeLines(`/home/someone/sessions/${NAME}`, false, 53, '/home/someone').map(text);
    expect(lines.filter((line) => line.includes('sessions/'))).toEqual([`session  ~/sessions/${NAME}`]);
    // What tole keeps is said; the keys are left to the prompt's row and the status bar.
    expect(lines.join(' ')).toContain('a crash loses nothing');
    const readOnly = welcomeLines(SESSION, true, 53, '/home/someone').map(text);
    expect(readOnly.join(' ')).toContain('open read-only');
  });
});

describe('the first-run panel', () => {
  const config = '/home/someone/work/clients/acme/monorepo/services/api/tole.config.json';
  const setup: ProviderSetup = {
    missing: true,
    lookedFor: [
      { what: 'OPENAI_API_KEY', found: 'not set' },
      { what: '~/.config/tole/config.json', found: 'not there' },
      { what: config, found: 'names no provider' },
    ],
    howTo: [],
    probeHost: '127.0.0.1',
    probe: async () => [],
    use: () => {},
  };
  const state = { missing: true, open: true, scanning: false, servers: [], index: 0, using: null };
  const row = (width: number): string =>
    firstRunLines(setup, state, KEYMAP, width)
      .map(text)
      .find((line) => line.includes('tole.config.json'))!;

  it('shows a long config path whole with 100 columns', () => {
    expect(row(100)).toMatch(new RegExp(`✗ ${config.replace(/[.]/g, '\\.')}\\s+names no provider`));
  });

  it('at 80 cuts it in the middle at separators, the name and what was found kept', () => {
    const line = row(80);
    expect(line).toMatch(/✗ \/…\/[^ ]*tole\.config\.json\s+names no provider$/);
    expect(cellWidth(line)).toBeLessThanOrEqual(80);
  });

  it('at 120 lines the short places up with the long one', () => {
    const lines = firstRunLines(setup, state, KEYMAP, 120).map(text);
    const foundAt = (what: string) => lines.find((line) => line.includes(what))!.search(/not set|not there|names/);
    expect(foundAt('OPENAI_API_KEY')).toBe(foundAt('tole.config.json'));
  });
});
