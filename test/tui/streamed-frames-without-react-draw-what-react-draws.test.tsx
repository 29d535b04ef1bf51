/**
 * A streamed frame drawn without React (src/tui/frame/streamed-bypass.ts) is the frame a whole
 * render of the same moment draws, byte for byte: Ink in debug mode writes each frame whole, so
 * each frame drawn by the bypass is compared with the frame React draws right after it, once it
 * has been told of the turn. Random replies (markdown, code fences, wide characters, emoji, tabs,
 * long words, text that looks like control codes) are streamed with keys, resizes, scrolls and
 * tool events between them; both paths must have run (counts), so a bypass that never fires or
 * never falls back cannot pass.
 */
import fc from 'fast-check';
import { Box, type DOMElement, render, Text } from 'ink';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventSink } from '../../src/core/session/events';
import { App } from '../../src/tui/App';
import { createTuiApprover } from '../../src/tui/approval/approval-queue';
import { StreamedFrames } from '../../src/tui/frame/frame-pacer';
import { paced } from '../../src/tui/frame/PacedFrames';
import type { BypassNode, StreamBypass } from '../../src/tui/frame/streamed-bypass';
import { FRAME_MS, TurnController } from '../../src/tui/screen/turn-controller';
import { loadTheme } from '../../src/tui/style/theme';
import { fcRuns } from '../support/fc-runs';
import { FakeStdin, FakeStdout, hangingAgent, KEYS } from './harness';
import { append, emptyStore } from './session-fixture';

/** A screen on the shipped frame path (PacedFrames over Ink), with a reply the test streams. */
function mount(columns: number, rows: number, history = 3) {
  vi.useFakeTimers({ toFake: ['Date'], now: 1_764_460_000_000 });
  const store = emptyStore();
  for (let i = 0; i < history; i++) {
    append(store, 'user', { text: `question ${i}` });
    append(store, 'assistant', {
      text: `answer ${i}\n\n- a point\n- another`,
      toolCalls: [],
      model: 'fake-model',
      finishReason: 'stop',
    });
  }
  // The clocks (the spinner's, the turn's elapsed time) move only when a step moves them.
  const started = store.now();
  let moved = 0;
  Object.assign(store, { now: () => started + moved });
  const agent = hangingAgent();
  let sink: EventSink | null = null;
  const runTurn = agent.runTurn;
  agent.runTurn = (prompt, signal, emit) => {
    sink = emit;
    return runTurn(prompt, signal, emit);
  };
  const streamed = new StreamedFrames();
  const turns = new TurnController({ agent, nowMs: () => store.now(), onCrash: () => {}, frames: streamed });
  const stdout = new FakeStdout(columns, rows);
  const stdin = new FakeStdin();
  const waiters: (() => void)[] = [];
  const write = stdout.write;
  stdout.write = (frame: string): boolean => {
    write(frame);
    for (const waiter of waiters.splice(0)) waiter();
    return true;
  };
  const instance = render(
    paced(
      <App
        agent={agent}
        store={store}
        turns={turns}
        policy={null}
        theme={loadTheme('dark')}
        noColor={false}
        resumeOnOpen={false}
        approvals={createTuiApprover({ armMs: 0 })}
        onQuit={() => {}}
        onCrash={(error) => {
          throw error;
        }}
      />,
      streamed,
    ),
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  const bypass = (): StreamBypass => {
    if (streamed.bypass === null) throw new Error('no bypass on the screen');
    // PacedFrames puts its StreamBypass there (the pacer knows it by the little the turn controller asks).
    return streamed.bypass as StreamBypass;
  };
  /** The next frame written (an event, not a wait of a set time). */
  const nextFrame = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));
  /** Turns of the event loop for what a key or an event sets off (React's effects, the pending-Escape flush). */
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
    // A frame the pacer holds (for its slot, or for a streamed frame) is drawn before the test looks.
    while ((streamed.bypass as StreamBypass | null)?.framePending) {
      await nextFrame();
      for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return {
    stdout,
    stdin,
    turns,
    bypass,
    nextFrame,
    settle,
    emit: (event: Parameters<EventSink>[0]) => sink?.(event),
    /** Both clocks on by `ms`. */
    advance(ms: number): void {
      moved += ms;
      vi.setSystemTime(Date.now() + ms);
    },
    last: () => stdout.frames.at(-1) ?? '',
    /** The frame a whole render draws now (React told of the turn first, if it is behind). */
    async whole(): Promise<string> {
      if (bypass().behind) {
        const drawn = nextFrame();
        bypass().catchUp();
        await drawn;
        await settle();
      }
      bypass().drawWhole();
      return stdout.frames.at(-1) ?? '';
    },
    unmount: () => {
      turns.dispose();
      instance.unmount();
    },
  };
}

