/**
 * A streamed reply redraws the screen some 30 times a second. Each of those frames draws again
 * only what it changed: the transcript (and the usage pane, whose figures move with the reply),
 * not the tree, not the registers, and not the status bar, whose spinner turns with the clock
 * (src/tui/screen/use-paced-step.ts) rather than with every frame, and costs no frame of its own. The
 * screen around them (the App: its layout, panes row, prompt line) is not drawn again either:
 * only the live turn's scope reads the streamed text (src/tui/screen/live-turn-scope.tsx). And what
 * the frames leave on screen is what a whole redraw of the same moment draws.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventSink } from '../../src/core/session/events';
import { TurnController } from '../../src/tui/screen/turn-controller';
import { hangingAgent, KEYS, pane, renderScreen, type Screen } from './harness';
import { append, emptyStore } from './session-fixture';

/** Renders of the counted components, by name (the lines panes by their title). */
const renders = vi.hoisted(() => new Map<string, number>());

/**
 * The component, counting its renders under `name(props)`: its render function is called inside
 * a counting one, kept memoized with its own comparison when it is memoized.
 */
const counting = vi.hoisted(
  () =>
    <C,>(component: C, name: (props: { title?: string }) => string, memo: typeof import('react').memo): C => {
      const real = component as unknown as {
        type?: (props: object) => unknown;
        compare?: ((a: object, b: object) => boolean) | null;
      };
      const inner = (real.type ?? component) as (props: object) => import('react').ReactNode;
      const count = (props: object): import('react').ReactNode => {
        const key = name(props as { title?: string });
        renders.set(key, (renders.get(key) ?? 0) + 1);
        return inner(props);
      };
      return (real.type ? memo(count, real.compare ?? undefined) : count) as unknown as C;
    },
);

vi.mock('../../src/tui/status/StatusBar', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/tui/status/StatusBar')>();
  return { ...actual, StatusBar: counting(actual.StatusBar, () => 'status', (await import('react')).memo) };
});
vi.mock('../../src/tui/tree/TreePane', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/tui/tree/TreePane')>();
  return { ...actual, TreePane: counting(actual.TreePane, () => 'tree', (await import('react')).memo) };
});
vi.mock('../../src/tui/panes/Panes', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/tui/panes/Panes')>();
  return { ...actual, Panes: counting(actual.Panes, () => 'panes', (await import('react')).memo) };
});
vi.mock('../../src/tui/prompt/PromptLine', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/tui/prompt/PromptLine')>();
  return { ...actual, PromptLine: counting(actual.PromptLine, () => 'prompt', (await import('react')).memo) };
});
vi.mock('../../src/tui/panes/LinesPane', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/tui/panes/LinesPane')>();
  const name = ({ title = '' }: { title?: string }): string =>
    title === 'usage' || title === 'registers' ? title : 'transcript';
  return { ...actual, LinesPane: counting(actual.LinesPane, name, (await import('react')).memo) };
});

let screen: Screen | undefined;
afterEach(() => {
  screen?.unmount();
  screen = undefined;
  vi.useRealTimers();
});

/** An Agent whose reply the test streams a delta at a time. */
function streamingAgent() {
  const agent = hangingAgent();
  let sink: EventSink | null = null;
  const runTurn = agent.runTurn;
  agent.runTurn = (prompt, signal, emit) => {
    sink = emit;
    return runTurn(prompt, signal, emit);
  };
  return { agent, send: (delta: string) => sink?.({ type: 'text', delta }) };
}

/** One step of the status bar's spinner: the turn is running. */
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;

