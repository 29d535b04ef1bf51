/**
 * The live cost's figures on their own: which tokens the context fill shows (the open call's
 * estimate, else the last call's real count, else the next call's estimate), its colour
 * thresholds, the `~` and `+?` marks, and what the narrow status bar says.
 */
import { describe, expect, it } from 'vitest';
import { emptyTotals } from '../../src/core/usage/totals';
import { callEstimate, contextFill, costText, fillStyle, fillText, withEstimate } from '../../src/tui/usage/live-cost';
import { statusUsage } from '../../src/tui/usage/status-usage';

const window = { tokens: 100_000, source: 'the config' };
const price = {
  priceUsage: (u: { inputTokens: number; outputTokens: number }) => ({
    costUsdMicros: u.inputTokens * 2 + u.outputTokens * 8,
    priced: true,
  }),
};

describe('the context fill', () => {
  it('is the open call estimate, else the last call real count, else the next call estimate', () => {
    expect(contextFill(true, 40_000, 42_000, window)).toEqual({
      tokens: 42_000,
      estimated: true,
      windowTokens: 100_000,
    });
    expect(contextFill(false, 40_000, 42_000, window)).toEqual({
      tokens: 40_000,
      estimated: false,
      windowTokens: 100_000,
    });
    expect(contextFill(false, null, 42_000, window)).toEqual({
      tokens: 42_000,
      estimated: true,
      windowTokens: 100_000,
    });
    expect(contextFill(false, null, null, window)).toBeNull();
    expect(fillText(contextFill(false, null, 41_000, null)!)).toBe('~41.0k');
  });

  it('is plain under 60%, a warning from 60% and an alert from 85%', () => {
    const at = (tokens: number) => ({ tokens, estimated: false, windowTokens: 100_000 });
    expect(fillStyle(at(59_999))).toBe('text');
    expect(fillStyle(at(60_000))).toBe('warn');
    expect(fillStyle(at(85_000))).toBe('error');
    expect(fillText(at(41_000))).toBe('41.0k/100k 41%');
  });
});

describe('the estimate', () => {
  it('prices the prompt and the streamed text (4 characters a token) only while a call is open', () => {
    const live = { callOpen: true, text: 'x'.repeat(400), reasoning: 'y'.repeat(40), refusal: '' };
    expect(callEstimate(live, 1000, price)).toEqual({
      inputTokens: 1000,
      outputTokens: 110,
      costUsdMicros: 2880,
      priced: true,
    });
    expect(callEstimate({ ...live, callOpen: false }, 1000, price)).toBeNull();
    expect(callEstimate(live, 1000, {})).toMatchObject({ costUsdMicros: 0, priced: false });
  });

  it('marks totals that hold it with ~, and an unpriced call with +? and no ~ on the cost', () => {
    const counted = { ...emptyTotals(), inputTokens: 5000, outputTokens: 300, costUsdMicros: 56_000, attempts: 1 };
    expect(costText(withEstimate(counted, null))).toBe('$0.056');
    const priced = { inputTokens: 1000, outputTokens: 100, costUsdMicros: 10_000, priced: true };
    expect(costText(withEstimate(counted, priced))).toBe('~$0.066');
    const unpriced = { ...priced, costUsdMicros: 0, priced: false };
    expect(costText(withEstimate(counted, unpriced))).toBe('$0.056+?');
  });

  it('gives the narrow status bar the session cost and the fill, an alert when nearly full', () => {
    const session = withEstimate({ ...emptyTotals(), costUsdMicros: 17_000 }, null);
    expect(statusUsage({ estimate: null, fill: null, session })).toEqual({ text: '$0.017', alert: false });
    const full = { tokens: 90_000, estimated: false, windowTokens: 100_000 };
    expect(statusUsage({ estimate: null, fill: full, session })).toEqual({
      text: '$0.017 · ctx 90.0k/100k 90%',
      alert: true,
    });
  });
});