type Mounted = ReturnType<typeof mount>;
let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  vi.useRealTimers();
});

/** Starts a turn and opens its stream with some text: from here streamed frames may skip React. */
async function startReply(screen: Mounted, first = 'Hello '): Promise<void> {
  for (const ch of 'go') {
    screen.stdin.write(ch);
    await screen.settle();
  }
  screen.stdin.write(KEYS.enter);
  await screen.settle();
  if (screen.turns.work !== 'turn') throw new Error(`the reply did not start:\n${screen.last()}`);
  screen.emit({ type: 'stream-open', firstTokenLimitMs: 60_000, idleLimitMs: 60_000 });
  const drawn = screen.nextFrame();
  screen.emit({ type: 'text', delta: first });
  await drawn;
  await screen.settle();
}

/** Streams `delta` and waits for its frame (drawn by the bypass or by React). */
async function stream(screen: Mounted, delta: string): Promise<void> {
  const drawn = screen.nextFrame();
  screen.emit({ type: 'text', delta });
  await drawn;
}

/**
 * Streams `label`0, `label`1, … until a frame is drawn without React. The spinner's and the
 * clock's timers run on the real clock here: one may wake React just as a text comes (its commit
 * then waits in the pacer, and that text's frame rightly falls back as held), which a loaded
 * machine makes likely. The fixed cases start from a frame the bypass drew, whenever it comes.
 */
async function streamUntilBypassed(screen: Mounted, label: string): Promise<string> {
  for (let i = 0; i < 10; i++) {
    const before = screen.bypass().counts.drawn;
    const text = `${label}${i} `;
    await stream(screen, text);
    await screen.settle();
    if (screen.bypass().counts.drawn > before) return text;
  }
  throw new Error(`no frame was drawn without React in 10 texts: ${JSON.stringify(screen.bypass().counts)}`);
}

/** Pieces of a model's reply that stress the transcript's lines. */
const PIECES = [
  'word ',
  'two words ',
  '\n',
  '\n\n',
  '# A heading\n',
  '- item **bold** and `code`\n',
  '```ts\nconst x = 1;\n```\n',
  '```\nunclosed fence ',
  '漢字とかな ',
  '한국어 ',
  '👍🏽 emoji 🎉 ',
  'tab\there ',
  `${'long'.repeat(40)} `,
  '\x1b[31mnot red\x1b[0m ',
  '\x1b]0;title\x07 ',
  '| a | b |\n|---|---|\n| 1 | 2 |\n',
  '> quoted\n',
  '1. first\n2. second\n',
  '*emphasis* _under_ ',
  '\r\n',
  '\u200b\u0301 ',
];

type Step =
  | { readonly kind: 'text'; readonly pieces: readonly string[]; readonly ms: number }
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'resize'; readonly columns: number; readonly rows: number }
  | { readonly kind: 'tool'; readonly open: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      pieces: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }),
      // The clocks between pieces: the spinner's step (100 ms), the elapsed time's second.
      ms: fc.integer({ min: 0, max: 1_300 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('key' as const),
      key: fc.constantFrom(
        'a',
        'b',
        ' ',
        KEYS.left,
        KEYS.pageUp,
        KEYS.pageDown,
        KEYS.tab,
        KEYS.shiftTab,
        KEYS.end,
        KEYS.up,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('resize' as const),
      columns: fc.constantFrom(80, 100, 120, 140),
      rows: fc.constantFrom(24, 30, 40),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tool' as const), open: fc.boolean() }) },
);

/** Over the whole property: frames drawn without React, and those compared with a whole render. */
const totals = { drawn: 0, compared: 0 };

describe('a streamed frame drawn without React', () => {
  it('is the frame a whole render of the same moment draws, through keys, resizes, scrolls and tool events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom([120, 40] as const, [80, 24] as const, [140, 30] as const),
        fc.array(step, { minLength: 4, maxLength: 18 }),
        async ([columns, rows], steps) => {
          mounted?.unmount();
          const screen = (mounted = mount(columns, rows));
          await startReply(screen);
          let tools = 0;
          for (const s of steps) {
            if (s.kind === 'text') {
              for (const piece of s.pieces) {
                screen.advance(s.ms);
                const before = screen.bypass().counts.drawn;
                await stream(screen, piece);
                if (screen.bypass().counts.drawn === before) continue;
                // A frame drawn without React: the frame React draws for this moment is the same.
                const bypassed = screen.last();
                expect(await screen.whole()).toBe(bypassed);
                totals.compared++;
              }
            } else if (s.kind === 'key') {
              screen.stdin.write(s.key);
              await screen.settle();
            } else if (s.kind === 'resize') {
              screen.stdout.columns = s.columns;
              screen.stdout.rows = s.rows;
              screen.stdout.emit('resize');
              await screen.settle();
            } else if (s.open || tools === 0) {
              tools++;
              screen.emit({
                type: 'tool-call',
                callId: `c${tools}`,
                tool: 'bash',
                subject: 'ls',
                risk: 'ReadOnly',
              } as Parameters<EventSink>[0]);
              await screen.settle();
            } else {
              screen.emit({
                type: 'tool-result',
                callId: `c${tools}`,
                tool: 'bash',
                outcome: 'ok',
              } as Parameters<EventSink>[0]);
              tools--;
              await screen.settle();
            }
            // Whatever happened, the screen is what a whole render draws (after React is told).
            const shown = screen.last();
            if (!screen.bypass().behind) expect(await screen.whole()).toBe(shown);
          }
          totals.drawn += screen.bypass().counts.drawn;
        },
      ),
      { numRuns: fcRuns(0.15) },
    );
    // The bypass ran, many times: one that never fires fails here. Falling back is asserted by
    // the fixed cases below (off, the first text, held, a key while behind): since the spinner no
    // longer wakes React while a streamed frame is due, random steps rarely make a frame fall back
    // (0 to 13 in a run of this property), so no count of them can be required here; each that
    // happens is still compared with a whole render after its step.
    expect(totals.compared).toBeGreaterThan(20);
    expect(totals.drawn).toBeGreaterThan(20);
  }, 240_000);
});

