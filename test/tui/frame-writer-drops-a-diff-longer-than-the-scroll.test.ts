/**
 * When a band of rows moved, the frame writer compares the scroll with the rows diffed in place
 * and sends the shorter. The in-place diff is dropped as soon as it has grown longer than the
 * scroll, instead of being built whole and thrown away. Property: for any sequence of frames the
 * bytes sent are exactly those of a writer that builds every diff whole, frame after frame (so the
 * pen a dropped diff leaves is the pen a whole one leaves), and the drop is taken.
 */
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { fcRuns } from '../support/fc-runs';
import { FakeStdout } from './harness';

const colour = new Chalk({ level: 3 });

const WORDS = ['store', 'commit', '宽字符', 'the', 'reply', 'grows', '👍🏽', 'fsync', 'x', 'token', '中文'];
const STYLES = [
  (s: string) => s,
  (s: string) => colour.green(s),
  (s: string) => colour.bold(s),
  (s: string) => colour.dim.hex('#808080')(s),
  (s: string) => colour.bgHex('#262626').hex('#bcbcbc')(s),
  (s: string) => colour.bold.dim(s),
];

const lineArb = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.nat(STYLES.length - 1)), { maxLength: 9 })
  .map((words) => words.map(([word, style]) => STYLES[style]!(word)).join(' '));

interface Layout {
  width: number;
  height: number;
  left: number;
  right: number;
  busy: boolean;
}

const layoutArb: fc.Arbitrary<Layout> = fc.record({
  width: fc.integer({ min: 30, max: 90 }),
  height: fc.oneof(fc.integer({ min: 3, max: 6 }), fc.integer({ min: 7, max: 24 })),
  left: fc.integer({ min: 0, max: 12 }),
  right: fc.integer({ min: 0, max: 12 }),
  busy: fc.boolean(),
});

/** Cut to `width` columns by code point (wide characters may overflow: the writer copes as Ink's rows do). */
function fit(text: string, width: number): string {
  return [...text].slice(0, width).join('').padEnd(width);
}

function screen(layout: Layout, transcript: readonly string[], top: number, tick: number): string {
  const middle = Math.max(1, layout.width - layout.left - layout.right - 2);
  const rows: string[] = [];
  for (let y = 0; y < layout.height; y++) {
    if (y === layout.height - 1) {
      rows.push(colour.inverse(fit(` tole · status ${tick}`, layout.width)));
      continue;
    }
    const side = (offset: number): string => (layout.busy ? `entry ${(y + top + offset) * 7919}` : '');
    const line = transcript[top + y] ?? '';
    rows.push(
      `${colour.dim(`${fit(side(0), layout.left)}│`)}${line}\x1b[0m${' '.repeat(Math.max(0, middle - 40))}${colour.dim(`│${fit(side(1000), layout.right)}`)}`,
    );
  }
  return rows.join('\n');
}

interface Writer {
  out: FakeStdout;
  writer: FrameWriter;
}

function writer(layout: Layout, drops: boolean): Writer {
  const out = new FakeStdout(layout.width, layout.height);
  const made = new FrameWriter(out as unknown as NodeJS.WriteStream);
  made.dropsLongDiffs = drops;
  return { out, writer: made };
}

function sent(w: Writer, frame: string): string {
  w.out.frames.length = 0;
  w.writer.stream.write(frame);
  return w.out.frames.join('');
}

describe('the frame writer drops an in-place diff once it is longer than the scroll', () => {
  it('and sends the same bytes as building every diff whole, for any sequence of frames', () => {
    let dropped = 0;
    let frames = 0;
    fc.assert(
      fc.property(
        layoutArb,
        fc.array(lineArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.record({ by: fc.integer({ min: -2, max: 3 }), grow: fc.option(lineArb, { nil: undefined }) }), {
          minLength: 1,
          maxLength: 10,
        }),
        (layout, lines, steps) => {
          const transcript = [...lines];
          const dropping = writer(layout, true);
          const whole = writer(layout, false);
          let top = 0;
          let tick = 0;
          const first = screen(layout, transcript, top, tick);
          expect(sent(dropping, first)).toBe(sent(whole, first));
          for (const step of steps) {
            if (step.grow !== undefined) transcript.push(step.grow);
            top = Math.max(0, Math.min(transcript.length - 1, top + step.by));
            tick++;
            const frame = screen(layout, transcript, top, tick);
            expect(sent(dropping, frame)).toBe(sent(whole, frame));
            frames++;
          }
          expect(whole.writer.diffsDropped).toBe(0);
          dropped += dropping.writer.diffsDropped;
        },
      ),
      { numRuns: fcRuns(1) },
    );
    // The property held with diffs dropped, not only with every diff built whole.
    expect(dropped).toBeGreaterThan(frames / 20);
  });

  it('keeps an in-place diff shorter than the scroll, however close to it', () => {
    // Three rows moved up two: the plain diff is shorter than the scroll but more than half of it.
    const layout: Layout = { width: 47, height: 4, left: 0, right: 2, busy: false };
    const transcript = ['', 'store', 'store store', ''];
    const dropping = writer(layout, true);
    const whole = writer(layout, false);
    const noScroll = writer(layout, false);
    noScroll.writer.scroll = false;
    for (const [top, tick] of [
      [0, 0],
      [2, 1],
      [2, 2],
    ] as const) {
      const frame = screen(layout, transcript, top, tick);
      const bytes = sent(dropping, frame);
      expect(bytes).toBe(sent(whole, frame));
      expect(bytes).toBe(sent(noScroll, frame));
    }
  });

  it('leaves the pen as a whole diff does: the frame after a dropped one moves the same way', () => {
    const layout: Layout = { width: 80, height: 20, left: 10, right: 10, busy: false };
    const transcript = Array.from(
      { length: 40 },
      (_, i) => `line ${i} ${colour.green('reply')} grows ${'中'.repeat(i % 5)}`,
    );
    const dropping = writer(layout, true);
    const whole = writer(layout, false);
    for (const frame of [screen(layout, transcript, 0, 0), screen(layout, transcript, 1, 0)])
      expect(sent(dropping, frame)).toBe(sent(whole, frame));
    expect(dropping.writer.diffsDropped).toBe(1);
    // One row changed (the status bar's tick): a single-row frame whose first move depends on the pen.
    const next = screen(layout, transcript, 1, 1);
    const bytes = sent(dropping, next);
    expect(bytes).toBe(sent(whole, next));
    expect(bytes).not.toBe('');
  });
});
