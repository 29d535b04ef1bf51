import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NS } from '../../src/core/registers/namespaces';
import { realAgent } from './agent-fixture';
import { pane, renderScreen, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

describe('opening a session a crash left mid-call', () => {
  it('settles the unfinished call first: a call never approved is asked again, and runs only after y', async () => {
    const store = emptyStore();
    const write = {
      id: 'call_w',
      name: 'write_file',
      arguments: JSON.stringify({ path: 'todo.md', content: '- resume\n' }),
    };
    const first = realAgent(store, [{ chunks: ['Writing it.'], toolCalls: [write] }]);
    // The first tole asks and dies before an answer: the intent is committed, no approval is.
    void first.agent.runTurn('note it', new AbortController().signal, () => {});
    await vi.waitFor(() => expect(first.approvals.getSnapshot()).not.toBeNull());
    expect(store.registers.entries(NS.pending)).toHaveLength(1);

    const second = realAgent(store, [{ chunks: ['Written after the restart.'] }]);
    screen = renderScreen({
      store,
      agent: second.agent,
      approvals: second.approvals,
      policy: second.policy,
      resumeOnOpen: true,
    });
    const asked = pane(await screen.waitFor('approve?'), 'approve?');
    expect(asked).toContain('write_file');
    expect(asked).toContain('todo.md');
    expect(existsSync(join(second.workspace, 'todo.md'))).toBe(false);
    await screen.press('y');
    await screen.waitFor('after restart: rerun');
    expect(readFileSync(join(second.workspace, 'todo.md'), 'utf8')).toBe('- resume\n');
    expect(store.registers.entries(NS.pending)).toHaveLength(0);
  });
});