describe('a streamed frame falls back to React', () => {
  it("when the bypass is off: every frame is React's, and the same", async () => {
    const screen = (mounted = mount(120, 40));
    screen.bypass().on = false;
    await startReply(screen);
    for (let i = 0; i < 6; i++) {
      await stream(screen, `word${i} `);
      await screen.settle();
      expect(await screen.whole()).toBe(screen.last());
    }
    expect(screen.bypass().counts.drawn).toBe(0);
    expect(screen.bypass().counts.reasons.off).toBeGreaterThanOrEqual(6);
  });

  it("for the first text of a reply (the turn's shape moves), and draws the next ones itself", async () => {
    const screen = (mounted = mount(120, 40));
    await startReply(screen, 'first ');
    // The first text was React's: the bypass was not even asked.
    expect(screen.bypass().counts.drawn + screen.bypass().counts.fellBack).toBe(0);
    expect(screen.last()).toContain('first');
    const second = await streamUntilBypassed(screen, 'second');
    expect(screen.bypass().counts.drawn).toBe(1);
    expect(screen.last()).toContain(second.trim());
    expect(await screen.whole()).toBe(screen.last());
  });

  it("when a frame of React's waits to be drawn (held), which the streamed frame then draws", async () => {
    const screen = (mounted = mount(120, 40));
    await startReply(screen);
    await streamUntilBypassed(screen, 'one');
    expect(screen.bypass().counts.drawn).toBe(1);
    // A tool starts: React is told, and its commit waits for the streamed frame that is due.
    screen.emit({ type: 'text', delta: 'two ' });
    screen.emit({
      type: 'tool-call',
      callId: 'c1',
      tool: 'bash',
      subject: 'ls',
      risk: 'ReadOnly',
    } as Parameters<EventSink>[0]);
    await screen.settle();
    expect(screen.bypass().counts.reasons.held ?? 0).toBeGreaterThan(0);
    expect(screen.last()).toContain('two');
    expect(screen.last()).toContain('running bash');
    expect(await screen.whole()).toBe(screen.last());
  });
});