/** Waits (on real timers, which `vi.waitFor` would move on with a fake clock) until the screen shows `text`. */
async function shows(on: Screen, text: string | RegExp): Promise<void> {
  const showing = (): boolean => (typeof text === 'string' ? on.frame().includes(text) : text.test(on.frame()));
  for (let waited = 0; !showing(); waited += 10) {
    if (waited > 10_000) throw new Error(`screen does not show ${text}:\n${on.frame()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a streamed frame', () => {
  it('draws the transcript again, not the tree, the registers or the status bar', async () => {
    // The clock stands still (timers run): the spinner stays in one step for the whole reply.
    vi.useFakeTimers({ toFake: ['Date'], now: 1_764_460_000_000 });
    const store = emptyStore();
    append(store, 'user', { text: 'an earlier question' });
    const { agent, send } = streamingAgent();
    screen = renderScreen({ store, agent, columns: 140, rows: 30 });
    await screen.type('go');
    await screen.press(KEYS.enter);
    send('word0 ');
    await shows(screen, 'word0');
    // Settled: the status bar shows the turn running and its first text is on screen; count from here.
    await shows(screen, SPINNER);
    renders.clear();
    const frames = 12;
    for (let i = 1; i <= frames; i++) {
      send(`word${i} `);
      await shows(screen, `word${i}`);
    }
    expect(pane(screen.frame(), 'main ·')).toContain(`word${frames}`);
    // Every frame drew the transcript again.
    expect(renders.get('transcript') ?? 0).toBeGreaterThanOrEqual(frames);
    // Nothing the tree or the registers show moved, nor the status bar: the clock stood still, so
    // its spinner stayed in one step (its own timer may draw it once to find that out).
    expect(renders.get('tree') ?? 0).toBe(0);
    expect(renders.get('registers') ?? 0).toBe(0);
    expect(renders.get('status') ?? 0).toBeLessThanOrEqual(1);
    // The App under them was not drawn again: its row of panes and its prompt line were left as they were.
    expect(renders.get('panes') ?? 0).toBe(0);
    expect(renders.get('prompt') ?? 0).toBe(0);
  });

  it('leaves on screen what a whole redraw of the same moment draws', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_764_460_000_000 });
    const store = emptyStore();
    append(store, 'user', { text: 'an earlier question' });
    append(store, 'assistant', { text: 'an earlier answer', toolCalls: [], model: 'fake-model', finishReason: 'stop' });
    // The store's clock stands still too: the elapsed time reads the same in both drawings.
    const stillAt = store.now();
    Object.assign(store, { now: () => stillAt });
    const { agent, send } = streamingAgent();
    const turns = new TurnController({ agent, nowMs: () => store.now(), onCrash: () => {} });
    screen = renderScreen({ store, agent, turns, columns: 120, rows: 24 });
    await screen.type('go');
    await screen.press(KEYS.enter);
    // Enough lines to scroll the transcript, some of them markdown.
    const frames = 30;
    for (let i = 1; i <= frames; i++) {
      send(i % 7 === 0 ? `\n\n- item **${i}**\n` : `word${i} `);
      await shows(screen, `word${i - (i % 7 === 0 ? 1 : 0)}`);
    }
    send('last');
    await shows(screen, 'last');
    const streamed = screen.frame();
    screen.unmount();
    // A new screen on the same session and the same live turn draws everything from scratch.
    screen = renderScreen({ store, agent, turns, columns: 120, rows: 24 });
    // Until its frames come to the streamed screen (a bound only a failing run reaches), not a fixed wait.
    for (let waited = 0; screen.frame() !== streamed && waited <= 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(screen.frame()).toBe(streamed);
    turns.dispose();
  });

  it('still turns the spinner when no frame comes (the model is silent)', async () => {
    const store = emptyStore();
    const { agent } = streamingAgent();
    screen = renderScreen({ store, agent, columns: 140, rows: 30 });
    await screen.type('go');
    await screen.press(KEYS.enter);
    const spinner = /([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]) /;
    await screen.waitFor(spinner);
    const seen = new Set<string>();
    await vi.waitFor(
      () => {
        seen.add(spinner.exec(screen!.frame())![1]!);
        expect(seen.size).toBeGreaterThanOrEqual(3);
      },
      { timeout: 10_000, interval: 30 },
    );
  });
});
