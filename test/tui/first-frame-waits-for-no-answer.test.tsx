/**
 * tole asks the terminal whether it repeats characters (REP) when the screen opens, and no frame
 * waits for the answer: over a slow link (ssh) the answer is a round trip away, and the first
 * frame held for it put that round trip on every start. Through runTui on the shipped renderer:
 * the first frame is on the terminal before any answer was sent (and with none ever sent), drawn
 * plain; after a yes the next frame repeats its rules, after a no none does; the answer never
 * reaches the prompt as keys.
 */
import { describe, expect, it } from 'vitest';
import { REPEAT_PROBE } from '../../src/tui/frame/repeat-probe';
import { runTui } from '../../src/tui/run-tui';
import { eventually, FakeStdin, FakeStdout, KEYS, tuiOptions } from './harness';

const REP = /\x1b\[\d+b/;

/** A screen opened with the question asked, on a terminal that has not answered. */
function opened() {
  const stdout = new FakeStdout(80, 24);
  stdout.isTTY = true;
  const stdin = new FakeStdin();
  const exit = runTui(tuiOptions(stdout, stdin, { repeatRuns: true }));
  /** Ctrl-C clears typed text first, then quits. */
  const quit = async (typed: boolean): Promise<void> => {
    if (typed) {
      const before = stdout.frames.length;
      stdin.write(KEYS.ctrlC);
      await eventually(() => expect(stdout.frames.slice(before).join('')).toMatch(/type a prompt/));
    }
    stdin.write(KEYS.ctrlC);
    await exit;
  };
  return { stdout, stdin, quit };
}

/** Resizes the terminal (a whole redraw) and returns what was written for it. */
async function redrawn(stdout: FakeStdout, columns: number): Promise<string> {
  const before = stdout.frames.length;
  stdout.columns = columns;
  stdout.emit('resize');
  await eventually(() => expect(stdout.frames.slice(before).join('')).toMatch(/Idle/));
  return stdout.frames.slice(before).join('');
}

describe('the first frame and the question whether the terminal repeats', () => {
  it('the first frame goes out before any answer, plain; a yes brings REP from the next frame', async () => {
    const { stdout, stdin, quit } = opened();
    try {
      // runTui draws the first frame before it returns: no answer could have been sent yet.
      const first = stdout.frames.join('');
      expect(first).toContain(REPEAT_PROBE);
      expect(first).toMatch(/type a prompt/);
      expect(first.indexOf(REPEAT_PROBE)).toBeLessThan(first.indexOf('type a prompt'));
      expect(first.slice(first.indexOf(REPEAT_PROBE) + REPEAT_PROBE.length)).not.toMatch(REP);
      stdin.write('\x1b[1;4R');
      stdin.write('hi');
      await eventually(() => expect(stdout.frames.slice(-3).join('')).toContain('hi'));
      const again = await redrawn(stdout, 100);
      expect(again).toMatch(REP);
      // The answer was taken out of the keys: the prompt holds what was typed, and nothing else.
      expect(again).toMatch(/hi/);
      expect(again).not.toMatch(/1;4R|\[1;4/);
    } finally {
      await quit(true);
    }
  });

  it('after a no, and with no answer at all, no frame repeats', async () => {
    for (const answer of ['\x1b[1;2R', null]) {
      const { stdout, stdin, quit } = opened();
      try {
        expect(stdout.frames.join('')).toMatch(/type a prompt/);
        if (answer !== null) stdin.write(answer);
        stdin.write('x');
        await eventually(() => expect(stdout.frames.slice(-3).join('')).toContain('x'));
        const again = await redrawn(stdout, 100);
        expect(again).not.toMatch(REP);
        expect(stdout.frames.join('').replace(REPEAT_PROBE, '')).not.toMatch(REP);
      } finally {
        await quit(true);
      }
    }
  });
});
