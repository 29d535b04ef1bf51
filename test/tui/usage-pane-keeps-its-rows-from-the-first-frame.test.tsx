/**
 * The usage pane is given the rows a turn of one model takes from the first frame on: the context
 * estimate and the model's window, which come after the first frame, and the live row, which comes
 * and goes with each turn, fill rows kept for them. Were the pane sized to its lines, each would
 * move the registers pane below it, and a terminal would be sent that pane again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { emptyTotals } from '../../src/core/usage/totals';
import type { KnownWindow } from '../../src/tui/usage/known-window';
import { usageLines, usageRows, type LiveUsage } from '../../src/tui/usage/usage-lines';
import type { UsageSummary } from '../../src/tui/usage/usage-summary';
import { hangingAgent, KEYS, renderScreen, stripAnsi, type Screen } from './harness';
import { append, emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => {
  screen?.unmount();
  screen = undefined;
});

/** The row of the frame on which the registers pane's top border (its title) is drawn. */
function registersRow(frame: string): number {
  return stripAnsi(frame)
    .split('\n')
    .findIndex((line) => /[─┌╭├] registers/.test(line));
}

function summary(models: readonly string[]): UsageSummary {
  return {
    turn: emptyTotals(),
    branch: emptyTotals(),
    session: emptyTotals(),
    perModel: models.map((model) => ({ model, totals: { ...emptyTotals(), attempts: 1 } })),
    retries: { retried: new Map(), failed: new Map(), waitedMs: 0, lastError: null },
    lastRequestTokens: null,
    cachedPrefixTokens: 0,
    children: [],
  };
}

const idle: LiveUsage = { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null };
const fill = { tokens: 1200, windowTokens: 128_000, estimated: true };

describe('the usage pane’s rows', () => {
  it('stay the same from the first frame through a turn of one model', () => {
    const window: KnownWindow = { tokens: 128_000, source: 'server' };
    const moments: [UsageSummary, LiveUsage, KnownWindow][] = [
      [summary([]), idle, undefined], // the first frame
      [summary([]), { ...idle, fill }, undefined], // the context estimate came
      [summary([]), { ...idle, fill }, window], // the window was learned
      [summary([]), { ...idle, fill, activity: 'streaming' }, window], // a turn runs
      [summary(['fake-model']), { ...idle, fill }, window], // it ended: a model row
    ];
    const rows = moments.map(([s, live, w]) => usageRows(usageLines(s, live, 40, w).length, s));
    expect(new Set(rows).size).toBe(1);
    // Never fewer than the lines: every line the pane has is shown.
    for (const [s, live, w] of moments) expect(rows[0]).toBeGreaterThanOrEqual(usageLines(s, live, 40, w).length);
  });

  it('are not moved by the live row: a turn starting or ending changes that row alone', () => {
    const window: KnownWindow = { tokens: 128_000, source: 'server' };
    const text = (lines: ReturnType<typeof usageLines>) => lines.map((l) => l.map((s) => s.text).join(''));
    for (const models of [[], ['fake-model']]) {
      const before = text(usageLines(summary(models), { ...idle, fill }, 40, window));
      const during = text(usageLines(summary(models), { ...idle, fill, activity: 'streaming' }, 40, window));
      expect(during.slice(0, before.length)).toEqual(before);
      expect(during).toHaveLength(before.length + 1);
      expect(during.at(-1)).toContain('▸ streaming');
    }
  });

  it('grow with what a turn of one model does not show (a second model)', () => {
    const live = { ...idle, fill, activity: 'streaming' };
    const one = usageRows(usageLines(summary(['a']), live, 40, null).length, summary(['a']));
    const two = usageRows(usageLines(summary(['a', 'b']), live, 40, null).length, summary(['a', 'b']));
    expect(two).toBe(one + 1);
  });

  it('keep the registers pane where it is on screen while the window comes and a turn starts and ends', async () => {
    const store = emptyStore();
    append(store, 'user', { text: 'an earlier question' });
    const agent = hangingAgent();
    let learned: () => void = () => {};
    let window: KnownWindow;
    Object.defineProperty(agent, 'knownWindow', { get: () => window });
    Object.assign(agent, {
      onWindowLearned: (listener: () => void) => {
        learned = listener;
        return () => {};
      },
    });
    screen = renderScreen({ store, agent, columns: 120, rows: 40 });
    await screen.waitFor('registers');
    const first = registersRow(screen.frame());
    expect(first).toBeGreaterThan(0);
    window = { tokens: 128_000, source: 'server' };
    learned();
    await screen.waitFor('128k');
    expect(registersRow(screen.frame())).toBe(first);
    await screen.type('go');
    await screen.press(KEYS.enter);
    await screen.waitFor('▸ waiting');
    expect(registersRow(screen.frame())).toBe(first);
    agent.finish();
    await expect.poll(() => screen!.frame().includes('▸ waiting'), { timeout: 10_000 }).toBe(false);
    expect(registersRow(screen.frame())).toBe(first);
  });
});
