/**
 * A model call cut off mid-stream (Esc, a dropped stream) was billed for its prompt and for what
 * it streamed, though the server never sent its count: its ledger row keeps tole's estimate of
 * both, marked `estimated`, priced like any other, and every total over it says so (`~`).
 */
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session/events';
import { exportJson } from '../../../src/core/session/export';
import { summariseSession } from '../../../src/core/session/session-summary';
import { systemClock } from '../../../src/core/clock';
import { costUsdMicros } from '../../../src/core/usage/pricing';
import { formatCost } from '../../../src/core/usage/cost-text';
import { totalsOf } from '../../../src/core/usage/totals';
import { entriesOfType, ledger } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({ dirsPrefix: 'tole-cut-usage-' });

function agentHere(model = 'gpt-4o') {
  return scripted.agent({ model });
}

/** Aborts the turn once `chars` characters of text have streamed. */
function abortAfter(chars: number): { controller: AbortController; emit: (event: SessionEvent) => void } {
  const controller = new AbortController();
  let streamed = 0;
  const emit = (event: SessionEvent): void => {
    if (event.type !== 'text') return;
    streamed += event.delta.length;
    if (streamed >= chars) controller.abort();
  };
  return { controller, emit };
}

describe('a call cut off mid-stream', () => {
  it('Esc: the row keeps the estimated prompt and streamed tokens, priced, and the totals say ~', async () => {
    scripted.server.push({ text: Array.from({ length: 200 }, (_, i) => `word${i} `), delayMs: 20 });
    const { agent, store } = agentHere();
    const { controller, emit } = abortAfter(40);

    const result = await agent.runTurn('talk for a while', controller.signal, emit);

    expect(result.outcome).toBe('aborted');
    const kept = entriesOfType(store, 'assistant')[0]!.payload.text;
    const [row] = ledger(store);
    expect(row).toMatchObject({ outcome: 'aborted', estimated: true, priced: true });
    expect(row!.outputTokens).toBe(Math.ceil(kept.length / 4));
    // The prompt: the system prompt, the user's words and the tool definitions, four characters a token.
    expect(row!.inputTokens).toBeGreaterThan(Math.ceil('You are tole, under test.talk for a while'.length / 4));
    const usage = {
      inputTokens: row!.inputTokens,
      outputTokens: row!.outputTokens,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    };
    expect(row!.costUsdMicros).toBe(costUsdMicros('gpt-4o', usage).costUsdMicros);
    expect(row!.costUsdMicros).toBeGreaterThan(0);

    const totals = totalsOf(store.usage);
    expect(totals.estimated).toBe(true);
    expect(formatCost(totals.costUsdMicros, totals.unpriced, totals.estimated)).toMatch(/^~\$0\.\d+$/);
    // The export's ledger keeps the mark.
    const exported = JSON.parse(exportJson(store)) as { usage: { usage: { estimated?: boolean } }[] };
    expect(exported.usage.map((r) => r.usage.estimated)).toEqual([true]);
    store.close();
    // tole sessions, the picker and /sessions list it as an estimate.
    const listed = summariseSession({ path: store.path, header: store.header }, systemClock);
    expect(listed).toMatchObject({ estimated: true, costUsdMicros: totals.costUsdMicros });
  });

  it('an unpriced model: the tokens are estimated and the cost stays unknown (+?), not $0', async () => {
    scripted.server.push({ text: Array.from({ length: 200 }, (_, i) => `word${i} `), delayMs: 20 });
    const { agent, store } = agentHere('local-model');
    const { controller, emit } = abortAfter(20);

    await agent.runTurn('talk', controller.signal, emit);

    const [row] = ledger(store);
    expect(row).toMatchObject({ outcome: 'aborted', estimated: true, priced: false, costUsdMicros: 0 });
    expect(row!.outputTokens).toBeGreaterThan(0);
    const totals = totalsOf(store.usage);
    expect(formatCost(totals.costUsdMicros, totals.unpriced, totals.estimated)).toBe('~$0+?');
    store.close();
  });

  it('a stream dropped after some text: the failed attempt is estimated, the answer that follows is counted by the server', async () => {
    scripted.server.push(
      { text: ['one ', 'two ', 'three ', 'four '], dropAfterChunks: 3 },
      { text: 'whole answer', usage: { prompt_tokens: 50, completion_tokens: 3 } },
    );
    const { agent, store } = agentHere();

    const result = await agent.runTurn('answer', new AbortController().signal, () => {});

    expect(result.outcome).toBe('done');
    const rows = ledger(store);
    expect(rows.map((r) => [r.outcome, r.estimated ?? false])).toEqual([
      ['stream_dropped', true],
      ['ok', false],
    ]);
    expect(rows[0]!.outputTokens).toBeGreaterThan(0);
    expect(rows[1]).toMatchObject({ inputTokens: 50, outputTokens: 3 });
    store.close();
  });

  it('aborted before any token streamed: nothing shows it was billed, so nothing is estimated', async () => {
    scripted.server.push({ text: 'late', stallAfterChunks: 0 });
    const { agent, store } = agentHere();
    const controller = new AbortController();
    const emit = (event: SessionEvent): void => {
      if (event.type === 'stream-open') controller.abort();
    };

    await agent.runTurn('wait', controller.signal, emit);

    expect(ledger(store).map((r) => [r.outcome, r.inputTokens, r.outputTokens, r.estimated ?? false])).toEqual([
      ['aborted', 0, 0, false],
    ]);
    store.close();
  });
});
