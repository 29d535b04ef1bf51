import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { prepareSession } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

function fits(frame: string, columns: number, rows: number): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(rows - 1);
  for (const line of lines) expect([...stripAnsi(line)].length).toBeLessThanOrEqual(columns);
}

describe('narrow and resized screens', () => {
  it('under 100 columns shows the transcript alone, and Tab brings up each side pane in turn', async () => {
    screen = renderScreen({ store: prepareSession().store, columns: 80, rows: 24 });
    let frame = await screen.waitFor('branch-2 ·');
    expect(frame).not.toContain('─ tree');
    expect(frame).not.toMatch(/[─┬] usage/);
    fits(frame, 80, 24);

    await screen.press(KEYS.tab);
    frame = await screen.waitFor('─ tree');
    expect(frame).not.toContain('branch-2 ·');
    expect(pane(frame, 'tree')).toContain('try a lock file instead');
    await screen.press(KEYS.tab);
    await screen.waitFor('branch-2 ·');
    await screen.press(KEYS.tab);
    frame = await screen.waitFor('─ usage');
    expect(pane(frame, 'usage')).toMatch(/session\s+62\.4k/);
    await screen.press(KEYS.tab);
    frame = await screen.waitFor('─ registers');
    expect(pane(frame, 'registers')).toContain('branch-2 →');
    fits(frame, 80, 24);
  });

  it('fits an approval prompt with a long input into a small terminal, keeping its keys visible', async () => {
    screen = renderScreen({ store: prepareSession().store, columns: 80, rows: 14 });
    await screen.waitFor('branch-2 ·');
    const content = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
    void screen.approvals.decide(
      {
        callId: 'c',
        tool: 'write_file',
        subject: 'big.txt',
        input: { path: 'big.txt', content },
        risk: 'Write',
        reason: 'writes a file',
      },
      new AbortController().signal,
    );
    const frame = await screen.waitFor('approve?');
    fits(frame, 80, 14);
    expect(stripAnsi(frame)).toContain('y approve once');
  });

  it('follows the terminal when it is resized, wide to narrow and back', async () => {
    screen = renderScreen({ store: prepareSession().store, columns: 140, rows: 40 });
    await screen.waitFor('─ tree');
    screen.resize(70, 20);
    await vi.waitFor(() => expect(screen!.frame()).not.toContain('─ tree'));
    fits(screen.frame(), 70, 20);
    screen.resize(120, 30);
    await screen.waitFor('─ tree');
    fits(screen.frame(), 120, 30);
  });

  it('shrunk from wide to narrow and back, draws what a screen of that size draws from the start', async () => {
    const store = prepareSession().store;
    const drawn = async (columns: number, rows: number): Promise<string> => {
      const fresh = renderScreen({ store, columns, rows });
      const frame = await fresh.waitFor('A lock file would serialise the writers.');
      fresh.unmount();
      return stripAnsi(frame);
    };
    const narrow = await drawn(80, 24);
    const wide = await drawn(160, 45);
    screen = renderScreen({ store, columns: 160, rows: 45 });
    await screen.waitFor('─ tree');
    // The transcript pane moves from beside the tree to the screen's edge: on the old code it kept
    // the rule's column, its text one column right and cut as a whole after three lines.
    screen.resize(80, 24);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toBe(narrow));
    screen.resize(160, 45);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toBe(wide));
  });
});
