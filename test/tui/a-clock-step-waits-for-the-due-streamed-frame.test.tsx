/**
 * A clock's step (the status bar's spinner, the turn's elapsed second: src/tui/screen/use-paced-step.ts)
 * that no frame drew yet is drawn by the streamed frame that is due, if one is, instead of by a
 * commit of its own: such a commit waited in the pacer for that frame anyway and made it React's
 * (the bypass's `held`), about one streamed frame in ten of a paced reply. The step's timer waits
 * for that frame to be over (StreamedFrames.flushed, on every path a streamed frame takes): drawn
 * without React, the step was drawn with it; published for React or dropped, the step commits then.
 * With no frame due, the step commits at once, as before.
 */
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreamedFrames } from '../../src/tui/frame/frame-pacer';
import { BypassContext, StreamBypass } from '../../src/tui/frame/streamed-bypass';
import { usePacedStep } from '../../src/tui/screen/use-paced-step';

const STEP_MS = 100;
const SLACK_MS = 40;
const START = 1_764_460_000_000;

/** Renders of the clock below, and the step each drew. */
let drawn: number[] = [];

function Clock(): React.ReactNode {
  const step = usePacedStep(true, STEP_MS, SLACK_MS);
  drawn.push(step);
  return <Text>{step}</Text>;
}

/** React's render (a microtask) and its effects (the scheduler's setImmediate, not faked here) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The clock under a screen's bypass, which knows the streamed frames the turn controller asks for. */
async function mount() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: START });
  drawn = [];
  const frames = new StreamedFrames();
  const bypass = new StreamBypass();
  bypass.attach(null, () => false, frames);
  const app = render(
    <BypassContext.Provider value={bypass}>
      <Clock />
    </BypassContext.Provider>,
  );
  // Mounted, and the step's timer armed (an effect).
  await settle();
  return {
    frames,
    bypass,
    app,
    /** The clocks on by `ms`, firing the timers due, and React's work run. */
    async advance(ms: number): Promise<void> {
      await vi.advanceTimersByTimeAsync(ms);
      await settle();
    },
    settle,
    /** A streamed frame drawn without React now, as the turn controller ends it (drawnWithoutReact). */
    drawnWithoutReact(): void {
      bypass.drawnAtMs = Date.now();
      frames.flushed(false);
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a clock's step with a streamed frame due", () => {
  it('commits at once when no streamed frame is due', async () => {
    const clock = await mount();
    const first = drawn.length;
    await clock.advance(STEP_MS + SLACK_MS);
    expect(drawn.length).toBe(first + 1);
    expect(drawn.at(-1)).toBe(Math.floor(Date.now() / STEP_MS));
    clock.app.unmount();
  });

  it('is drawn by the due frame when that frame is drawn without React: no commit of its own', async () => {
    const clock = await mount();
    const first = drawn.length;
    // A streamed frame is due when the step's timer fires: the timer waits for it.
    clock.frames.due(30);
    await clock.advance(STEP_MS + SLACK_MS);
    expect(drawn.length).toBe(first);
    clock.drawnWithoutReact();
    await clock.settle();
    expect(drawn.length).toBe(first);
    // The next step's timer was armed past the step the frame drew: with no frame due, it commits.
    await clock.advance(STEP_MS);
    expect(drawn.length).toBe(first + 1);
    expect(drawn.at(-1)).toBe(Math.floor(Date.now() / STEP_MS));
    clock.app.unmount();
  });

  it('commits when the due frame is published for React (or dropped) instead', async () => {
    for (const published of [true, false]) {
      const clock = await mount();
      const first = drawn.length;
      clock.frames.due(30);
      await clock.advance(STEP_MS + SLACK_MS);
      expect(drawn.length).toBe(first);
      // The frame fell back (or its text was dropped): nothing drew the step, so it commits now.
      clock.frames.flushed(published);
      await clock.settle();
      expect(drawn.length).toBe(first + 1);
      expect(drawn.at(-1)).toBe(Math.floor(Date.now() / STEP_MS));
      clock.app.unmount();
    }
  });

  it('stops waiting when it is drawn meanwhile: the frame then wakes nothing', async () => {
    const clock = await mount();
    clock.frames.due(30);
    await clock.advance(STEP_MS + SLACK_MS);
    const waiting = drawn.length;
    // Something else commits the clock with the new step (its effect starts over, past that step).
    clock.app.rerender(
      <BypassContext.Provider value={clock.bypass}>
        <Clock />
      </BypassContext.Provider>,
    );
    await clock.settle();
    expect(drawn.length).toBe(waiting + 1);
    clock.frames.flushed(true);
    await clock.settle();
    expect(drawn.length).toBe(waiting + 1);
    clock.app.unmount();
  });

  it('waits for the due frame only: none is due once it is over, and a later step commits at once', async () => {
    const clock = await mount();
    expect(clock.frames.afterDueFrame(() => {})).toBeNull();
    clock.frames.due(30);
    const calls: string[] = [];
    const off = clock.frames.afterDueFrame(() => calls.push('kept'));
    clock.frames.afterDueFrame(() => calls.push('other'))?.();
    expect(off).not.toBeNull();
    clock.frames.flushed(false);
    clock.frames.flushed(false);
    // Called once, and a removed one not at all.
    expect(calls).toEqual(['kept']);
    expect(clock.frames.afterDueFrame(() => {})).toBeNull();
    clock.app.unmount();
  });
});
