import { afterEach, describe, expect, it, vi } from 'vitest';
import { realAgent } from './agent-fixture';
import { hangingAgent, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

async function send(s: Screen, text: string, key: string = KEYS.enter): Promise<void> {
  await s.type(text);
  await s.press(key);
}

describe('steering a running turn', () => {
  it('Enter while a turn runs steers it; a second Enter replaces the first; the status bar shows steer and queue; Esc puts it back in the prompt', async () => {
    const agent = hangingAgent();
    screen = renderScreen({ store: emptyStore(), agent });
    await send(screen, 'write the report');
    await vi.waitFor(() => expect(agent.prompts).toEqual(['write the report']));
    const running = stripAnsi(await screen.waitFor('⏎ steer'));
    expect(running).toContain('M-⏎ queue');

    await send(screen, 'make it long');
    await screen.waitFor('↳ steering (next model call): make it long');
    await send(screen, 'keep it short');
    await screen.waitFor('↳ steering (next model call): keep it short');
    expect(agent.steering).toBe('keep it short');
    expect(stripAnsi(screen.frame())).not.toContain('make it long');
    expect(agent.prompts).toEqual(['write the report']);

    await screen.press(KEYS.escape);
    await screen.waitFor('❯ keep it short');
    expect(agent.steering).toBeNull();
    expect(stripAnsi(screen.frame())).not.toContain('↳ steering');
  });

  it("through a real Agent: the steering goes to the model with the same turn's next call and shows in the transcript", async () => {
    const store = emptyStore();
    let steered!: () => void;
    // The first reply holds after 'First ' until the steering is taken: the turn is still running
    // when it comes, however slow the machine.
    const firstReplyGoesOn = new Promise<void>((resolve) => (steered = resolve));
    const fixture = realAgent(store, [
      { chunks: ['First ', 'answer, ', 'and ', 'slow.'], stallAfterChunks: 1, stallUntil: firstReplyGoesOn },
      { chunks: ['Steered answer.'] },
    ]);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await send(screen, 'hello');
    await screen.waitFor('First');
    // Typed in one go, as a paste-free burst: the text and its ⏎.
    await screen.press('in French please\r');
    await screen.waitFor('↳ steering (next model call): in French please');
    steered();
    const done = await screen.waitFor('Steered answer.');
    expect(pane(done, 'main ·')).toContain('↳ steered into the running turn');
    expect(fixture.provider.requests).toHaveLength(2);
    const last = fixture.provider.requests[1]!.messages.at(-1);
    expect(last).toMatchObject({ role: 'user', content: 'in French please' });
  });
});

describe('/queue', () => {
  it('lists the queued prompts; d removes one, e takes one into the editor, and the list closes when the queue is empty', async () => {
    const agent = hangingAgent();
    screen = renderScreen({ store: emptyStore(), agent });
    await send(screen, 'first');
    await vi.waitFor(() => expect(agent.prompts).toEqual(['first']));
    await send(screen, 'second', KEYS.altEnter);
    await send(screen, 'third', KEYS.altEnter);
    await screen.waitFor('queued 2: third');
    await send(screen, '/queue');
    const list = stripAnsi(await screen.waitFor('queued prompts · 2'));
    expect(list).toContain('▸ 1. second');
    expect(list).toContain('2. third');
    expect(list).toContain('e edit');

    await screen.press('j');
    await screen.waitFor('▸ 2. third');
    await screen.press('d');
    const after = await screen.waitFor('queued prompts · 1');
    expect(pane(after, 'queued prompts')).not.toContain('third');
    expect(stripAnsi(after)).toContain('removed from the queue: third');
    await screen.press('e');
    await screen.waitFor('❯ second');
    expect(stripAnsi(screen.frame())).not.toContain('queued prompts');
    expect(stripAnsi(screen.frame())).not.toContain('queued 1:');

    agent.finish();
    // The turn has ended on screen (the status bar offers ⏎ send again), and nothing was sent after it.
    await screen.waitFor('⏎ send');
    expect(agent.prompts).toEqual(['first']);
  });

  it('with nothing queued says so', async () => {
    screen = renderScreen({ store: emptyStore() });
    await send(screen, '/queue');
    await screen.waitFor('nothing is queued');
  });
});
