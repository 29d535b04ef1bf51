/**
 * The screen hears of the live turn's changes after the work that made them, once: the prompt's
 * commit and the request that follows it go out before anything is drawn, and the end of a stream
 * (its last text, the attempt, the reply's commit, the turn's end) comes to the screen in one
 * notification, at once, without waiting for the next frame tick.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { OpenAIProvider } from '../../src/core/provider/openai-chat/openai-provider';
import type { EventSink } from '../../src/core/session/events';
import { StreamedFrames } from '../../src/tui/frame/frame-pacer';
import { IdleCollection } from '../../src/tui/frame/idle-collection';
import { FRAME_MS, TurnController, type LiveTurn, type TurnAgent } from '../../src/tui/screen/turn-controller';
import { buildAgent, tempDirs, type TempDirs } from '../support/agent-fixtures';
import { startChatServer, type ChatServer } from '../support/chat-server';

const servers: ChatServer[] = [];
const dirs: TempDirs[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const d of dirs) d.remove();
});

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** An agent whose turn emits `script` in one go (as one network read would), then ends. */
function scriptedAgent(script: (emit: EventSink) => void): TurnAgent {
  return {
    model: 'm',
    runTurn: async (_prompt, _signal, emit) => {
      await Promise.resolve();
      script(emit);
    },
    resume: async () => 0,
    retry: async () => undefined,
    steer: () => false,
    takeSteering: () => null,
  };
}

function watch(turns: TurnController): { calls: number; seen: LiveTurn[] } {
  const watched = { calls: 0, seen: [] as LiveTurn[] };
  turns.subscribe(() => {
    watched.calls++;
    watched.seen.push(turns.getSnapshot());
  });
  return watched;
}

