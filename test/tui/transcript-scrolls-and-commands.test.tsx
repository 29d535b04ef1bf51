import { afterEach, describe, expect, it, vi } from 'vitest';
import { NS } from '../../src/core/registers/namespaces';
import { KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { realAgent } from './agent-fixture';
import { append, emptyStore, prepareSession } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

function longSession() {
  const store = emptyStore();
  for (let i = 1; i <= 40; i++) {
    append(store, 'user', { text: `question ${i}` });
    append(store, 'assistant', { text: `answer ${i}`, toolCalls: [], model: 'gpt-4.1', finishReason: 'stop' });
  }
  return store;
}

describe('the transcript', () => {
  it('PageUp, PageDown, Home and End scroll it; new output is followed again at the bottom', async () => {
    screen = renderScreen({ store: longSession(), columns: 120, rows: 24 });
    const transcript = pane(await screen.waitFor('main · 80 entries'), 'main ·');
    expect(transcript).toContain('answer 40');
    expect(transcript).not.toContain('question 1\n');

    await screen.press(KEYS.pageUp);
    await vi.waitFor(() => expect(pane(screen!.frame(), 'main ·')).not.toContain('answer 40'));
    expect(stripAnsi(screen.frame())).toContain('↑ scrolled · End follows');

    await screen.press(KEYS.tab, KEYS.tab, KEYS.home);
    await vi.waitFor(() => expect(pane(screen!.frame(), 'main ·')).toMatch(/question 1\s/));
    expect(stripAnsi(screen.frame())).toContain('top · End follows');

    await screen.press(KEYS.pageDown);
    await vi.waitFor(() => expect(pane(screen!.frame(), 'main ·')).not.toMatch(/question 1\s/));

    await screen.press(KEYS.end);
    await vi.waitFor(() => expect(pane(screen!.frame(), 'main ·')).toContain('answer 40'));
    expect(stripAnsi(screen.frame())).not.toContain('End follows');
  });

  it('keeps a scrolled view still while new entries arrive below it', async () => {
    const store = longSession();
    screen = renderScreen({ store, columns: 120, rows: 24 });
    await screen.waitFor('main · 80 entries');
    await screen.press(KEYS.pageUp);
    await vi.waitFor(() => expect(pane(screen!.frame(), 'main ·')).not.toContain('answer 40'));
    const before = pane(screen.frame(), 'main ·');
    append(store, 'user', { text: 'question 41' });
    await screen.waitFor('main · 81 entries');
    expect(pane(screen.frame(), 'main ·')).toBe(before);
  });
});

describe('slash commands', () => {
  it('/label labels the selected tree entry, and the tree shows the label', async () => {
    const { store, ids } = prepareSession();
    screen = renderScreen({ store });
    await screen.waitFor('branches');
    await screen.press(KEYS.tab, KEYS.home, KEYS.down, KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab);
    await screen.type('/label before the fix');
    await screen.press(KEYS.enter);
    await screen.waitFor('labelled "before the fix"');
    expect(store.registers.get(NS.label, ids.look)).toBe('before the fix');
    expect(pane(screen.frame(), 'tree')).toContain('⚑ before the fix');
    expect(pane(screen.frame(), 'registers')).toContain(`label.${ids.look} = before the fix`);
  });

  it('/model switches the model for the next call, /theme switches the theme, unknown commands say so', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, []);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await screen.type('/model o4-mini');
    await screen.press(KEYS.enter);
    await screen.waitFor('model: o4-mini');
    expect(fixture.agent.model).toBe('o4-mini');
    expect(stripAnsi(screen.frame())).toContain('· o4-mini ·');
    await screen.type('/theme light');
    await screen.press(KEYS.enter);
    await screen.waitFor('theme: light');
    await screen.type('/theme nope');
    await screen.press(KEYS.enter);
    await screen.waitFor('not a built-in theme');
    await screen.type('/frobnicate');
    await screen.press(KEYS.enter);
    await screen.waitFor('unknown command /frobnicate');
  });
});

describe('the prompt', () => {
  it('takes a bracketed paste with newlines as text, without sending it', async () => {
    const agent = {
      model: 'm',
      prompts: [] as string[],
      runTurn: vi.fn(async () => ({})),
      resume: async () => 0,
      steer: () => false,
      takeSteering: () => null,
      retry: async () => ({}),
    };
    screen = renderScreen({ store: emptyStore(), agent });
    await screen.press('\x1b[200~', 'line one\rline two', '\x1b[201~');
    await screen.waitFor('line two');
    const frame = stripAnsi(screen.frame());
    expect(frame).toContain('❯ line one');
    expect(frame).toMatch(/\n\s+line two/);
    expect(agent.runTurn).not.toHaveBeenCalled();
    await screen.press(KEYS.enter);
    await vi.waitFor(() =>
      expect(agent.runTurn).toHaveBeenCalledWith('line one\nline two', expect.anything(), expect.anything()),
    );
  });

  it('recalls earlier prompts with ↑ and edits with readline keys', async () => {
    const agent = {
      model: 'm',
      runTurn: vi.fn(async () => ({})),
      resume: async () => 0,
      steer: () => false,
      takeSteering: () => null,
      retry: async () => ({}),
    };
    screen = renderScreen({ store: emptyStore(), agent });
    await screen.type('first prompt');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(agent.runTurn).toHaveBeenCalledTimes(1));
    await screen.press(KEYS.up);
    await screen.waitFor('❯ first prompt');
    await screen.press('\x17');
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).not.toContain('first prompt'));
    expect(stripAnsi(screen.frame())).toContain('❯ first');
    await screen.press('\x01', 'my ');
    await screen.waitFor('❯ my first');
    await screen.press('\x0b');
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).not.toContain('my first'));
    expect(stripAnsi(screen.frame())).toContain('❯ my');
  });

  it('shows the estimated output while a reply streams, in the usage pane', async () => {
    const store = emptyStore();
    let seen!: () => void;
    // The reply holds after its first 400 characters until the test has read the pane mid-stream.
    const replyGoesOn = new Promise<void>((resolve) => (seen = resolve));
    const fixture = realAgent(store, [
      { chunks: ['x'.repeat(400), 'y'.repeat(400)], stallAfterChunks: 1, stallUntil: replyGoesOn },
    ]);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await screen.type('go');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(pane(screen!.frame(), 'usage')).toMatch(/turn\s+~[\d.]+k?\s+~100\s+~\$/));
    expect(pane(screen.frame(), 'usage')).toContain('▸ streaming');
    seen();
    await vi.waitFor(() => expect(pane(screen!.frame(), 'usage')).toMatch(/turn\s+1\.0k\s+200/));
  });
});
