/**
 * The frame that shows a reply's end is drawn as soon as React has it, not when a render
 * throttle's timer next runs: with the clock and every timer stopped (fake timers, only
 * setImmediate real), the reply's last words reach the terminal right after a streamed frame.
 * Ink's own 30 fps throttle held that frame until its timer ran. A burst of frames beyond the
 * pacer's allowance still waits for its slot, and is then drawn once, showing the latest tree.
 * A key typed while a reply streams is drawn at once too, not held for the next streamed frame.
 */
import { Text, render } from 'ink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FramePacer, StreamedFrames } from '../../src/tui/frame/frame-pacer';
import { PacedFrames } from '../../src/tui/frame/PacedFrames';
import { runTui } from '../../src/tui/run-tui';
import { FRAME_MS, type TurnAgent } from '../../src/tui/screen/turn-controller';
import type { EventSink } from '../../src/core/session/events';
import { FakeStdin, FakeStdout, KEYS, tuiOptions } from './harness';

afterEach(() => {
  vi.useRealTimers();
});

/** Stops the clock and every timer but setImmediate (what tole uses to tell the screen of a change). */
function stopTheClock(): void {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
  });
}

const turnOfTheLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Turns of the event loop (no timer runs) until `seen` holds, or false after many. */
async function withoutTimers(seen: () => boolean): Promise<boolean> {
  // A bound on turns of the loop, not on time: a loaded machine may need more of them.
  for (let i = 0; i < 2000; i++) {
    if (seen()) return true;
    await turnOfTheLoop();
  }
  return seen();
}

/** An agent whose running turn hands its event sink to the test, and ends when aborted. */
function heldAgent(): TurnAgent & { emit: EventSink | null } {
  const agent = {
    model: 'm',
    emit: null as EventSink | null,
    runTurn: (_prompt: string, signal: AbortSignal, emit: EventSink) => {
      agent.emit = emit;
      return new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve({}), { once: true }));
    },
    resume: async () => 0,
    retry: async () => ({}),
    steer: () => false,
    takeSteering: () => null,
  };
  return agent;
}

/**
 * A session on the stopped clock whose turn is running and has drawn its first streamed frame
 * ("alpha bravo "): the agent's event sink is the test's to drive from there.
 */
async function aTurnStreaming() {
  stopTheClock();
  const stdout = new FakeStdout(120, 30);
  stdout.isTTY = true;
  const stdin = new FakeStdin();
  const agent = heldAgent();
  const exit = runTui(tuiOptions(stdout, stdin, { agent }));
  const written = (): string => stdout.frames.join('');
  // Setting up, the clock moves freely between steps: a few turns of the loop and timers run, and
  // more until `done` holds (a bound on turns, not on time, only ends a failing run).
  const settle = async (done = (): boolean => true): Promise<void> => {
    for (let i = 0; i < 5; i++) await turnOfTheLoop();
    vi.advanceTimersByTime(200);
    for (let i = 0; i < 2000 && !done(); i++) {
      await turnOfTheLoop();
      vi.advanceTimersByTime(20);
    }
    expect(done()).toBe(true);
  };
  expect(written()).toContain('type a prompt');
  stdin.write('go');
  await settle();
  stdin.write(KEYS.enter);
  await settle(() => agent.emit !== null);
  const emit = agent.emit!;

  // A streamed frame: text gathered for a frame's time, then drawn.
  emit({ type: 'text', delta: 'alpha bravo ' });
  vi.advanceTimersByTime(FRAME_MS);
  expect(await withoutTimers(() => written().includes('alpha bravo'))).toBe(true);
  return { stdout, stdin, emit, exit, written };
}

describe('the frame that shows a reply has ended', () => {
  it('reaches the terminal right after a streamed frame, with no timer run', async () => {
    const { stdout, stdin, emit, exit } = await aTurnStreaming();

    // The stream ends right after it: its last words and the attempt's end, no time passing.
    const before = stdout.frames.length;
    emit({ type: 'text', delta: 'zulu9end' });
    emit({ type: 'attempt', report: { model: 'm', attempt: 1, outcome: 'ok', usage: null, latencyMs: 1 } });
    expect(await withoutTimers(() => stdout.frames.slice(before).join('').includes('zulu9end'))).toBe(true);

    vi.useRealTimers();
    stdin.write('/quit');
    await turnOfTheLoop();
    stdin.write(KEYS.enter);
    await expect(exit).resolves.toMatchObject({ reason: 'quit' });
  });
});

describe('a key typed while a reply streams', () => {
  it('reaches the terminal at once, not with the next streamed frame', async () => {
    const { stdout, stdin, emit, exit, written } = await aTurnStreaming();

    // Text is due in a frame's time, and the clock stands still: a key typed now is drawn now.
    emit({ type: 'text', delta: 'charlie7 ' });
    // Each key's echo is drawn as it comes (the frame writer writes only what changed). One key a
    // read: keys read together are each a commit, and past the pacer's burst wait for its slot.
    for (const key of ['Z', '#']) {
      const before = stdout.frames.length;
      stdin.write(key);
      expect(await withoutTimers(() => stdout.frames.slice(before).join('').includes(key))).toBe(true);
    }
    expect(written()).not.toContain('charlie7');
    // The streamed frame still comes when its time does.
    vi.advanceTimersByTime(FRAME_MS);
    expect(await withoutTimers(() => written().includes('charlie7'))).toBe(true);

    vi.useRealTimers();
    for (const key of ['\x7f', '\x7f', '/quit']) {
      stdin.write(key);
      await turnOfTheLoop();
    }
    stdin.write(KEYS.enter);
    await expect(exit).resolves.toMatchObject({ reason: 'quit' });
  });
});

