/**
 * A sub-agent's usage is its own file's, and the usage pane rolls it into the parent's rows: the
 * session always, the branch and the turn where the call that started it is, each such row marked
 * `*`; each child is listed with its profile, model and cost, `▸` while it runs.
 */
import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../src/core/storage/records';
import type { UsageRow } from '../../src/core/usage/usage-row';
import type { ChildUsage } from '../../src/tui/usage/child-usage';
import type { Line } from '../../src/tui/style/styled-line';
import { usageLines } from '../../src/tui/usage/usage-lines';
import { summarizeUsage } from '../../src/tui/usage/usage-summary';

function record(entryId: string | null, model: string, costUsdMicros: number): UsageRecord {
  const usage: UsageRow = {
    model,
    attempt: 0,
    outcome: 'ok',
    inputTokens: 100,
    outputTokens: 10,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    costUsdMicros,
    priced: true,
    latencyMs: 5,
    lane: 'main',
  };
  return { kind: 'usage', seq: 1, id: `u-${entryId}-${costUsdMicros}`, entryId, usage };
}

const text = (line: Line): string => line.map((s) => s.text).join('');

function child(sessionId: string, intentEntryId: string, costs: number[], running = false): ChildUsage {
  return {
    sessionId,
    agent: sessionId === 'c1' ? 'reviewer' : null,
    model: 'child-model',
    intentEntryId,
    rows: costs.map((c) => record('child-entry', 'child-model', c)),
    running,
  };
}

describe('the usage pane with sub-agents', () => {
  it('counts a child in the session, and in the branch and turn its call is on', () => {
    const own = [record('e1', 'parent-model', 1_000_000), record('e3', 'parent-model', 2_000_000)];
    const onBranch = new Set(['e1', 'e3', 'i-turn', 'i-branch']);
    const turn = new Set(['e3', 'i-turn']);
    const summary = summarizeUsage(own, onBranch, turn, [
      child('c1', 'i-turn', [100_000, 200_000], true),
      child('c2', 'i-branch', [50_000]),
      child('c3', 'i-elsewhere', [7_000]),
    ]);

    expect(summary.turn.costUsdMicros).toBe(2_300_000);
    expect(summary.branch.costUsdMicros).toBe(3_350_000);
    expect(summary.session.costUsdMicros).toBe(3_357_000);
    expect(summary.perModel.map((m) => m.model)).toEqual(['parent-model']);

    const lines = usageLines(
      summary,
      { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null },
      44,
    ).map(text);
    expect(lines.filter((l) => /^(turn|branch|session)/.test(l)).map((l) => l.split(' ')[0])).toEqual([
      'turn*',
      'branch*',
      'session*',
    ]);
    const agents = lines.slice(lines.findIndex((l) => l.startsWith('agents')));
    expect(agents.slice(0, 4)).toEqual([
      expect.stringMatching(/^agents {2}▸ reviewer child-model +\$0\.300$/),
      expect.stringMatching(/^ {10}child-model +\$0\.050$/),
      expect.stringMatching(/^ {10}child-model +\$0\.0070$/),
      '        * with sub-agents',
    ]);
  });

  it('marks nothing when the session started no sub-agent', () => {
    const summary = summarizeUsage([record('e1', 'm', 10)], new Set(['e1']), new Set(['e1']));
    const lines = usageLines(
      summary,
      { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null },
      44,
    ).map(text);
    expect(lines.some((l) => l.includes('*'))).toBe(false);
    expect(lines.some((l) => l.startsWith('agents'))).toBe(false);
  });
  it("shows the session's budget under the session row, sub-agents included, warned near it and marked once reached", () => {
    const idle = { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null };
    const at = (childCosts: number[]) =>
      summarizeUsage([record('e1', 'parent-model', 500_000)], new Set(['e1']), new Set(['e1']), [
        child('c1', 'e1', childCosts),
      ]);
    const budgetRow = (lines: Line[]): Line => lines.find((l) => text(l).startsWith('budget'))!;

    const under = usageLines(at([100_000]), idle, 44, undefined, 1);
    const texts = under.map(text);
    expect(texts[texts.findIndex((l) => l.startsWith('session*')) + 1]).toBe('budget  $0.600 / $1.00');
    expect(budgetRow(under)[1]!.style).toBe('text');
    expect(budgetRow(usageLines(at([300_000]), idle, 44, undefined, 1))[1]!.style).toBe('warn');
    const reached = budgetRow(usageLines(at([500_000]), idle, 44, undefined, 1));
    expect(text(reached)).toBe('budget  $1.00 / $1.00');
    expect(reached[1]!.style).toBe('error');
    // No budget set: no row.
    expect(usageLines(at([100_000]), idle, 44).some((l) => text(l).startsWith('budget'))).toBe(false);
  });
});
