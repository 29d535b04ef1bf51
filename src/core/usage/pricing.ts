/**
 * What a model call costs. Prices are data: a table keyed by model-name prefix (longest prefix
 * wins, case-insensitive). Users override or extend it from config (`pricing` in tole's config
 * file), which is passed here as `overrides`; an override beats a table entry of the same length.
 *
 * Token accounting follows OpenAI: `inputTokens` counts every prompt token, the cached and the
 * cache-written ones included, so those are priced at their own rate and not again at the
 * input rate.
 */
import type { TokenUsage } from '../provider/provider';

interface ModelPricing {
  readonly inputUsdPerMTok: number;
  /** Cache reads; 10% of the input price when absent (what Anthropic, Gemini and OpenAI's newer models charge). */
  readonly cachedInputUsdPerMTok?: number;
  /** Cache writes; 125% of the input price when absent (Anthropic's 5-minute cache). */
  readonly cacheWriteUsdPerMTok?: number;
  readonly outputUsdPerMTok: number;
}

type PricingTable = Readonly<Record<string, ModelPricing>>;

function price(input: number, cachedInput: number, output: number, cacheWrite?: number): ModelPricing {
  return {
    inputUsdPerMTok: input,
    cachedInputUsdPerMTok: cachedInput,
    outputUsdPerMTok: output,
    ...(cacheWrite === undefined ? {} : { cacheWriteUsdPerMTok: cacheWrite }),
  };
}

/** List prices in US dollars per million tokens (standard tier, prompts up to 200k tokens). */
export const defaultPricingTable: PricingTable = {
  // OpenAI
  'gpt-5': price(1.25, 0.125, 10),
  'gpt-5.2': price(1.75, 0.175, 14),
  'gpt-5.2-pro': price(21, 21, 168),
  'gpt-5-pro': price(15, 15, 120),
  'gpt-5-mini': price(0.25, 0.025, 2),
  'gpt-5-nano': price(0.05, 0.005, 0.4),
  'gpt-4.1': price(2, 0.5, 8),
  'gpt-4.1-mini': price(0.4, 0.1, 1.6),
  'gpt-4.1-nano': price(0.1, 0.025, 0.4),
  'gpt-4o': price(2.5, 1.25, 10),
  'gpt-4o-mini': price(0.15, 0.075, 0.6),
  'gpt-4-turbo': price(10, 10, 30),
  'gpt-3.5-turbo': price(0.5, 0.5, 1.5),
  o1: price(15, 7.5, 60),
  'o1-mini': price(1.1, 0.55, 4.4),
  'o1-pro': price(150, 150, 600),
  o3: price(2, 0.5, 8),
  'o3-pro': price(20, 20, 80),
  'o3-mini': price(1.1, 0.55, 4.4),
  'o4-mini': price(1.1, 0.275, 4.4),
  // Anthropic: cache reads at 10% of input, 5-minute cache writes at 125%.
  'claude-opus-4': price(15, 1.5, 75, 18.75),
  'claude-opus-4-5': price(5, 0.5, 25, 6.25),
  'claude-sonnet-4': price(3, 0.3, 15, 3.75),
  'claude-haiku-4': price(1, 0.1, 5, 1.25),
  'claude-3-opus': price(15, 1.5, 75, 18.75),
  'claude-3-7-sonnet': price(3, 0.3, 15, 3.75),
  'claude-3-5-sonnet': price(3, 0.3, 15, 3.75),
  'claude-3-5-haiku': price(0.8, 0.08, 4, 1),
  'claude-3-haiku': price(0.25, 0.03, 1.25, 0.3),
  // Google Gemini
  'gemini-3-pro': price(2, 0.2, 12),
  'gemini-2.5-pro': price(1.25, 0.125, 10),
  'gemini-2.5-flash': price(0.3, 0.03, 2.5),
  'gemini-2.5-flash-lite': price(0.1, 0.01, 0.4),
  'gemini-2.0-flash': price(0.1, 0.025, 0.4),
  'gemini-2.0-flash-lite': price(0.075, 0.075, 0.3),
};

interface PricingMatch {
  readonly prefix: string;
  readonly pricing: ModelPricing;
}

type CostSource = 'server' | 'table' | 'unpriced';

interface CostEstimate {
  readonly costUsdMicros: number;
  /** False when nothing priced the call (unknown or local model): the cost is 0 for that reason. */
  readonly priced: boolean;
  readonly source: CostSource;
  /** The table prefix that priced it, when the table did. */
  readonly matchedPrefix?: string;
}

/**
 * The longest prefix of `model` in the table or the overrides. Routed names (`openai/gpt-4o`,
 * `models/gemini-2.5-flash`) fall back to the part after the last slash.
 */
export function findPricing(model: string, overrides: PricingTable = {}): PricingMatch | undefined {
  const name = model.trim().toLowerCase();
  const lastSlash = name.lastIndexOf('/');
  return (
    longestPrefixMatch(name, overrides) ??
    (lastSlash >= 0 ? longestPrefixMatch(name.slice(lastSlash + 1), overrides) : undefined)
  );
}

function longestPrefixMatch(name: string, overrides: PricingTable): PricingMatch | undefined {
  let best: PricingMatch | undefined;
  const consider = (table: PricingTable): void => {
    for (const [prefix, pricing] of Object.entries(table)) {
      const key = prefix.toLowerCase();
      if (key !== '' && name.startsWith(key) && (best === undefined || key.length > best.prefix.length)) {
        best = { prefix: key, pricing };
      }
    }
  };
  consider(overrides);
  consider(defaultPricingTable);
  return best;
}

/** Cost of one attempt in micro-dollars: the server's figure when it gave one, else the table's. */
export function costUsdMicros(model: string, usage: TokenUsage | null, overrides: PricingTable = {}): CostEstimate {
  if (usage === null) return { costUsdMicros: 0, priced: false, source: 'unpriced' };
  if (usage.serverCostUsdMicros !== undefined) {
    return { costUsdMicros: Math.max(0, Math.round(usage.serverCostUsdMicros)), priced: true, source: 'server' };
  }
  const match = findPricing(model, overrides);
  if (match === undefined) return { costUsdMicros: 0, priced: false, source: 'unpriced' };
  return {
    costUsdMicros: tableCostUsdMicros(match.pricing, usage),
    priced: true,
    source: 'table',
    matchedPrefix: match.prefix,
  };
}

/** What a cache read and a cache write cost beside an uncached input token, when a price does not say. */
const CACHE_READ_SHARE = 0.1;
const CACHE_WRITE_SHARE = 1.25;

/** Tokens times dollars per million tokens is micro-dollars. */
function tableCostUsdMicros(pricing: ModelPricing, usage: TokenUsage): number {
  const inputTokens = Math.max(0, usage.inputTokens);
  const cachedTokens = clamp(usage.cachedInputTokens, inputTokens);
  const cacheWriteTokens = clamp(usage.cacheWriteTokens, inputTokens - cachedTokens);
  const uncachedTokens = inputTokens - cachedTokens - cacheWriteTokens;
  const micros =
    uncachedTokens * pricing.inputUsdPerMTok +
    cachedTokens * (pricing.cachedInputUsdPerMTok ?? pricing.inputUsdPerMTok * CACHE_READ_SHARE) +
    cacheWriteTokens * (pricing.cacheWriteUsdPerMTok ?? pricing.inputUsdPerMTok * CACHE_WRITE_SHARE) +
    Math.max(0, usage.outputTokens) * pricing.outputUsdPerMTok;
  return Math.round(micros);
}

function clamp(tokens: number, ceiling: number): number {
  return Math.min(Math.max(0, tokens), ceiling);
}
