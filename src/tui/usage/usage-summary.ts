import type { UsageRow } from '../../core/usage/usage-row';
import type { UsageRecord } from '../../core/storage/records';
import type { AnyEntry } from '../../core/tree/entry-types';
import { addRow, emptyTotals, type UsageTotals as CoreUsageTotals } from '../../core/usage/totals';
import type { ChildUsage } from './child-usage';

/** What a set of provider attempts used and cost (summed by core's usage totals). */
export type UsageTotals = Readonly<CoreUsageTotals>;

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
  /** Prompt tokens of the last call made on the branch that reported any: what it sent of the window. */
  readonly lastRequestTokens: number | null;
  /**
   * That call's prompt when it read from or wrote to the provider's prompt cache (the next call
   * likely reads it from there), else 0: the in-flight estimate prices it at the cache rate.
   */
  readonly cachedPrefixTokens: number;
  /** Each sub-agent with its model and cost; its usage is in the turn, branch and session rows too. */
  readonly children: readonly ChildTotals[];
}

interface ChildTotals {
  readonly sessionId: string;
  readonly agent: string | null;
  readonly model: string;
  readonly totals: UsageTotals;
  readonly running: boolean;
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
    return {
      retried: new Map(this.retried),
      failed: new Map(this.failed),
      waitedMs: this.waitedMs,
      lastError: this.lastError,
    };
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
export function summarizeUsage(
  rows: readonly UsageRecord[],
  branchIds: { has(id: string): boolean },
  turn: ReadonlySet<string>,
  children: readonly ChildUsage[] = [],
): UsageSummary {
  const session = emptyTotals();
  const branch = emptyTotals();
  const turnTotals = emptyTotals();
  const byModel = new Map<string, CoreUsageTotals>();
  const retries = new RetryBuilder();
  let lastRequestTokens: number | null = null;
  let cachedPrefixTokens = 0;
  for (const record of rows) {
    const row = record.usage as UsageRow;
    addRow(session, row);
    retries.add(row);
    let model = byModel.get(row.model);
    if (!model) byModel.set(row.model, (model = emptyTotals()));
    addRow(model, row);
    if (record.entryId !== null && branchIds.has(record.entryId)) {
      addRow(branch, row);
      if (row.inputTokens > 0) {
        lastRequestTokens = row.inputTokens;
        cachedPrefixTokens = (row.cachedInputTokens ?? 0) + (row.cacheWriteTokens ?? 0) > 0 ? row.inputTokens : 0;
      }
    }
    if (record.entryId !== null && turn.has(record.entryId)) addRow(turnTotals, row);
  }
  // A sub-agent's usage counts in the session, and in the branch and turn its call is on.
  const childTotals: ChildTotals[] = children.map((child) => {
    const totals = emptyTotals();
    const onBranch = child.intentEntryId !== null && branchIds.has(child.intentEntryId);
    const inTurn = child.intentEntryId !== null && turn.has(child.intentEntryId);
    for (const record of child.rows) {
      const row = record.usage as UsageRow;
      addRow(totals, row);
      addRow(session, row);
      if (onBranch) addRow(branch, row);
      if (inTurn) addRow(turnTotals, row);
    }
    return { sessionId: child.sessionId, agent: child.agent, model: child.model, totals, running: child.running };
  });
  const perModel = [...byModel.entries()]
    .map(([model, totals]) => ({ model, totals }))
    .sort((a, b) => b.totals.costUsdMicros - a.totals.costUsdMicros || b.totals.attempts - a.totals.attempts);
  return {
    turn: turnTotals,
    branch,
    session,
    perModel,
    retries: retries.build(),
    lastRequestTokens,
    cachedPrefixTokens,
    children: childTotals,
  };
}
