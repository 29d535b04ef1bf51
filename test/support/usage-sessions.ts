/** Sessions made for what tole says of their cost: one prompt and one model call's usage row each. */
import { seededRandom, systemClock } from '../../src/core/clock';
import { AppendBatch } from '../../src/core/session/cursor';
import { SessionStore } from '../../src/core/storage/session-store';
import type { UsageRow } from '../../src/core/usage/usage-row';

/** A successful call of `model` on the main lane (1,200 tokens in, 300 out) that cost `costUsdMicros`. */
export function callUsage(model: string, costUsdMicros: number, priced: boolean): UsageRow {
  return {
    model,
    attempt: 1,
    outcome: 'ok',
    inputTokens: 1200,
    outputTokens: 300,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    costUsdMicros,
    priced,
    latencyMs: 10,
    lane: 'main',
  };
}

/** A new session in `dir` (opened from `cwd`) holding the user's `prompt` and `usage` on it. */
export function sessionWithUsage(dir: string, cwd: string, seed: number, prompt: string, usage: UsageRow): void {
  const store = SessionStore.create(dir, { clock: systemClock, random: seededRandom(seed), cwd });
  const batch = new AppendBatch(store);
  const id = batch.entry('user', { text: prompt });
  store.commit(batch.build());
  store.commit([{ kind: 'usage', id: store.newUsageId(), entryId: id, usage }]);
  store.close();
}
