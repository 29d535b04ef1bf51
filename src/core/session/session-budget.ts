import type { SessionStore } from '../storage/session-store';
import type { UsageRecord } from '../storage/records';
import { formatUsd } from '../usage/cost-text';
import type { UsageRow } from '../usage/usage-row';

/**
 * The session's budget (`limits.maxSessionCostUsd`): what its model calls cost, its sub-agents'
 * included, counted from the usage rows of every store shown to it (the parent's, each child's),
 * each row once however often its store is shown. Before every model call of the parent or of a
 * child, a budget that is reached stops the turn.
 *
 * A call without a known price (a model the price table does not list) cannot be counted: it is
 * not taken as free, nor does it stop the session; the stop reason and `unpriced` say how many
 * calls the sum leaves out.
 */
export class SessionBudget {
  /** `session row` -> its cost in micro-dollars, or null when it has no known price. */
  private readonly rows = new Map<string, number | null>();
  private spentMicros = 0;
  private unpricedCalls = 0;

  constructor(readonly maxUsd: number) {}

  /** Counts the store's rows, and each row it commits while shown; returns the stop of the latter. */
  watch(store: SessionStore): () => void {
    this.count(store);
    const id = store.header.id;
    return store.onCommit((records) => {
      for (const record of records) if (record.kind === 'usage') this.add(id, record);
    });
  }

  /** Counts the rows a store holds now (a child's file read once, at start). */
  count(store: SessionStore): void {
    for (const row of store.usage) this.add(store.header.id, row);
  }

  get spentUsd(): number {
    return this.spentMicros / 1e6;
  }

  /** Model calls counted with no known price. */
  get unpriced(): number {
    return this.unpricedCalls;
  }

  /** Why no further model call may be made, or null while the budget is not reached. */
  stopReason(): string | null {
    if (this.spentMicros < this.maxUsd * 1e6) return null;
    const unknown =
      this.unpricedCalls === 0
        ? ''
        : `; ${this.unpricedCalls} call${this.unpricedCalls === 1 ? '' : 's'} with no known price ${this.unpricedCalls === 1 ? 'is' : 'are'} not counted`;
    return `stopped: this session has cost ${formatUsd(this.spentMicros)} with its sub-agents, reaching its budget of ${formatUsd(Math.round(this.maxUsd * 1e6))} (limits.maxSessionCostUsd)${unknown}. Raise limits.maxSessionCostUsd in your own config (a project's config can only lower it), then send another prompt`;
  }

  private add(sessionId: string, record: UsageRecord): void {
    const key = `${sessionId} ${record.id}`;
    if (this.rows.has(key)) return;
    const row = record.usage as Partial<UsageRow>;
    const priced = row.priced === true && typeof row.costUsdMicros === 'number';
    this.rows.set(key, priced ? row.costUsdMicros! : null);
    if (priced) this.spentMicros += row.costUsdMicros!;
    // An attempt that used no tokens (a refused connection, a 503) cost nothing, priced or not.
    else if ((row.inputTokens ?? 0) + (row.outputTokens ?? 0) > 0) this.unpricedCalls++;
  }
}
