/**
 * While a sub-agent runs, the usage pane lists it (`▸`, its profile, model and cost) from its
 * events alone, its cost in the session's row as its usage rows land; when it ends the `▸` goes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session/events';
import type { ChildEvent } from '../../src/core/session/sub-agents';
import type { UsageRecord } from '../../src/core/storage/records';
import type { UsageRow } from '../../src/core/usage/usage-row';
import { eventually, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { append, emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const CHILD_ID = '1764460000123456789-abcdef';

function usage(id: string, costUsdMicros: number): UsageRecord {
  const row: UsageRow = {
    model: 'm2',
    attempt: 0,
    outcome: 'ok',
    inputTokens: 1_000,
    outputTokens: 100,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    costUsdMicros,
    priced: true,
    latencyMs: 5,
    lane: 'main',
  };
  return { kind: 'usage', seq: 1, id, entryId: 'child-entry', usage: row };
}

describe('the usage pane while a sub-agent runs', () => {
  it("lists it with ▸ and its cost as its rows land, in the session's row too, and drops ▸ when it ends", async () => {
    const store = emptyStore();
    append(store, 'user', { text: 'review the storage layer' });
    append(store, 'assistant', {
      text: '',
      toolCalls: [{ id: 'call_t', name: 'task', arguments: '{"prompt":"review jsonl.ts","agent":"reviewer"}' }],
      model: 'gpt-4.1',
      finishReason: 'tool_calls',
    });
    const listeners = new Set<(event: ChildEvent) => void>();
    const source = {
      onChildEvent: (listener: (event: ChildEvent) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const hear = (event: SessionEvent): void => {
      for (const listener of listeners)
        listener({ callId: 'call_t', sessionId: CHILD_ID, agent: 'reviewer', model: 'm2', event });
    };
    screen = renderScreen({ store, noColor: true, subAgents: source });
    await screen.waitFor('2 entries');
    const usagePane = (): string => stripAnsi(pane(screen!.frame(), 'usage'));

    hear({ type: 'turn-started', promptEntryId: null, lane: 'main' });
    await eventually(() => expect(usagePane()).toMatch(/agents +▸ reviewer m2 +\$0 /));
    hear({ type: 'usage', row: usage('u1', 300_000) });
    await eventually(() => expect(usagePane()).toMatch(/agents +▸ reviewer m2 +\$0\.300 /));
    expect(usagePane()).toMatch(/session\* +1\.0k +100 +\$0\.300 /);
    hear({ type: 'usage', row: usage('u2', 200_000) });
    await eventually(() => expect(usagePane()).toMatch(/session\* +2\.0k +200 +\$0\.500 /));

    hear({ type: 'turn-ended', outcome: 'done', text: 'sound' });
    await eventually(() => expect(usagePane()).toMatch(/agents {4}reviewer m2 +\$0\.500 /));
    expect(usagePane()).not.toContain('▸ reviewer');
  });
});
