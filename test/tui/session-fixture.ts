/** A prepared session for the screen tests: realistic entries, a branch, usage rows with a retry. */
import { seededRandom, type Clock } from '../../src/core/clock';
import { nodeFileOps, type FileOps } from '../../src/core/storage/file-ops';
import { AppendBatch, checkout } from '../../src/core/session/cursor';
import type { UsageRow } from '../../src/core/usage/usage-row';
import { SessionStore } from '../../src/core/storage/session-store';
import type { EntryPayloads, EntryType } from '../../src/core/tree/entry-types';
import { tempDirForTest } from '../support/after-the-test';

export function fixedClock(startMs = 1_764_460_000_000): Clock {
  let now = startMs;
  return {
    nowMs: () => (now += 1),
    nowNs: () => BigInt(now) * 1_000_000n,
  };
}

/** fsync skipped: for building very large sessions fast (durability is not what these tests check). */
export const fastOps: FileOps = { ...nodeFileOps, fdatasyncSync: () => {}, fsyncSync: () => {} };

/** A new session in a temp directory removed when the test ends. */
export function emptyStore(ops?: FileOps): SessionStore {
  return storeIn(tempDirForTest('tole-tui-'), ops);
}

/** A new session in `dir`, for a session the tests of a file share (the file removes `dir` after them all). */
export function storeIn(dir: string, ops?: FileOps): SessionStore {
  return SessionStore.create(dir, {
    clock: fixedClock(),
    random: seededRandom(7),
    cwd: '/work/project',
    ...(ops ? { ops } : {}),
  });
}

/** Appends one entry under the head (moving the lane leaf and the head), committed on its own. */
export function append<T extends EntryType>(store: SessionStore, type: T, payload: EntryPayloads[T]): string {
  const batch = new AppendBatch(store);
  const id = batch.entry(type, payload);
  store.commit(batch.build());
  return id;
}

export function usageRow(store: SessionStore, entryId: string, row: Partial<UsageRow>): void {
  const usage: UsageRow = {
    model: 'gpt-4.1',
    attempt: 1,
    outcome: 'ok',
    inputTokens: 12_400,
    outputTokens: 812,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    costUsdMicros: 31_300,
    priced: true,
    latencyMs: 1800,
    lane: 'main',
    ...row,
  };
  store.commit([{ kind: 'usage', id: store.newUsageId(), entryId, usage }]);
}

export const DIFF = [
  '--- a/src/storage/jsonl.ts',
  '+++ b/src/storage/jsonl.ts',
  '@@ -10,3 +10,3 @@',
  '   append(record) {',
  '-    const seq = this.seq',
  '+    const seq = this.state.seq',
  '   }',
].join('\n');

export interface Fixture {
  readonly store: SessionStore;
  readonly ids: Record<
    | 'prompt'
    | 'look'
    | 'readIntent'
    | 'readResult'
    | 'race'
    | 'editIntent'
    | 'editApproval'
    | 'editResult'
    | 'fixed'
    | 'lockPrompt'
    | 'lockAnswer',
    string
  >;
}

/**
 * main:     you "fix the flaky test" → tole (read_file) → intent → result → tole (edit_file) →
 *           intent → approval → result (diff) → tole "Fixed"
 * branch-2: from the read_file result: you "try a lock file instead" → tole "A lock file…"
 */
export function prepareSession(): Fixture {
  const store = emptyStore();
  const prompt = append(store, 'user', { text: 'fix the flaky test in storage' });
  usageRow(store, prompt, {
    outcome: 'rate_limit',
    inputTokens: 0,
    outputTokens: 0,
    costUsdMicros: 0,
    error: '429 Too Many Requests',
    retryInMs: 2000,
  });
  usageRow(store, prompt, { attempt: 2 });
  const look = append(store, 'assistant', {
    text: "I'll look at the test first.",
    toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"src/storage/jsonl.ts"}' }],
    model: 'gpt-4.1',
    finishReason: 'tool_calls',
  });
  const readIntent = append(store, 'tool_intent', {
    callId: 'call_1',
    tool: 'read_file',
    input: { path: 'src/storage/jsonl.ts' },
    subject: 'src/storage/jsonl.ts',
    risk: 'ReadOnly',
    reason: 'reads a file',
    replay: 'idempotent',
    approval: { approved: true, by: 'policy' },
  });
  const readResult = append(store, 'tool_result', {
    callId: 'call_1',
    tool: 'read_file',
    outcome: 'ok',
    content: 'export class JsonlStorage {\n'.repeat(150),
    tier: 'warm',
    durationMs: 4,
  });
  usageRow(store, readResult, { model: 'o4-mini', inputTokens: 20_000, outputTokens: 1_500, costUsdMicros: 28_600 });
  const race = append(store, 'assistant', {
    text: 'The race is between the replay and the first append:\n```ts\nif (seq !== expected) return casConflict(seq)\n```\nI will make the append read the **replayed** seq.',
    toolCalls: [{ id: 'call_2', name: 'edit_file', arguments: '{}' }],
    model: 'o4-mini',
    finishReason: 'tool_calls',
  });
  const editIntent = append(store, 'tool_intent', {
    callId: 'call_2',
    tool: 'edit_file',
    input: { path: 'src/storage/jsonl.ts', old: 'this.seq', new: 'this.state.seq' },
    subject: 'src/storage/jsonl.ts',
    risk: 'Write',
    reason: 'edits a file',
    replay: 'guarded',
    approval: null,
  });
  const editApproval = append(store, 'approval', { callId: 'call_2', decision: { approved: true, by: 'user' } });
  const editResult = append(store, 'tool_result', {
    callId: 'call_2',
    tool: 'edit_file',
    outcome: 'ok',
    content: 'edited src/storage/jsonl.ts',
    display: { kind: 'diff', path: 'src/storage/jsonl.ts', diff: DIFF },
    tier: 'hot',
    durationMs: 12,
  });
  const fixed = append(store, 'assistant', {
    text: 'Fixed: the test passes now.',
    toolCalls: [],
    model: 'o4-mini',
    finishReason: 'stop',
  });
  checkout(store, readResult);
  const lockPrompt = append(store, 'user', { text: 'try a lock file instead' });
  const lockAnswer = append(store, 'assistant', {
    text: 'A lock file would serialise the writers.',
    toolCalls: [],
    model: 'gpt-4.1',
    finishReason: 'stop',
  });
  usageRow(store, lockPrompt, { lane: 'branch-2', inputTokens: 30_000, outputTokens: 400, costUsdMicros: 63_200 });
  return {
    store,
    ids: {
      prompt,
      look,
      readIntent,
      readResult,
      race,
      editIntent,
      editApproval,
      editResult,
      fixed,
      lockPrompt,
      lockAnswer,
    },
  };
}