describe('the live turn reaches the screen after the work, once', () => {
  it('a stream that ends in one read: its last delta, the attempt, the commit and the end are one notification, before any frame tick', async () => {
    const turns = new TurnController({
      agent: scriptedAgent((emit) => {
        emit({ type: 'stream-open', firstTokenLimitMs: 1000, idleLimitMs: 1000 });
        for (const word of ['alpha ', 'bravo ', 'ZZend']) emit({ type: 'text', delta: word });
        emit({
          type: 'attempt',
          report: { model: 'm', attempt: 1, outcome: 'ok', usage: null, latencyMs: 1 },
        });
      }),
      nowMs: () => performance.now(),
      onCrash: (error) => {
        throw error;
      },
    });
    const watched = watch(turns);
    expect(turns.start('go')).toBe(true);
    expect(watched.calls).toBe(0);
    await nextTick();
    await nextTick();
    // Turn start, its stream and its end were drawn together: the screen was told once or twice, not per step.
    expect(watched.calls).toBeLessThanOrEqual(2);
    const last = watched.seen.at(-1)!;
    expect(last.phase).toBe('idle');
    expect(last.lastOutcome).toBeNull();
    turns.dispose();
  });

  it('the last delta is on screen as the stream ends, without waiting for the frame timer', async () => {
    let finish!: () => void;
    let end!: () => void;
    const agent: TurnAgent = {
      ...scriptedAgent(() => {}),
      runTurn: (_prompt, _signal, emit) =>
        new Promise<void>((resolve) => {
          emit({ type: 'stream-open', firstTokenLimitMs: 1000, idleLimitMs: 1000 });
          emit({ type: 'text', delta: 'alpha ' });
          finish = () => {
            emit({ type: 'text', delta: 'ZZlast' });
            emit({ type: 'attempt', report: { model: 'm', attempt: 1, outcome: 'ok', usage: null, latencyMs: 1 } });
            // The reply's commit comes later (another read, a slow disk): the live text is what shows meanwhile.
            end = resolve;
          };
        }),
    };
    const turns = new TurnController({ agent, nowMs: () => performance.now(), onCrash: () => {} });
    const watched = watch(turns);
    turns.start('go');
    await nextTick();
    finish();
    await nextTick();
    expect(turns.running).toBe(true);
    expect(watched.seen.at(-1)?.text).toBe('alpha ZZlast');
    end();
    turns.dispose();
  });

  it('a streamed frame is told inside its own timer, before a spinner step due at the same moment runs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let emit!: EventSink;
      const agent: TurnAgent = {
        ...scriptedAgent(() => {}),
        runTurn: (_prompt, _signal, sink) =>
          new Promise<void>(() => {
            emit = sink;
          }),
      };
      const frames = new StreamedFrames();
      const turns = new TurnController({ agent, nowMs: () => performance.now(), onCrash: () => {}, frames });
      const watched = watch(turns);
      turns.start('go');
      await nextTick();
      emit({ type: 'stream-open', firstTokenLimitMs: 1000, idleLimitMs: 1000 });
      emit({ type: 'text', delta: 'ZZframe' });
      // Due with the frame, after it: the frame pacer lets the commit that follows the frame's
      // timer through as the streamed one, so that commit must be the text's, not this step's.
      let textToldBeforeTheStep: boolean | undefined;
      setTimeout(() => {
        textToldBeforeTheStep = watched.seen.at(-1)?.text === 'ZZframe';
      }, FRAME_MS);
      vi.advanceTimersByTime(FRAME_MS);
      expect(textToldBeforeTheStep).toBe(true);
      turns.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it("the turn's end is told before work queued for the next loop turn while the stream was read", async () => {
    let finish!: () => void;
    const agent: TurnAgent = {
      ...scriptedAgent(() => {}),
      runTurn: (_prompt, _signal, emit) =>
        new Promise<void>((resolve) => {
          emit({ type: 'stream-open', firstTokenLimitMs: 1000, idleLimitMs: 1000 });
          finish = () => {
            emit({ type: 'text', delta: 'ZZlast' });
            emit({ type: 'attempt', report: { model: 'm', attempt: 1, outcome: 'ok', usage: null, latencyMs: 1 } });
            emit({ type: 'turn-ended', outcome: 'done', text: 'ZZlast' });
            resolve();
          };
        }),
    };
    const turns = new TurnController({ agent, nowMs: () => performance.now(), onCrash: () => {} });
    const watched = watch(turns);
    turns.start('go');
    await nextTick();
    // Queued before the stream's last read, as React queues its own scheduled work: it must find
    // the screen told of the whole end, or it draws the new commits beside the live turn of before.
    let seenByQueuedWork: LiveTurn | undefined;
    setImmediate(() => {
      seenByQueuedWork = watched.seen.at(-1);
    });
    finish();
    await nextTick();
    expect(seenByQueuedWork?.phase).toBe('idle');
    expect(seenByQueuedWork?.lastOutcome).toBe('done');
    turns.dispose();
  });

  it('a real prompt: its request leaves before the screen hears of the turn or the committed prompt', async () => {
    const server = await startChatServer();
    servers.push(server);
    const d = tempDirs('tole-draw-after-');
    dirs.push(d);
    let told = 0;
    let toldAtRequest: number | null = null;
    const provider = new OpenAIProvider({
      baseURL: server.url,
      apiKey: 'sk-test',
      random: seededRandom(7),
      clock: systemClock,
      fetch: (input, init) => {
        toldAtRequest ??= told;
        return fetch(input, init);
      },
    });
    const { agent, store } = buildAgent({
      baseURL: server.url,
      sessionsDir: d.sessions,
      workspaceRoot: d.root,
      deps: { provider },
    });
    const turns = new TurnController({ agent, nowMs: () => store.now(), onCrash: () => {} });
    turns.subscribe(() => told++);
    turns.start('hello');
    await new Promise<void>((resolve) => {
      const stop = turns.subscribe(() => {
        if (!turns.running) {
          stop();
          resolve();
        }
      });
    });
    expect(toldAtRequest).toBe(0);
    expect(turns.getSnapshot().phase).toBe('idle');
    turns.dispose();
    store.close();
  });
});

describe('garbage is collected between turns, not in them', () => {
  it('the controller says when a turn starts and when it has ended and the screen was told', async () => {
    const said: string[] = [];
    let end!: () => void;
    const agent: TurnAgent = {
      ...scriptedAgent(() => {}),
      runTurn: (_prompt, _signal, emit) =>
        new Promise<void>((resolve) => {
          end = () => {
            emit({ type: 'turn-ended', outcome: 'done', text: '' });
            resolve();
          };
        }),
    };
    const turns = new TurnController({
      agent,
      nowMs: () => performance.now(),
      onCrash: () => {},
      idle: { afterTurn: () => said.push(`after (${turns.getSnapshot().phase})`), cancel: () => said.push('cancel') },
    });
    turns.subscribe(() => said.push('told'));
    turns.start('go');
    expect(said).toEqual(['cancel']);
    await nextTick();
    end();
    await nextTick();
    expect(said).toEqual(['cancel', 'told', 'told', 'after (idle)']);
    turns.dispose();
  });

  it('collects once, a while after the last turn ended, and not when a turn started meanwhile', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let collected = 0;
      const idle = new IdleCollection(() => collected++, 150);
      idle.afterTurn();
      idle.afterTurn();
      vi.advanceTimersByTime(149);
      expect(collected).toBe(0);
      vi.advanceTimersByTime(1);
      expect(collected).toBe(1);
      idle.afterTurn();
      vi.advanceTimersByTime(100);
      idle.cancel();
      vi.advanceTimersByTime(1000);
      expect(collected).toBe(1);
      new IdleCollection(null, 150).afterTurn();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