describe('frame pacing', () => {
  it('draws a few frames back to back at once, then one frame a slot with the latest tree', async () => {
    stopTheClock();
    const stdout = new FakeStdout(40, 5);
    stdout.isTTY = true;
    const pacing = { burst: 3, intervalMs: 50, streamGraceMs: 20 };
    const show = (n: number) => (
      <PacedFrames pacing={pacing}>
        <Text>frame {n}</Text>
      </PacedFrames>
    );
    const instance = render(show(0), {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 30,
    });
    const shown = (): string => stdout.frames.join('');
    // Ink draws the first frame itself; the next three come at once, back to back.
    for (const n of [1, 2, 3]) {
      instance.rerender(show(n));
      expect(shown()).toContain(`frame ${n}`);
    }
    // The allowance is spent: these wait for the next slot, and only the last is drawn.
    instance.rerender(show(4));
    instance.rerender(show(5));
    expect(shown()).not.toContain('frame 4');
    expect(shown()).not.toContain('frame 5');
    vi.advanceTimersByTime(pacing.intervalMs);
    expect(shown()).toContain('frame 5');
    expect(shown()).not.toContain('frame 4');
    instance.unmount();
  });

  it('gives back one frame an interval, up to the burst', () => {
    let now = 0;
    const draws: number[] = [];
    const clock = new StreamedFrames(() => now);
    const pacer = new FramePacer(() => draws.push(now), clock, { burst: 2, intervalMs: 10, streamGraceMs: 5 });
    pacer.request();
    pacer.request();
    expect(draws).toEqual([0, 0]);
    now = 5;
    pacer.request();
    expect(pacer.pending).toBe(true);
    pacer.dispose();
    now = 1000;
    pacer.request();
    pacer.request();
    pacer.request();
    expect(draws).toEqual([0, 0, 1000, 1000]);
    expect(pacer.pending).toBe(true);
    pacer.dispose();
  });

  it('while streamed text is due, draws other commits with its frame, not before', () => {
    stopTheClock();
    let now = 0;
    const draws: string[] = [];
    let tree = 'idle';
    const stream = new StreamedFrames(() => now);
    const pacer = new FramePacer(() => draws.push(tree), stream, { burst: 4, intervalMs: 10, streamGraceMs: 5 });
    // Text came; its frame is due in 50. A spinner step meanwhile waits for it.
    stream.due(50);
    now = 20;
    tree = 'spinner';
    pacer.request();
    expect(draws).toEqual([]);
    // The text is published: its commit is drawn at once, spinner and all, and nothing after.
    now = 50;
    stream.flushed(true);
    tree = 'spinner+text';
    pacer.request();
    expect(draws).toEqual(['spinner+text']);
    expect(pacer.pending).toBe(false);
    // The stream ended (flushed, nothing due): the next commit is drawn at once.
    now = 52;
    stream.flushed(false);
    tree = 'reply ended';
    pacer.request();
    expect(draws).toEqual(['spinner+text', 'reply ended']);
    // A streamed frame that never comes: the waiting commit is drawn once the grace is over.
    stream.due(50);
    tree = 'key echo';
    pacer.request();
    expect(draws).toHaveLength(2);
    now = 52 + 50 + 5;
    vi.advanceTimersByTime(55);
    expect(draws).toEqual(['spinner+text', 'reply ended', 'key echo']);
    pacer.dispose();
  });

  it("draws a key's commits at once while text is due, but not a commit after the key's turn", async () => {
    stopTheClock();
    let now = 0;
    const draws: string[] = [];
    let tree = 'idle';
    const stream = new StreamedFrames(() => now);
    const pacer = new FramePacer(() => draws.push(tree), stream, { burst: 2, intervalMs: 10, streamGraceMs: 5 });
    stream.due(50);
    // A spinner step waits for the streamed frame; a key comes: its commit is drawn now, spinner and all.
    tree = 'spinner';
    pacer.request();
    expect(draws).toEqual([]);
    stream.keyed();
    tree = 'spinner+key';
    pacer.request();
    expect(draws).toEqual(['spinner+key']);
    expect(pacer.pending).toBe(false);
    // A key that changes nothing commits nothing, and leaves no frame behind: once its turn is
    // over, the next spinner step waits for the streamed frame again.
    stream.keyed();
    await turnOfTheLoop();
    await turnOfTheLoop();
    tree = 'spinner 2';
    pacer.request();
    expect(draws).toEqual(['spinner+key']);
    // A key whose commit is also the streamed frame's: drawn once, and nothing waits after it.
    stream.keyed();
    stream.flushed(true);
    tree = 'text+key';
    pacer.request();
    expect(draws).toEqual(['spinner+key', 'text+key']);
    expect(pacer.pending).toBe(false);
    // A storm of keys stays within the allowance: past it, the latest tree at the next slot.
    stream.due(50);
    for (const key of ['a', 'b', 'c']) {
      stream.keyed();
      tree = key;
      pacer.request();
    }
    expect(draws).toEqual(['spinner+key', 'text+key']);
    now = 10;
    vi.advanceTimersByTime(10);
    expect(draws).toEqual(['spinner+key', 'text+key', 'c']);
    pacer.dispose();
  });
});
