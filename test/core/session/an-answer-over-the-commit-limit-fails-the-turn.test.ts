import { describe, expect, it } from 'vitest';
import { machineState } from '../../../src/core/machine/machine';
import { MAX_COMMIT_BYTES } from '../../../src/core/storage/session-store';
import { entriesOfType, eventLog, ledger } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

describe('an answer larger than the largest commit', () => {
  it('settles the turn as failed with a notice, and the session goes on and reopens without "tole stopped"', async () => {
    const chunk = 'x'.repeat(1024 * 1024);
    scripted.server.push(
      { text: Array.from({ length: MAX_COMMIT_BYTES / chunk.length + 1 }, () => chunk) },
      { text: 'a short answer' },
    );
    const { agent, store } = scripted.agent();
    const log = eventLog();

    const result = await agent.runTurn('write me 17 MB', new AbortController().signal, log.emit);

    expect(result.outcome).toBe('error');
    expect(result.text).toContain("the model's answer is too large to store");
    expect(result.text).toContain(`over the limit of ${MAX_COMMIT_BYTES}`);
    expect(machineState(store).pc).toBe('Final');
    expect(entriesOfType(store, 'assistant')).toEqual([]);
    expect(entriesOfType(store, 'notice').map((entry) => entry.payload.text)).toEqual([result.text]);
    expect(log.events.filter((event) => event.type === 'turn-ended')).toEqual([
      { type: 'turn-ended', outcome: 'error', text: result.text },
    ]);

    const next = await agent.runTurn('shorter, please', new AbortController().signal, () => {});
    expect(next).toEqual({ outcome: 'done', text: 'a short answer' });
    const path = store.path;
    store.close();

    const reopened = scripted.agent({
      sessionPath: path,
    });
    expect(await reopened.agent.resume(new AbortController().signal, () => {})).toBe(0);
    expect(entriesOfType(reopened.store, 'notice').filter((entry) => entry.payload.source === 'resume')).toEqual([]);
    // Both attempts answered and were paid for: the one whose answer was not kept has its row too.
    expect(ledger(reopened.store).map((row) => row.outcome)).toEqual(['ok', 'ok']);
    reopened.store.close();
  }, 60_000);
});
