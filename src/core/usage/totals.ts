import type { UsageRow } from './usage-row';
import type { UsageRecord } from '../storage/records';

/** What a set of provider attempts used and cost. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  /** Of the input: read from the provider's prompt cache. */
  cachedInputTokens: number;
  /** Of the input: written to the provider's prompt cache. */
  cacheWriteTokens: number;
  costUsdMicros: number;
  attempts: number;
  /** Some attempt that used tokens had no price (unknown or local model): the cost is a lower bound. */
  unpriced: boolean;
  /** Some attempt was cut off mid-stream: its tokens and cost are tole's estimate (`~`). */
  estimated: boolean;
}

export function emptyTotals(): UsageTotals {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    costUsdMicros: 0,
    attempts: 0,
    unpriced: false,
    estimated: false,
  };
}

export function addRow(totals: UsageTotals, row: UsageRow): UsageTotals {
  totals.inputTokens += row.inputTokens;
  totals.outputTokens += row.outputTokens;
  // Rows of an older tole may lack the cache figures.
  totals.cachedInputTokens += row.cachedInputTokens ?? 0;
  totals.cacheWriteTokens += row.cacheWriteTokens ?? 0;
  totals.costUsdMicros += row.costUsdMicros;
  totals.attempts += 1;
  if (!row.priced && row.inputTokens + row.outputTokens > 0) totals.unpriced = true;
  if (row.estimated) totals.estimated = true;
  return totals;
}

/** Totals over ledger rows, optionally only those whose entry passes `include`. */
export function totalsOf(rows: readonly UsageRecord[], include?: (entryId: string | null) => boolean): UsageTotals {
  const totals = emptyTotals();
  for (const record of rows) {
    if (include && !include(record.entryId)) continue;
    addRow(totals, record.usage as UsageRow);
  }
  return totals;
}
