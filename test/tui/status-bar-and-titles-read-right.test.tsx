import { afterEach, describe, expect, it, vi } from 'vitest';
import { realAgent } from './agent-fixture';
import { pane, renderScreen, stripAnsi, type Screen } from './harness';
import { append, emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

describe('the status bar and pane titles', () => {
  it('count one entry as "1 entry", in the transcript title and the tree', async () => {
    const store = emptyStore();
    append(store, 'user', { text: 'only one' });
    screen = renderScreen({ store, columns: 140, rows: 30 });
    const frame = stripAnsi(await screen.waitFor('main · 1 entry'));
    expect(frame).not.toContain('1 entries');
  });

  it('say Streaming, not Planning, while the answer streams', async () => {
    const store = emptyStore();
    const { agent, approvals } = realAgent(store, [{ chunks: ['half an answer'], hang: true }]);
    screen = renderScreen({ store, agent, approvals });
    await screen.waitFor('type a prompt');
    expect(stripAnsi(screen.frame())).toMatch(/Idle · seq/);
    await screen.type('go');
    await screen.press('\r');
    await screen.waitFor('half an answer');
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toMatch(/Streaming · seq/));
    expect(pane(screen.frame(), 'main ·')).toContain('half an answer');
  });
});
