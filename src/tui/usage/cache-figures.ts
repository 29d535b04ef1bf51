import { formatTokens } from '../text/format';

/** What of the input the provider's prompt cache served and took. */
interface CacheTotals {
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteTokens: number;
}

/**
 * `in 120k · cached 110k · written 4.0k`: the input with its cache reads (priced at the cache
 * rate) and writes apart; null when the cache played no part.
 */
export function cacheFigures(totals: CacheTotals): string | null {
  if (totals.cachedInputTokens === 0 && totals.cacheWriteTokens === 0) return null;
  const parts = [`in ${formatTokens(totals.inputTokens)}`, `cached ${formatTokens(totals.cachedInputTokens)}`];
  if (totals.cacheWriteTokens > 0) parts.push(`written ${formatTokens(totals.cacheWriteTokens)}`);
  return parts.join(' · ');
}
