/**
 * The transcript keys each line by its entry and place (src/tui/transcript/transcript-window.ts), so when a
 * streamed line scrolls the others up, every line keeps its drawing instead of each screen row
 * being drawn again with its neighbour's text; and a line drawn again only when what it shows
 * changed (src/tui/style/StyledLine.tsx) must still show every change.
 */
import { render } from 'ink';
import { describe, expect, it } from 'vitest';
import { LinesPane } from '../../src/tui/panes/LinesPane';
import { seg, type Line } from '../../src/tui/style/styled-line';
import { ThemeContext, themeView, type ThemeView } from '../../src/tui/style/theme-context';
import { loadTheme } from '../../src/tui/style/theme';
import { LineCache, transcriptWindow } from '../../src/tui/transcript/transcript-window';
import { append, emptyStore } from './session-fixture';
import { FakeStdin, FakeStdout } from './harness';

describe('transcript lines', () => {
  it('keep their keys as the window scrolls, and no two lines on screen share one', () => {
    const store = emptyStore();
    const first = append(store, 'user', { text: 'first question' });
    append(store, 'user', { text: 'second question\nwith two lines' });
    const path = store.tree.pathTo(store.registers.get<{ entryId: string }>('lane.head', 'head')!.entryId);
    expect(path[0]!.id).toBe(first);
    const cache = new LineCache();
    const tail = (n: number): Line[] => Array.from({ length: n }, (_, i) => [seg(`streamed ${i}`)]);
    const before = transcriptWindow(path, tail(2), cache, 40, 6, { kind: 'follow' });
    const after = transcriptWindow(path, tail(3), cache, 40, 6, { kind: 'follow' });
    expect(before.keys).toHaveLength(6);
    expect(new Set(after.keys).size).toBe(after.keys.length);
    // One line more at the bottom: every line left on screen moved up one row with its key.
    for (let row = 1; row < 6; row++) {
      expect(after.lines[row - 1]).toEqual(before.lines[row]);
      expect(after.keys[row - 1]).toBe(before.keys[row]);
    }
    expect(after.keys.at(-1)).not.toBe(before.keys.at(-1));
    expect(after.keys.filter((key) => key.startsWith(`${path[1]!.id}:`)).length).toBeGreaterThan(0);
  });

  it('show a line whose text or style changed, given as new objects each frame', async () => {
    const stdout = new FakeStdout(40, 8);
    // Styles shown as text: a line drawn in another style reads differently on screen.
    const real = themeView(loadTheme('dark'), false);
    const theme: ThemeView = { ...real, paint: (text, name) => `${name ?? ''}:${text}` };
    const pane = (lines: Line[], keys?: string[]) => (
      <ThemeContext.Provider value={theme}>
        <LinesPane title="usage" lines={lines} {...(keys ? { keys } : {})} width={40} height={6} focused={false} />
      </ThemeContext.Provider>
    );
    const instance = render(pane([[seg('tokens 10')], [seg('cost $1', 'faint')]]), {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
      patchConsole: false,
      debug: true,
    });
    const last = (): string => stdout.frames.at(-1)!;
    try {
      expect(last()).toContain('tokens 10');
      const faint = last();
      instance.rerender(pane([[seg('tokens 10')], [seg('cost $1', 'faint')]]));
      expect(last()).toBe(faint);
      instance.rerender(pane([[seg('tokens 12')], [seg('cost $1', 'faint')]]));
      expect(last()).toContain('tokens 12');
      expect(last()).toContain('faint:cost $1');
      // Same text, another style: drawn again.
      instance.rerender(pane([[seg('tokens 12')], [seg('cost $1', 'error')]]));
      expect(last()).toContain('error:cost $1');
      // Lines keyed by the transcript move with their keys: the order on screen follows the lines.
      instance.rerender(pane([[seg('a')], [seg('b')], [seg('c')]], ['k1', 'k2', 'k3']));
      instance.rerender(pane([[seg('b')], [seg('c')], [seg('d')]], ['k2', 'k3', 'k4']));
      const rows = last()
        .split('\n')
        .map((row) => row.replace(/\x1b\[[0-9;]*m/g, ''));
      expect(rows.slice(1, 4).map((row) => row.slice(2, 4))).toEqual([':b', ':c', ':d']);
    } finally {
      instance.unmount();
    }
  });
});
