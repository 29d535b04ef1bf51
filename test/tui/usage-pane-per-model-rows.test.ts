/**
 * The usage pane is laid out again whenever the streamed reply's estimate moves; its per-model
 * rows, which do not move with it, are kept with the summary. Kept rows must still follow what
 * they are laid out for: the pane's width and the summary itself.
 */
import { describe, expect, it } from 'vitest';
import { emptyTotals } from '../../src/core/usage/totals';
import type { Line } from '../../src/tui/style/styled-line';
import { usageLines, type LiveUsage } from '../../src/tui/usage/usage-lines';
import type { UsageSummary } from '../../src/tui/usage/usage-summary';

function summary(models: readonly [string, number][]): UsageSummary {
  const totals = (costUsdMicros: number) => ({ ...emptyTotals(), attempts: 1, costUsdMicros });
  return {
    turn: emptyTotals(),
    branch: emptyTotals(),
    session: emptyTotals(),
    perModel: models.map(([model, cost]) => ({ model, totals: totals(cost) })),
    retries: { retried: new Map(), failed: new Map(), waitedMs: 0, lastError: null },
    lastRequestTokens: null,
    cachedPrefixTokens: 0,
    children: [],
  };
}

function live(outputTokens: number): LiveUsage {
  const estimate = { inputTokens: 100, outputTokens, costUsdMicros: outputTokens, priced: true };
  return { activity: 'streaming', estimate, fill: null, elapsedMs: 1200, retry: null };
}

const lineText = (line: Line): string => line.map((segment) => segment.text).join('');
const modelRows = (lines: readonly Line[]) => lines.map(lineText).filter((text) => /gpt-|local-/.test(text));

describe('the usage pane’s per-model rows', () => {
  it('follow the width and the summary while the estimate moves', () => {
    const first = summary([
      ['gpt-4.1-mini', 1200],
      ['local-model', 0],
    ]);
    for (const [width, tokens] of [
      [30, 10],
      [50, 20],
      [50, 30],
      [30, 40],
    ] as const) {
      const rows = modelRows(usageLines(first, live(tokens), width));
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row.length).toBe(width);
    }
    const second = summary([['gpt-5', 99_000]]);
    const rows = modelRows(usageLines(second, live(50), 30));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('gpt-5');
  });
});
