/**
 * The bytes of tole's first screen at 120 x 40 (what a terminal receives before the user can type)
 * are bounded: a launch's bytes were 1.65x Claude Code's, 4.0 KB of them this first frame, and a
 * change that makes the screen dearer to draw fails here rather than in a benchmark run.
 * Deterministic: the frame is a fixed session's, drawn whole on a blank screen by the frame writer
 * that ships; no clock decides anything.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { FakeStdout, renderScreen, type Screen } from './harness';
import { emptyStore, prepareSession } from './session-fixture';
import { inFullColor } from './full-color';

/**
 * Bytes the first frame may take, in colour: 2,639 and 3,595 B with the rules a darker grey than
 * the muted text (each row of text switched colour at every rule), 2,233 and 3,243 B with the rules
 * in the muted text's colour; 2,001 B for the new session once its welcome left out what the
 * prompt's row and the status bar say and its usage rows drew their 0s muted; 1,784 and 3,164 B
 * with a key among the status bar's hints left for the frame's end (no colour switch around each)
 * and a welcome of what tole keeps and the session's path from ~. (Without colour: 2,908 and 3,169 B
 * with four boxed panes, 1,833 and 2,159 B with ruled ones.)
 */
const BUDGET = { launch: 1_850, prepared: 3_300 };
/**
 * The same with runs of one character repeated (REP), where the terminal said it does it: 1,713
 * and 2,977 B (2,001 and 3,243 B without). A start's first frame goes out before the answer (no
 * frame waits for it), so this is what a whole redraw after a yes costs (a resize, back from the
 * editor). 1,496 and 2,898 B with the keys and the welcome as in `BUDGET`.
 */
const REPEATED_BUDGET = { launch: 1_550, prepared: 3_000 };
/**
 * Inside tmux (no REP for `─`), with runs of box-drawing characters in the DEC special graphics set
 * (src/tui/frame/line-set.ts): 1,749 and 3,009 B when this was written; 1,536 and 2,844 B with the
 * vertical rules of the blank rows drawn down their columns (`linesDown` in src/tui/frame/row-diff.ts);
 * 1,306 and 2,779 B with the keys and the welcome as in `BUDGET`.
 */
const LINE_SET_BUDGET = { launch: 1_350, prepared: 2_900 };

let screen: Screen | undefined;
// Colours as a 256-colour or true-colour terminal gets them (the pty traces set COLORTERM=truecolor).
inFullColor();
afterEach(() => {
  screen?.unmount();
  screen = undefined;
});

/** What the frame writer sends to draw `frame` on a blank 120 x 40 screen. */
async function bytesToDraw(frame: string, repeats = false, lineSet = false): Promise<number> {
  const out = new FakeStdout(120, 40);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  writer.drawLineSet(lineSet);
  const answer = Promise.resolve(repeats);
  writer.repeatsOnceAnswered(answer);
  await answer;
  writer.stream.write(frame);
  return Buffer.byteLength(out.frames.join(''), 'utf8');
}

describe('the first frame at 120 x 40', () => {
  it('of a new session stays within its byte budget', async () => {
    screen = renderScreen({ store: emptyStore(), columns: 120, rows: 40 });
    const frame = await screen.waitFor(/type a prompt[\s\S]*Idle/);
    expect(frame).toContain('registers');
    const bytes = await bytesToDraw(frame);
    expect(bytes, `${bytes} B`).toBeLessThanOrEqual(BUDGET.launch);
    const repeated = await bytesToDraw(frame, true);
    expect(repeated, `${repeated} B`).toBeLessThanOrEqual(REPEATED_BUDGET.launch);
    const lined = await bytesToDraw(frame, false, true);
    expect(lined, `${lined} B`).toBeLessThanOrEqual(LINE_SET_BUDGET.launch);
    console.log('LAUNCH', bytes, 'REPEATED', repeated, 'LINE SET', lined);
  });

  it('of a session with two branches stays within its byte budget', async () => {
    screen = renderScreen({ store: prepareSession().store, columns: 120, rows: 40 });
    const frame = await screen.waitFor(/2 branches[\s\S]*type a prompt/);
    const bytes = await bytesToDraw(frame);
    expect(bytes, `${bytes} B`).toBeLessThanOrEqual(BUDGET.prepared);
    const repeated = await bytesToDraw(frame, true);
    expect(repeated, `${repeated} B`).toBeLessThanOrEqual(REPEATED_BUDGET.prepared);
    const lined = await bytesToDraw(frame, false, true);
    expect(lined, `${lined} B`).toBeLessThanOrEqual(LINE_SET_BUDGET.prepared);
    console.log('PREPARED', bytes, 'REPEATED', repeated, 'LINE SET', lined);
  });
});
