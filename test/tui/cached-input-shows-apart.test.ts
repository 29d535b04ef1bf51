/**
 * Input read from a provider's prompt cache is shown apart from the rest, in the usage pane and
 * in /cost, with the cache writes beside it: "in 120k · cached 110k".
 */
import { describe, expect, it } from 'vitest';
import type { TokenUsage } from '../../src/core/provider/provider';
import type { UsageRecord } from '../../src/core/storage/records';
import { costUsdMicros } from '../../src/core/usage/pricing';
import type { UsageRow } from '../../src/core/usage/usage-row';
import { costLines } from '../../src/tui/usage/cost-lines';
import { callEstimate } from '../../src/tui/usage/live-cost';
import type { Line } from '../../src/tui/style/styled-line';
import { usageLines } from '../../src/tui/usage/usage-lines';
import { summarizeUsage } from '../../src/tui/usage/usage-summary';

const lineText = (line: Line): string => line.map((segment) => segment.text).join('');

function record(seq: number, usage: Partial<UsageRow>): UsageRecord {
  const row: UsageRow = {
    model: 'claude-sonnet-4-5',
    attempt: 1,
    outcome: 'ok',
    inputTokens: 0,
    outputTokens: 100,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    costUsdMicros: 1000,
    priced: true,
    latencyMs: 10,
    lane: 'main',
    ...usage,
  };
  return { kind: 'usage', seq, id: `u${seq}`, entryId: `e${seq}`, usage: row };
}

const rows = [
  record(1, { inputTokens: 10_000, cacheWriteTokens: 9_000 }),
  record(2, { inputTokens: 50_000, cachedInputTokens: 45_000, cacheWriteTokens: 4_000 }),
  record(3, { inputTokens: 60_000, cachedInputTokens: 55_000 }),
];

describe('cached input shown apart', () => {
  it('the usage pane has a cache row under the session: in, cached, written', () => {
    const summary = summarizeUsage(rows, new Set(['e1', 'e2', 'e3']), new Set(['e3']));
    const idle = { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null };
    const text = usageLines(summary, idle, 60).map(lineText);
    const cache = text.filter((line) => line.startsWith('cache '));
    expect(cache).toHaveLength(1);
    expect(cache[0]).toMatch(/^cache\s+in 120k · cached 100k\s*$/);
    expect(text[text.indexOf(cache[0]!) + 1]).toMatch(/^\s+written 13\.0k\s*$/);
  });

  it('/cost has a cached column and the session line says it in words', () => {
    const input = {
      rows,
      pathIds: new Set(['e1', 'e2', 'e3']),
      lane: 'main',
      model: 'claude-sonnet-4-5',
      estimate: null,
    };
    const text = costLines(input, 100).map(lineText);
    expect(text[0]).toMatch(/in\s+cached\s+out/);
    expect(text[1]).toMatch(/all calls\s+3\s+120k\s+100k\s+300/);
    expect(text[2]).toContain('in 120k · cached 100k · written 13.0k');
    expect(text.some((line) => line.startsWith('cached: read from the prompt cache'))).toBe(true);
  });

  it("the call in flight is estimated with the last call's prompt read from the cache, at the cache price", () => {
    const summary = summarizeUsage(rows, new Set(['e1', 'e2', 'e3']), new Set(['e3']));
    expect(summary.cachedPrefixTokens).toBe(60_000);
    const agent = { priceUsage: (usage: TokenUsage) => costUsdMicros('claude-sonnet-4-5', usage) };
    const live = { callOpen: true, text: 'x'.repeat(400), reasoning: '', refusal: '' };
    // $3 per million for the 10k new tokens, $0.30 for the 60k cached, $15 for 100 out.
    expect(callEstimate(live, 70_000, agent, summary.cachedPrefixTokens)?.costUsdMicros).toBe(30_000 + 18_000 + 1_500);
    // A branch whose last call used no cache: all of the prompt at the input price.
    const plain = summarizeUsage([...rows, record(4, { inputTokens: 70_000 })], new Set(['e4']), new Set(['e4']));
    expect(plain.cachedPrefixTokens).toBe(0);
    expect(callEstimate(live, 70_000, agent, plain.cachedPrefixTokens)?.costUsdMicros).toBe(210_000 + 1_500);
  });

  it('a session whose calls used no cache shows none of it', () => {
    const plain = [record(1, { inputTokens: 1000 })];
    const summary = summarizeUsage(plain, new Set(['e1']), new Set(['e1']));
    const idle = { activity: null, estimate: null, fill: null, elapsedMs: 0, retry: null };
    expect(
      usageLines(summary, idle, 60)
        .map(lineText)
        .some((line) => line.startsWith('cache')),
    ).toBe(false);
    const input = { rows: plain, pathIds: new Set(['e1']), lane: 'main', model: 'm', estimate: null };
    expect(
      costLines(input, 100)
        .map(lineText)
        .some((line) => line.includes('cached 0')),
    ).toBe(false);
  });
});
