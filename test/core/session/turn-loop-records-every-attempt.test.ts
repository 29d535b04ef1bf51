import { seededRandom, systemClock } from '../../../src/core/clock';
import { StorageError } from '../../../src/core/storage/errors';
import type { DraftRecord } from '../../../src/core/storage/records';
import { SessionStore } from '../../../src/core/storage/session-store';
import { describe, expect, it } from 'vitest';
import type { Sleep } from '../../../src/core/provider/retry';
import type { ScriptedReply } from '../../support/chat-server';
import { chatRequests, entriesOfType, eventLog, ledger } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

const apiError = (
  status: number,
  message: string,
  code: string | null = null,
  headers?: Record<string, string>,
): ScriptedReply => ({
  error: {
    status,
    body: { error: { message, type: 'invalid_request_error', param: null, code } },
    ...(headers ? { headers } : {}),
  },
});

interface Case {
  readonly name: string;
  readonly replies: readonly ScriptedReply[];
  /** Outcomes of the ledger rows, one per attempt, in order. */
  readonly outcomes: readonly string[];
  readonly turn: 'done' | 'error';
}

const CASES: readonly Case[] = [
  {
    name: '429 with Retry-After, then ok',
    replies: [apiError(429, 'Rate limit reached', 'rate_limit_exceeded', { 'retry-after': '2' }), { text: 'fine' }],
    outcomes: ['rate_limit', 'ok'],
    turn: 'done',
  },
  {
    name: '500, then ok',
    replies: [apiError(500, 'upstream exploded'), { text: 'fine' }],
    outcomes: ['transient', 'ok'],
    turn: 'done',
  },
  {
    name: 'a dropped stream, then ok',
    replies: [{ text: ['partial ', 'answer ', 'lost'], dropAfterChunks: 2 }, { text: 'fine' }],
    outcomes: ['stream_dropped', 'ok'],
    turn: 'done',
  },
  {
    name: 'context overflow',
    replies: [
      apiError(
        400,
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
        'context_length_exceeded',
      ),
    ],
    outcomes: ['context_overflow'],
    turn: 'error',
  },
  {
    name: 'tools unsupported',
    replies: [apiError(400, 'this model does not support tools')],
    outcomes: ['tool_unsupported'],
    turn: 'error',
  },
  {
    name: '401',
    replies: [apiError(401, 'Incorrect API key provided', 'invalid_api_key')],
    outcomes: ['auth'],
    turn: 'error',
  },
  {
    name: '404',
    replies: [apiError(404, 'The model `nope` does not exist', 'model_not_found')],
    outcomes: ['not_found'],
    turn: 'error',
  },
];

describe('every provider attempt writes exactly one usage ledger row', () => {
  for (const c of CASES) {
    it(`${c.name}: one row per attempt with its outcome`, async () => {
      // After the scripted replies the server answers; a turn that retries past them still ends.
      scripted.server.push(...c.replies);
      const waitsMs: number[] = [];
      const sleep: Sleep = async (ms) => {
        waitsMs.push(ms);
      };
      const { agent, store } = scripted.agent({ sleep });
      const log = eventLog();

      const result = await agent.runTurn('hello', new AbortController().signal, log.emit);

      const rows = ledger(store);
      expect(rows).toHaveLength(chatRequests(scripted.server).length);
      expect(rows.map((row) => row.outcome).slice(0, c.outcomes.length)).toEqual(c.outcomes);
      expect(rows.map((row) => row.attempt).slice(0, c.outcomes.length)).toEqual(c.outcomes.map((_, i) => i + 1));
      for (const row of rows) {
        expect(row.model).toBe('tole-test-model');
        expect(row.latencyMs).toBeGreaterThanOrEqual(0);
        if (row.outcome !== 'ok') expect(row.error).toBeTruthy();
      }
      expect(log.events.filter((e) => e.type === 'usage')).toHaveLength(rows.length);
      if (c.turn === 'done') {
        expect(result).toEqual({ outcome: 'done', text: 'fine' });
        expect(entriesOfType(store, 'assistant').map((e) => e.payload.text)).toEqual(['fine']);
      } else if (c.name !== 'context overflow') {
        // Context overflow may be compacted and retried; every other failure ends the turn.
        expect(result.outcome).toBe('error');
        expect(result.text).not.toContain('\n');
        expect(entriesOfType(store, 'notice').at(-1)?.payload).toMatchObject({ level: 'error', source: 'provider' });
      }
      if (c.outcomes[0] === 'rate_limit') {
        expect(waitsMs[0]).toBe(2000);
        expect(rows[0]!.retryInMs).toBe(2000);
      }
      store.close();
    });
  }

  it('keeps one row per attempt when every attempt fails', async () => {
    scripted.server.push(...Array.from({ length: 3 }, () => apiError(503, 'overloaded')));
    const { agent, store } = scripted.agent({ maxAttempts: 3 });

    const result = await agent.runTurn('hello', new AbortController().signal, () => {});

    expect(result.outcome).toBe('error');
    expect(ledger(store).map((row) => [row.attempt, row.outcome])).toEqual([
      [1, 'transient'],
      [2, 'transient'],
      [3, 'transient'],
    ]);
    expect(chatRequests(scripted.server).length).toBe(3);
    store.close();
  });
});

