/**
 * The status bar is laid out once for what it says; each step of the spinner (some ten a second
 * while a turn runs) only puts its mark in. Property: a bar drawn through any sequence of changes
 * (what it says, its width, the clock's step) shows, after each, what a bar drawn fresh with the
 * same props at the same moment shows.
 */
import fc from 'fast-check';
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spinnerStep, StatusBar, type StatusBarProps } from '../../src/tui/status/StatusBar';
import { loadTheme } from '../../src/tui/style/theme';
import { ThemeContext, themeView } from '../../src/tui/style/theme-context';
import { fcRuns } from '../support/fc-runs';

const theme = themeView(loadTheme('dark'), false);

const HINTS = [
  { keys: '⏎', hint: 'send' },
  { keys: 'Tab', hint: 'panes' },
  { keys: 'Esc', hint: 'stop' },
  { keys: '^C', hint: 'quit' },
  { keys: '?', hint: 'keys' },
];

const barProps = fc.record({
  pc: fc.constantFrom('Idle', 'Planning', 'Streaming', 'Retrying', 'Final'),
  seq: fc.nat(500),
  model: fc.constantFrom('gpt-4.1-mini', 'a-very-long-model-name-on-a-server'),
  sessionId: fc.constant('1796166943562285292-e1e437'),
  running: fc.boolean(),
  readOnly: fc.boolean(),
  queued: fc.nat(3),
  alert: fc.constantFrom(null, 'key refused', 'no provider'),
  hints: fc.integer({ min: 0, max: HINTS.length }).map((n) => HINTS.slice(0, n)),
  width: fc.integer({ min: 8, max: 140 }),
  usage: fc.constantFrom(
    null,
    { text: '~$0.0123 · ctx 41k/128k 32%', alert: false },
    { text: '$1.20 · ctx 120k/128k 94%', alert: true },
  ),
  atMs: fc.integer({ min: 0, max: 5_000 }),
});

const FIELDS = [
  'pc',
  'seq',
  'model',
  'running',
  'readOnly',
  'queued',
  'alert',
  'hints',
  'width',
  'usage',
  'atMs',
] as const;

function bar(props: StatusBarProps) {
  return (
    <ThemeContext.Provider value={theme}>
      <StatusBar {...props} />
    </ThemeContext.Provider>
  );
}

afterEach(() => vi.useRealTimers());

describe('the status bar, drawn again step by step', () => {
  it('shows what a bar drawn fresh shows', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = 1_764_460_000_000;
    fc.assert(
      // A first bar, then changes of one thing at a time (what it says, its width, the clock).
      fc.property(
        barProps,
        fc.array(fc.tuple(fc.constantFrom(...FIELDS), barProps), { maxLength: 8 }),
        (first, changes) => {
          const drawn = render(<Text />);
          try {
            let now = first;
            for (const { atMs, ...step } of [
              first,
              ...changes.map(([field, from]) => (now = { ...now, [field]: from[field] })),
            ]) {
              vi.setSystemTime(start + atMs);
              const props: StatusBarProps = { ...step, spin: step.running ? spinnerStep() : 0 };
              drawn.rerender(bar(props));
              const fresh = render(bar(props));
              expect(drawn.lastFrame()).toBe(fresh.lastFrame());
              fresh.unmount();
            }
          } finally {
            drawn.unmount();
          }
        },
      ),
      { numRuns: fcRuns(0.25) },
    );
  });
});
