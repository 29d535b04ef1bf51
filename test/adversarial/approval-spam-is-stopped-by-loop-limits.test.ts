/**
 * A model that asks for the same denied call over and over: the loop's limits nudge it after 5
 * failing rounds and stop the turn after 10, however many more times the model would ask.
 */
import { describe, expect, it } from 'vitest';
import type { Approver } from '../../src/core/approval/approver';
import { DEFAULT_LIMITS } from '../../src/core/session/limits';
import type { ScriptedReply } from '../support/chat-server';
import { chatRequests, entriesOfType } from '../support/agent-fixtures';
import { scriptedAgentPerTest } from '../support/scripted-agent';

const SPAM = 50;

const scripted = scriptedAgentPerTest({
  server: { defaultReply: { text: 'the spam ran out' } },
  dirsPrefix: 'tole-spam-',
});

function spam(callFor: (i: number) => ScriptedReply['toolCalls']): void {
  for (let i = 0; i < SPAM; i++) scripted.server.push({ toolCalls: callFor(i) });
}

/** `[tole] ...` notices the model was sent, per request. */
function nudgesPerRequest(): number[] {
  return chatRequests(scripted.server).map(
    (r) => (r.body?.messages ?? []).filter((m) => m.role === 'user' && String(m.content).startsWith('[tole] ')).length,
  );
}

describe('approval spam', () => {
  it('headless: the same denied write 50 times is nudged after 5 rounds and stopped after 10', async () => {
    spam((i) => [{ id: `call_${i}`, name: 'write_file', arguments: '{"path":"evil.txt","content":"x"}' }]);
    const { agent, store } = scripted.agent();

    const result = await agent.runTurn('do it', new AbortController().signal, () => {});

    expect(result.outcome).toBe('limit');
    expect(chatRequests(scripted.server)).toHaveLength(DEFAULT_LIMITS.abortAfterFailingRounds);
    const denied = entriesOfType(store, 'tool_result');
    expect(denied).toHaveLength(DEFAULT_LIMITS.abortAfterFailingRounds);
    expect(new Set(denied.map((e) => e.payload.outcome))).toEqual(new Set(['denied']));
    // Requests 1-5 carry no nudge; from the 6th on the model has been told to stop.
    const nudges = nudgesPerRequest();
    expect(nudges.slice(0, DEFAULT_LIMITS.nudgeAfterFailingRounds)).toEqual([0, 0, 0, 0, 0]);
    expect(nudges[DEFAULT_LIMITS.nudgeAfterFailingRounds]).toBeGreaterThanOrEqual(1);
    expect(entriesOfType(store, 'notice').at(-1)?.payload.text).toMatch(/stopped/);
    store.close();
  });

  it('interactive: a user who denies the call is asked once, and the repeats stop after 10 rounds', async () => {
    spam((i) => [{ id: `call_${i}`, name: 'bash', arguments: '{"command":"rm -rf /tmp/nothing-here"}' }]);
    let asked = 0;
    const approver: Approver = {
      decide: async () => {
        asked++;
        return { approved: false, by: 'user', reason: 'no' };
      },
    };
    const { agent, store } = scripted.agent({ approver });

    const result = await agent.runTurn('do it', new AbortController().signal, () => {});

    expect(result.outcome).toBe('limit');
    expect(asked).toBe(1);
    expect(chatRequests(scripted.server)).toHaveLength(DEFAULT_LIMITS.abortAfterFailingRounds);
    store.close();
  });

  it('interactive: a call the user denied is not asked again in the same turn, even between successful calls', async () => {
    // Each round pairs the denied call with a harmless read whose path changes: no round fails
    // as a whole and no two rounds are the same, so only max steps ends the turn.
    spam((i) => [
      { id: `call_rm_${i}`, name: 'bash', arguments: '{"command":"rm -rf build"}' },
      { id: `call_ls_${i}`, name: 'list_dir', arguments: JSON.stringify({ path: `.${'/.'.repeat(i)}` }) },
    ]);
    let asked = 0;
    const approver: Approver = {
      decide: async () => {
        asked++;
        return { approved: false, by: 'user', reason: 'no' };
      },
    };
    const { agent, store } = scripted.agent({ approver, limits: { maxSteps: 20 } });

    const result = await agent.runTurn('do it', new AbortController().signal, () => {});

    expect(result.outcome).toBe('limit');
    expect(asked).toBe(1);
    expect(chatRequests(scripted.server)).toHaveLength(20);
    const repeats = entriesOfType(store, 'tool_result').filter((e) => e.payload.callId.startsWith('call_rm_'));
    expect(repeats.map((e) => e.payload.outcome)).toEqual(Array(20).fill('denied'));
    expect(repeats[1]!.payload.content).toMatch(/already denied/);
    expect(entriesOfType(store, 'tool_intent').filter((e) => e.payload.tool === 'bash')).toHaveLength(1);
    store.close();
  });

  it('varied denied calls (no stall) are still stopped by the failing-round limit', async () => {
    spam((i) => [
      { id: `call_${i}`, name: 'write_file', arguments: JSON.stringify({ path: `evil-${i}.txt`, content: 'x' }) },
    ]);
    const { agent, store } = scripted.agent();

    const result = await agent.runTurn('do it', new AbortController().signal, () => {});

    expect(result.outcome).toBe('limit');
    expect(chatRequests(scripted.server).length).toBeLessThanOrEqual(DEFAULT_LIMITS.abortAfterFailingRounds);
    store.close();
  });

  it('the max-steps limit stops a model that keeps calling tools that succeed', async () => {
    spam((i) => [{ id: `call_${i}`, name: 'list_dir', arguments: JSON.stringify({ path: i % 2 === 0 ? '.' : './' }) }]);
    const { agent, store } = scripted.agent({ limits: { maxSteps: 7, stallRounds: 100 } });

    const result = await agent.runTurn('look around', new AbortController().signal, () => {});

    expect(result.outcome).toBe('limit');
    expect(chatRequests(scripted.server)).toHaveLength(7);
    store.close();
  });
});
