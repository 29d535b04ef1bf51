import { describe, expect, it } from 'vitest';
import type { TokenUsage } from '../../../src/core/provider/provider';
import { costUsdMicros, defaultPricingTable, findPricing } from '../../../src/core/usage/pricing';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0, cacheWriteTokens = 0): TokenUsage => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
  cacheWriteTokens,
});

describe('pricing', () => {
  it('matches the longest prefix, ignoring case', () => {
    expect(findPricing('gpt-4.1-mini-2025-04-14')?.prefix).toBe('gpt-4.1-mini');
    expect(findPricing('gpt-4.1-2025-04-14')?.prefix).toBe('gpt-4.1');
    expect(findPricing('GPT-4o-Mini')?.prefix).toBe('gpt-4o-mini');
    expect(findPricing('o4-mini-high')?.prefix).toBe('o4-mini');
    expect(findPricing('claude-opus-4-5-20251101')?.prefix).toBe('claude-opus-4-5');
    expect(findPricing('claude-opus-4-1-20250805')?.prefix).toBe('claude-opus-4');
    expect(findPricing('gemini-2.5-flash-lite')?.prefix).toBe('gemini-2.5-flash-lite');
  });

  it('matches routed names by the part after the slash', () => {
    expect(findPricing('openai/gpt-4o')?.prefix).toBe('gpt-4o');
    expect(findPricing('models/gemini-2.5-pro')?.prefix).toBe('gemini-2.5-pro');
  });

  it('prices input, output and cached input, counting cached tokens once', () => {
    // gpt-4.1: $2 in, $0.50 cached, $8 out per million tokens.
    expect(costUsdMicros('gpt-4.1', usage(1_000_000, 0)).costUsdMicros).toBe(2_000_000);
    expect(costUsdMicros('gpt-4.1', usage(0, 1_000_000)).costUsdMicros).toBe(8_000_000);
    const cached = costUsdMicros('gpt-4.1', usage(1_000_000, 1000, 600_000));
    expect(cached).toEqual({
      costUsdMicros: 400_000 * 2 + 600_000 * 0.5 + 1000 * 8,
      priced: true,
      source: 'table',
      matchedPrefix: 'gpt-4.1',
    });
  });

  it('prices cache writes at their premium', () => {
    // claude-sonnet-4: $3 in, $0.30 cache read, $3.75 cache write, $15 out.
    const cost = costUsdMicros('claude-sonnet-4-5', usage(10_000, 100, 4000, 5000));
    expect(cost.costUsdMicros).toBe(Math.round(1000 * 3 + 4000 * 0.3 + 5000 * 3.75 + 100 * 15));
  });

  it('rounds to whole micro-dollars', () => {
    const cost = costUsdMicros('gpt-4.1-nano', usage(3, 1)).costUsdMicros;
    expect(Number.isInteger(cost)).toBe(true);
    expect(cost).toBe(Math.round(3 * 0.1 + 1 * 0.4));
  });

  it('prefers the cost the server reports, zero included', () => {
    expect(costUsdMicros('gpt-4.1', { ...usage(1_000_000, 0), serverCostUsdMicros: 1234 })).toEqual({
      costUsdMicros: 1234,
      priced: true,
      source: 'server',
    });
    expect(costUsdMicros('some/free-model', { ...usage(1000, 10), serverCostUsdMicros: 0 })).toMatchObject({
      costUsdMicros: 0,
      priced: true,
    });
  });

  it('costs unknown and local models 0 and says they are unpriced', () => {
    expect(costUsdMicros('llama3.1:8b', usage(5000, 500))).toEqual({
      costUsdMicros: 0,
      priced: false,
      source: 'unpriced',
    });
    expect(costUsdMicros('qwen2.5-coder-32b-instruct', usage(5000, 500)).priced).toBe(false);
    expect(costUsdMicros('gpt-4.1', null)).toEqual({ costUsdMicros: 0, priced: false, source: 'unpriced' });
  });

  it('lets overrides from config add models and beat the table', () => {
    const overrides = {
      'llama3.1': { inputUsdPerMTok: 1, outputUsdPerMTok: 2 },
      'gpt-4.1': { inputUsdPerMTok: 10, outputUsdPerMTok: 10 },
    };
    expect(costUsdMicros('llama3.1:8b', usage(1000, 1000), overrides)).toMatchObject({
      costUsdMicros: 3000,
      priced: true,
    });
    // No cached price in the override: cache reads cost 10% of the input price, writes 125%.
    expect(costUsdMicros('gpt-4.1', usage(1000, 0, 500), overrides).costUsdMicros).toBe(5_000 + 500);
    expect(costUsdMicros('gpt-4.1', usage(1000, 0, 0, 400), overrides).costUsdMicros).toBe(6_000 + 5_000);
    // A longer table prefix still wins over a shorter override.
    expect(findPricing('gpt-4.1-mini', overrides)?.prefix).toBe('gpt-4.1-mini');
  });

  it('keeps every table price non-negative with cached input no dearer than input', () => {
    for (const [prefix, pricing] of Object.entries(defaultPricingTable)) {
      expect(prefix).toBe(prefix.toLowerCase());
      expect(pricing.inputUsdPerMTok).toBeGreaterThan(0);
      expect(pricing.outputUsdPerMTok).toBeGreaterThan(0);
      expect(pricing.cachedInputUsdPerMTok ?? 0).toBeLessThanOrEqual(pricing.inputUsdPerMTok);
    }
  });
});
