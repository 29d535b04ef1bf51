import type { AttemptReport } from '../provider/provider';

/** What a usage ledger row holds (the `usage` field of a usage record). */
export interface UsageRow {
  readonly model: string;
  readonly attempt: number;
  readonly outcome: AttemptReport['outcome'];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteTokens: number;
  readonly costUsdMicros: number;
  readonly priced: boolean;
  readonly latencyMs: number;
  readonly lane: string;
  readonly error?: string;
  readonly retryInMs?: number;
  /**
   * The attempt ended mid-stream without the server's count (Esc, a dropped stream): the tokens
   * are tole's estimate of the prompt and of what streamed, and the cost is priced from them.
   */
  readonly estimated?: true;
}
