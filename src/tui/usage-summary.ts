import type { UsageRow } from '../core/session/agent-deps';
import type { UsageRecord } from '../core/storage/records';
import type { AnyEntry } from '../core/tree/entry-types';

/** What a set of provider attempts used and cost. */
export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly costUsdMicros: number;
  readonly attempts: number;
  /** Some attempt had no price (unknown or local model): the cost is a lower bound. */
  readonly unpriced: boolean;
}

/** Failed attempts by cause: those retried (with the time waited) and those that ended a call. */
export interface RetryTotals {
  readonly retried: ReadonlyMap<string, number>;
  readonly failed: ReadonlyMap<string, number>;
  readonly waitedMs: number;
  readonly lastError: string | null;
}

export interface UsageSummary {
  readonly turn: UsageTotals;
  readonly branch: UsageTotals;
  readonly session: UsageTotals;
  readonly perModel: readonly { readonly model: string; readonly totals: UsageTotals }[];
  readonly retries: RetryTotals;
}

class TotalsBuilder {
  inputTokens = 0;
  outputTokens = 0;
  cachedInputTokens = 0;
  costUsdMicros = 0;
  attempts = 0;
  unpriced = false;

  add(row: UsageRow): void {
    this.inputTokens += row.inputTokens;
    this.outputTokens += row.outputTokens;
    this.cachedInputTokens += row.cachedInputTokens;
    this.costUsdMicros += row.costUsdMicros;
    this.attempts += 1;
    if (!row.priced && row.inputTokens + row.outputTokens > 0) this.unpriced = true;
  }

  build(): UsageTotals {
    return { ...this };
  }
}

class RetryBuilder {
  readonly retried = new Map<string, number>();
  readonly failed = new Map<string, number>();
  waitedMs = 0;
  lastError: string | null = null;

  add(row: UsageRow): void {
    if (row.outcome === 'ok' || row.outcome === 'aborted') return;
    const into = row.retryInMs === undefined ? this.failed : this.retried;
    into.set(row.outcome, (into.get(row.outcome) ?? 0) + 1);
    this.waitedMs += row.retryInMs ?? 0;
    if (row.error) this.lastError = row.error;
  }

  build(): RetryTotals {
    return { retried: new Map(this.retried), failed: new Map(this.failed), waitedMs: this.waitedMs, lastError: this.lastError };
  }
}

/** The ids of the current turn: the path from its last user prompt on. */
export function turnIds(path: readonly AnyEntry[]): Set<string> {
  let start = path.length;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === 'user') {
      start = i;
      break;
    }
  }
  return new Set(path.slice(start).map((e) => e.id));
}

/**
 * Sums the usage ledger: the whole session, the branch (rows made on the current path), the
 * turn (rows made since the path's last prompt), and per model. O(rows).
 */
export function summarizeUsage(rows: readonly UsageRecord[], branchIds: { has(id: string): boolean }, turn: ReadonlySet<string>): UsageSummary {
  const session = new TotalsBuilder();
  const branch = new TotalsBuilder();
  const turnTotals = new TotalsBuilder();
  const byModel = new Map<string, TotalsBuilder>();
  const retries = new RetryBuilder();
  for (const record of rows) {
    const row = record.usage as UsageRow;
    session.add(row);
    retries.add(row);
    let model = byModel.get(row.model);
    if (!model) byModel.set(row.model, (model = new TotalsBuilder()));
    model.add(row);
    if (record.entryId !== null && branchIds.has(record.entryId)) branch.add(row);
    if (record.entryId !== null && turn.has(record.entryId)) turnTotals.add(row);
  }
  const perModel = [...byModel.entries()]
    .map(([model, totals]) => ({ model, totals: totals.build() }))
    .sort((a, b) => b.totals.costUsdMicros - a.totals.costUsdMicros || b.totals.attempts - a.totals.attempts);
  return {
    turn: turnTotals.build(),
    branch: branch.build(),
    session: session.build(),
    perModel,
    retries: retries.build(),
  };
}
