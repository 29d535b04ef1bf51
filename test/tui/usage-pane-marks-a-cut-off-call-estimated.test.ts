/**
 * A call cut off mid-stream is in the ledger as tole's estimate: once its row lands and the call
 * is no longer open, the usage pane keeps marking the figures it moved with `~`.
 */
import { describe, expect, it } from 'vitest';
import { emptyTotals } from '../../src/core/usage/totals';
import type { Line } from '../../src/tui/style/styled-line';
import { usageLines, type LiveUsage } from '../../src/tui/usage/usage-lines';
import type { UsageSummary } from '../../src/tui/usage/usage-summary';

function summary(estimated: boolean): UsageSummary {
  const totals = {
    ...emptyTotals(),
    attempts: 1,
    inputTokens: 1200,
    outputTokens: 40,
    costUsdMicros: 41_000,
    estimated,
  };
  return {
    turn: totals,
    branch: totals,
    session: totals,
    perModel: [{ model: 'gpt-4o', totals }],
    retries: { retried: new Map(), failed: new Map(), waitedMs: 0, lastError: null },
    lastRequestTokens: null,
    cachedPrefixTokens: 0,
    children: [],
  };
}

const idle: LiveUsage = { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null };
const lineText = (line: Line): string => line.map((segment) => segment.text).join('');

describe('the usage pane after a call cut off mid-stream', () => {
  it('marks the session, branch, turn and model figures ~, and leaves counted ones plain', () => {
    const marked = usageLines(summary(true), idle, 40).map(lineText);
    const session = marked.find((line) => line.startsWith('session'))!;
    expect(session).toMatch(/~1\.2k\s+~40\s+~\$0\.041$/);
    expect(marked.find((line) => line.includes('gpt-4o'))).toMatch(/~\$0\.041$/);

    const counted = usageLines(summary(false), idle, 40).map(lineText);
    expect(counted.join('\n')).not.toContain('~');
  });
});
