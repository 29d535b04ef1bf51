/**
 * A token figure of nothing yet (a new session's 0s) is drawn muted, like the cost of nothing
 * beside it and the row's label: a new session's usage rows need no colour switch between them.
 * A figure of something is drawn in the text colour.
 */
import { describe, expect, it } from 'vitest';
import { emptyTotals } from '../../src/core/usage/totals';
import { usageLines, type LiveUsage } from '../../src/tui/usage/usage-lines';
import type { UsageSummary } from '../../src/tui/usage/usage-summary';

function summary(inputTokens: number, outputTokens: number): UsageSummary {
  const totals = { ...emptyTotals(), inputTokens, outputTokens };
  return {
    turn: totals,
    branch: totals,
    session: totals,
    perModel: [],
    retries: { retried: new Map(), failed: new Map(), waitedMs: 0, lastError: null },
    lastRequestTokens: null,
    cachedPrefixTokens: 0,
    children: [],
  };
}

const idle: LiveUsage = { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null };

/** The styles of the turn, branch and session rows' segments: label, in, out, cost. */
function rowStyles(s: UsageSummary): string[][] {
  return usageLines(s, idle, 40)
    .slice(1, 4)
    .map((line) => line.map((segment) => segment.style ?? 'plain'));
}

describe('the usage pane’s token figures', () => {
  it('are muted while they are 0, as the label and the cost of nothing are', () => {
    for (const row of rowStyles(summary(0, 0))) expect(row).toEqual(['muted', 'muted', 'muted', 'muted']);
  });

  it('are in the text colour once they count something, each on its own', () => {
    for (const row of rowStyles(summary(1200, 0))) expect(row).toEqual(['muted', 'text', 'muted', 'muted']);
    for (const row of rowStyles(summary(1200, 40))) expect(row).toEqual(['muted', 'text', 'text', 'muted']);
  });
});