describe('a streamed frame falls back to React, by its guard', () => {
  it('when React is behind the turn (a change it has not drawn yet): React draws the frame, with both', async () => {
    const screen = (mounted = mount(120, 40));
    await startReply(screen);
    await streamUntilBypassed(screen, 'one');
    await screen.settle();
    const counts = screen.bypass().counts;
    const drawn = counts.drawn;
    // The tool's start is sent from inside the text's frame timer, just before the frame: the
    // screen is told of it only on the next setImmediate, so the streamed frame finds the turn
    // moved since React drew it. (A timer of its own, even one of the same length made just
    // before, may fall in a later pass over the timers when the millisecond turns between the
    // two: React then draws the tool before the frame, and nothing is behind.)
    const realSetTimeout = globalThis.setTimeout;
    let toolSent = false;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      run: () => void,
      ms?: number,
      ...rest: unknown[]
    ) => {
      if (toolSent || ms !== FRAME_MS) return Reflect.apply(realSetTimeout, globalThis, [run, ms, ...rest]);
      toolSent = true;
      return realSetTimeout(() => {
        screen.emit({
          type: 'tool-call',
          callId: 'c1',
          tool: 'bash',
          subject: 'ls',
          risk: 'ReadOnly',
        } as Parameters<EventSink>[0]);
        run();
      }, ms);
    }) as typeof setTimeout);
    const frame = screen.nextFrame();
    screen.emit({ type: 'text', delta: 'two ' });
    spy.mockRestore();
    expect(toolSent).toBe(true);
    await frame;
    await screen.settle();
    expect(counts.reasons.behind).toBe(1);
    expect(counts.drawn).toBe(drawn);
    expect(screen.last()).toContain('two');
    expect(screen.last()).toContain('running bash');
    expect(await screen.whole()).toBe(screen.last());
  });

  it('when a reader of the live turn does not vouch (/cost open during a reply): React draws each frame', async () => {
    const screen = (mounted = mount(120, 40));
    await startReply(screen);
    await streamUntilBypassed(screen, 'one');
    for (const ch of '/cost') {
      screen.stdin.write(ch);
      await screen.settle();
    }
    screen.stdin.write(KEYS.enter);
    await screen.settle();
    expect(screen.last()).toContain('cost ·');
    const counts = screen.bypass().counts;
    const drawn = counts.drawn;
    const estimates: string[] = [];
    for (let i = 0; i < 4; i++) {
      await stream(screen, `${'many words more '.repeat(8)}${i} `);
      await screen.settle();
      const shown = screen.last();
      expect(await screen.whole()).toBe(shown);
      estimates.push(shown);
    }
    expect(counts.reasons['no-node']).toBe(4);
    expect(counts.drawn).toBe(drawn);
    // The overlay's estimate of the call in flight moved with the text (each frame was React's).
    expect(new Set(estimates).size).toBe(4);
  });

  it("when a reader's text node is not in the tree Ink draws: React draws the frame", async () => {
    const screen = (mounted = mount(120, 40));
    await startReply(screen);
    await streamUntilBypassed(screen, 'one');
    // A text node Ink holds, in another tree: what a reader would hold after Ink removed its node.
    const elsewhere = new FakeStdout(40, 5);
    const box = createRef<DOMElement>();
    const other = render(
      <Box ref={box}>
        <Text>elsewhere</Text>
      </Box>,
      { stdout: elsewhere as unknown as NodeJS.WriteStream, debug: true, patchConsole: false },
    );
    try {
      const leaf = (box.current as BypassNode | null)?.childNodes?.[0]?.childNodes?.[0];
      expect(leaf?.nodeName).toBe('#text');
      const remove = screen.bypass().add({}, { node: () => leaf ?? null, textFor: () => 'elsewhere' });
      const counts = screen.bypass().counts;
      const drawn = counts.drawn;
      await stream(screen, 'two ');
      await screen.settle();
      expect(counts.reasons.detached).toBe(1);
      expect(counts.drawn).toBe(drawn);
      expect(screen.last()).toContain('two');
      remove();
      expect(await screen.whole()).toBe(screen.last());
      await streamUntilBypassed(screen, 'three');
    } finally {
      other.unmount();
    }
  });
});

describe("a reply whose last line fills the transcript's width", () => {
  it('keeps the cursor in the pane, and its frames are drawn without React', async () => {
    const screen = (mounted = mount(120, 40));
    await startReply(screen, 'x\n\n');
    // One long word a letter at a time: its last line fills the pane's width once a line.
    for (let i = 0; i < 130; i++) {
      const before = screen.bypass().counts.drawn;
      await stream(screen, 'a');
      await screen.settle();
      expect(screen.last()).toContain('▍');
      if (screen.bypass().counts.drawn > before) expect(await screen.whole()).toBe(screen.last());
    }
    const { reasons, drawn } = screen.bypass().counts;
    expect(reasons.declined ?? 0).toBe(0);
    expect(reasons['no-node'] ?? 0).toBe(0);
    // Most frames were drawn without React (a clock step may still hold one for React: `held`).
    expect(drawn).toBeGreaterThan(60);
  });
});

describe('a key while React is behind the screen', () => {
  it('draws the key with the newest text, never the older text React held', async () => {
    const screen = (mounted = mount(120, 40));
    await startReply(screen);
    for (let i = 0; i < 4; i++) await stream(screen, `word${i} `);
    const newest = (await streamUntilBypassed(screen, 'word4-')).trim();
    expect(screen.bypass().behind).toBe(true);
    const from = screen.stdout.frames.length;
    screen.stdin.write('x');
    await screen.settle();
    const after = screen.stdout.frames.slice(from);
    expect(after.length).toBeGreaterThan(0);
    // Every frame drawn for the key shows the last word streamed: none went back to React's older text.
    for (const frame of after) expect(frame).toContain(newest);
    expect(screen.last()).toMatch(/› *x|x\s*$/m);
    expect(screen.bypass().behind).toBe(false);
    expect(await screen.whole()).toBe(screen.last());
  });
});