describe('the answering attempt and its answer are one commit', () => {
  it("writes the answering attempt's row in the answer's line, a failed attempt's row at once, and reopens both", async () => {
    scripted.server.push(apiError(500, 'upstream exploded'), { text: ['fine ', 'then'] });
    const { agent, store } = scripted.agent();
    const commits: string[][] = [];
    store.onCommit((records) => commits.push(records.map((r) => (r.kind === 'entry' ? `entry:${r.type}` : r.kind))));
    const log = eventLog();

    await agent.runTurn('hello', new AbortController().signal, log.emit);

    const withAnswer = commits.filter((kinds) => kinds.includes('entry:assistant'));
    expect(withAnswer).toHaveLength(1);
    expect(withAnswer[0]!.slice(0, 2)).toEqual(['usage', 'entry:assistant']);
    // The failed attempt's row was written alone, before the retry; no other line holds a row alone.
    expect(commits.filter((kinds) => kinds.length === 1 && kinds[0] === 'usage')).toHaveLength(1);
    // Its row is announced before the state the answer moved to, as when it was a commit of its own.
    const order = log.events.map((e) => e.type).filter((type) => type === 'usage' || type === 'state');
    expect(order.slice(-2)).toEqual(['usage', 'state']);
    const path = store.path;
    store.close();
    const reopened = SessionStore.open(path, { clock: systemClock, random: seededRandom(1), readOnly: true });
    expect(ledger(reopened).map((row) => row.outcome)).toEqual(['transient', 'ok']);
    expect(reopened.usage.at(-1)?.entryId).toBe(entriesOfType(reopened, 'user')[0]!.id);
    reopened.close();
  });
});

describe('the answering attempt whose answer is not written', () => {
  it('keeps its row on a line of its own, and the failure still goes up', async () => {
    scripted.server.push({ text: ['an answer ', 'the disk refuses'] });
    const { agent, store } = scripted.agent();
    const commit = store.commit.bind(store);
    const refuseTheAnswer = (records: readonly DraftRecord[]) => {
      if (records.some((r) => r.kind === 'entry' && r.type === 'assistant')) {
        throw new StorageError('not-committed', 'not committed: ENOSPC: no space left on device, write');
      }
      return commit(records);
    };
    Object.assign(store, { commit: refuseTheAnswer });
    const log = eventLog();

    await expect(agent.runTurn('hello', new AbortController().signal, log.emit)).rejects.toThrow(/ENOSPC/);
    expect(log.events.filter((e) => e.type === 'usage')).toHaveLength(1);
    const path = store.path;
    store.close();
    const reopened = SessionStore.open(path, { clock: systemClock, random: seededRandom(1), readOnly: true });
    expect(ledger(reopened).map((row) => row.outcome)).toEqual(['ok']);
    expect(entriesOfType(reopened, 'assistant')).toHaveLength(0);
    reopened.close();
  });
});

describe('ledger rows carry what the attempt cost', () => {
  const usage = {
    prompt_tokens: 1000,
    completion_tokens: 500,
    total_tokens: 1500,
    prompt_tokens_details: { cached_tokens: 400 },
  };

  it('prices a known model prefix from the pricing table, cached input discounted', async () => {
    scripted.server.push({ text: 'priced', usage });
    const { agent, store } = scripted.agent({ model: 'gpt-4o-mini-2024-07-18' });

    await agent.runTurn('hello', new AbortController().signal, () => {});

    // gpt-4o-mini: $0.15 input, $0.075 cached input, $0.60 output per million tokens.
    expect(ledger(store)).toEqual([
      expect.objectContaining({
        outcome: 'ok',
        inputTokens: 1000,
        cachedInputTokens: 400,
        outputTokens: 500,
        costUsdMicros: 600 * 0.15 + 400 * 0.075 + 500 * 0.6,
        priced: true,
      }),
    ]);
    store.close();
  });

  it('costs 0 for an unknown model', async () => {
    scripted.server.push({ text: 'free', usage });
    const { agent, store } = scripted.agent({ model: 'my-local-llama' });

    await agent.runTurn('hello', new AbortController().signal, () => {});

    expect(ledger(store)).toEqual([expect.objectContaining({ outcome: 'ok', costUsdMicros: 0, priced: false })]);
    store.close();
  });

  it("uses the server's reported cost over the table", async () => {
    scripted.server.push({ text: 'reported', usage: { ...usage, cost: 0.0042 } });
    const { agent, store } = scripted.agent({ model: 'gpt-4o-mini' });

    await agent.runTurn('hello', new AbortController().signal, () => {});

    expect(ledger(store)).toEqual([expect.objectContaining({ outcome: 'ok', costUsdMicros: 4200, priced: true })]);
    store.close();
  });

  it('records a failed attempt at cost 0 beside the priced one that followed', async () => {
    scripted.server.push(apiError(500, 'boom'), { text: 'priced', usage });
    const { agent, store } = scripted.agent({ model: 'gpt-4o-mini' });

    await agent.runTurn('hello', new AbortController().signal, () => {});

    expect(ledger(store).map((row) => [row.outcome, row.costUsdMicros])).toEqual([
      ['transient', 0],
      ['ok', 420],
    ]);
    store.close();
  });
});
