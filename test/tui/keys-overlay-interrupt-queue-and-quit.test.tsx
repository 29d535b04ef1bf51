import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEYMAP } from '../../src/tui/input/keymap';
import { realAgent } from './agent-fixture';
import { hangingAgent, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore, prepareSession } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

describe('the keyboard', () => {
  it('? shows every binding of the keymap', async () => {
    screen = renderScreen({ store: prepareSession().store, columns: 100, rows: 200 });
    await screen.waitFor('⏎ send');
    await screen.press('?');
    const overlay = pane(await screen.waitFor('keys · Esc or ? closes'), 'keys ·');
    const text = overlay
      .split('\n')
      .map((line) => line.trim())
      .join(' ')
      .replace(/\s+/g, ' ');
    for (const binding of KEYMAP.filter((b) => b.scope !== 'picker'))
      expect(text, binding.help).toContain(binding.help);
    expect(text).toContain('/label [text]');
    expect(text).toContain('y approve this call once');
    await screen.press(KEYS.escape);
    await vi.waitFor(() => expect(screen!.frame()).not.toContain('keys · Esc or ? closes'));
  });

  it('? typed into a prompt that has text is just typed', async () => {
    screen = renderScreen({ store: emptyStore() });
    await screen.type('why?');
    await screen.waitFor('❯ why?');
    expect(screen.frame()).not.toContain('keys · Esc');
  });

  it('q typed into the prompt never quits; Ctrl-C clears typed text, then quits when idle', async () => {
    screen = renderScreen({ store: emptyStore() });
    await screen.type('q');
    await screen.waitFor('❯ q');
    expect(screen.quit).not.toHaveBeenCalled();
    await screen.press(KEYS.ctrlC);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toContain('type a prompt'));
    expect(screen.quit).not.toHaveBeenCalled();
    await screen.press(KEYS.ctrlC);
    expect(screen.quit).toHaveBeenCalledTimes(1);
  });

  it('Esc interrupts a running turn, and the first Ctrl-C while running interrupts rather than quits', async () => {
    const agent = hangingAgent();
    screen = renderScreen({ store: emptyStore(), agent });
    await screen.type('first');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(agent.signals).toHaveLength(1));
    await screen.waitFor('Esc stop');
    await screen.press(KEYS.escape);
    expect(agent.signals[0]!.aborted).toBe(true);

    await screen.type('second');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(agent.signals).toHaveLength(2));
    await screen.press(KEYS.ctrlC);
    expect(agent.signals[1]!.aborted).toBe(true);
    expect(screen.quit).not.toHaveBeenCalled();
  });

  it('queues prompts sent with Alt-Enter while a turn runs, shows them, and sends them in order after it ends', async () => {
    const agent = hangingAgent();
    screen = renderScreen({ store: emptyStore(), agent });
    await screen.type('one');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(agent.prompts).toEqual(['one']));
    await screen.type('two');
    await screen.press(KEYS.altEnter);
    await screen.type('three');
    await screen.press(KEYS.altEnter);
    const frame = stripAnsi(await screen.waitFor('queued 2: three'));
    expect(frame).toContain('queued 1: two');
    expect(frame).toContain('2 queued');
    agent.finish();
    await vi.waitFor(() => expect(agent.prompts).toEqual(['one', 'two']));
    agent.finish();
    await vi.waitFor(() => expect(agent.prompts).toEqual(['one', 'two', 'three']));
  });

  it('Esc with prompts queued puts them back into the prompt instead of sending them', async () => {
    const agent = hangingAgent();
    screen = renderScreen({ store: emptyStore(), agent });
    await screen.type('one');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(agent.prompts).toHaveLength(1));
    await screen.type('two');
    await screen.press(KEYS.altEnter);
    await screen.waitFor('queued 1: two');
    await screen.press(KEYS.escape);
    await screen.waitFor('back in the prompt');
    await screen.waitFor('❯ two');
    // The stopped turn has ended on screen (the status bar offers ⏎ send again), and nothing was sent after it.
    await screen.waitFor('⏎ send');
    expect(agent.prompts).toEqual(['one']);
  });

  it('Esc stops a real turn mid-stream: the partial reply is kept and settled as interrupted', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, [{ chunks: ['Reading ', 'the ', 'whole ', 'repository '], hang: true }]);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await screen.type('summarise the repo');
    await screen.press(KEYS.enter);
    await screen.waitFor('repository');
    await screen.press(KEYS.escape);
    const frame = await screen.waitFor('(interrupted)');
    expect(pane(frame, 'main ·')).toContain('Reading the whole repository');
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toContain('Final'));
    const assistant = [...store.tree.all()].find((e) => e.type === 'assistant');
    expect(assistant?.payload).toMatchObject({ finishReason: 'interrupted' });
  });

  it('streams a real reply into the transcript as it arrives', async () => {
    const store = emptyStore();
    let seen!: () => void;
    // The reply holds after 'Here is ' until the test has seen that much on screen, and no more.
    const replyGoesOn = new Promise<void>((resolve) => (seen = resolve));
    const fixture = realAgent(store, [
      { chunks: ['Here ', 'is ', '**the** ', 'answer.'], stallAfterChunks: 2, stallUntil: replyGoesOn },
    ]);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await screen.type('hello');
    await screen.press(KEYS.enter);
    expect(pane(await screen.waitFor('Here is'), 'main ·')).not.toContain('answer');
    seen();
    await screen.waitFor('Here is the answer.');
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toMatch(/Final · seq/));
    expect(pane(screen.frame(), 'main ·').match(/Here is the answer\./g)).toHaveLength(1);
  });
});
