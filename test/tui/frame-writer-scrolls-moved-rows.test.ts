/**
 * When a band of rows moved up or down (the transcript scrolled, panes beside it did not), the
 * frame writer may have the terminal scroll the band (a scroll region, full width) and repair
 * what moved with it. Property: for any sequence of such frames, with panes on either side,
 * styles, backgrounds and wide characters, the terminal shows exactly each frame drawn whole.
 * And a scrolled transcript costs a fraction of the bytes the plain cell diff sends.
 */
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import Output from '../../src/tui/frame/ink-output';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';
import { fcRuns } from '../support/fc-runs';

const WIDTH = 28;
const HEIGHT = 10;
const colour = new Chalk({ level: 3 });

const TEXTS = [
  'plain text',
  '',
  'a',
  '   x',
  'a line longer than the middle column is wide',
  colour.red('red') + ' then ' + colour.bold.blue('bold blue'),
  colour.bold('b') + colour.dim('d') + colour.bold.dim('bd'),
  colour.bgRgb(30, 30, 60)(' selected row ') + colour.dim('dim'),
  colour.inverse('inv') + colour.underline('under') + colour.italic('it'),
  colour.bgGreen('      '),
  '宽字符 and ascii',
  '中' + colour.red('文') + 'x中',
  'emoji 👍🏽 flag 🇫🇷',
  '╭ border ─────╮',
  `${colour.cyan('⠋')} running · seq 12`,
  // Colours the 256-colour palette holds exactly (sent by index), beside one it does not, and
  // bold or dim taken off while the colour stays.
  colour.bold.hex('#d7afff')('◆') + ' ' + colour.hex('#d0d0d0')('text') + colour.hex('#d0d0d1')('near'),
  colour.bgHex('#262626').hex('#bcbcbc')(' bar ') +
    colour.bgHex('#262626').bold.hex('#5fafff')('⏎') +
    colour.dim.hex('#808080')(' dim'),
  colour.bold.dim('both') + colour.dim('dim') + colour.hex('#000087')('blue 18'),
];

const textArb = fc.oneof(fc.constantFrom(...TEXTS), fc.stringMatching(/^[ab中 ]{0,8}$/));

/** How the rows beside the transcript look. */
const PANES = ['blank', 'border', 'content', 'background'] as const;
type Pane = (typeof PANES)[number];

const layoutArb = fc.record({
  left: fc.integer({ min: 0, max: 7 }),
  right: fc.integer({ min: 0, max: 8 }),
  header: fc.integer({ min: 0, max: 2 }),
  footer: fc.integer({ min: 0, max: 2 }),
  leftPane: fc.constantFrom(...PANES),
  rightPane: fc.constantFrom(...PANES),
});
type Layout = typeof layoutArb extends fc.Arbitrary<infer T> ? T : never;

const stepArb = fc.record({
  /** Lines added to the transcript (it scrolls up by as many while it follows the end). */
  append: fc.array(textArb, { maxLength: 4 }),
  /** Text added to the last line (a streamed token). */
  grow: fc.option(fc.constantFrom('x', ' word', '中', colour.green(' ok')), { nil: undefined }),
  /** The window moved back (> 0) or forward through the transcript. */
  back: fc.integer({ min: -3, max: 3 }),
  /** A pane row rewritten. */
  pane: fc.option(fc.record({ row: fc.nat(HEIGHT - 1), text: textArb }), { nil: undefined }),
  header: fc.option(textArb, { nil: undefined }),
});
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

interface State {
  log: string[];
  back: number;
  panes: Map<number, string>;
  header: string;
}

function paneText(pane: Pane, width: number, row: number, panes: Map<number, string>): string {
  if (pane === 'blank') return '';
  if (pane === 'border') return `│${' '.repeat(Math.max(0, width - 2))}│`;
  if (pane === 'background') return colour.bgBlue(' '.repeat(width));
  return panes.get(row) ?? `r${row}`;
}

function render(layout: Layout, state: State): string {
  const output = new Output({ width: WIDTH, height: HEIGHT });
  const top = layout.header;
  const bottom = HEIGHT - layout.footer;
  const middle = { x1: layout.left, x2: WIDTH - layout.right };
  output.clip({ x1: 0, x2: WIDTH });
  for (let y = 0; y < top; y++) output.write(0, y, `${state.header} ${y}`, { transformers: [] });
  for (let y = bottom; y < HEIGHT; y++) output.write(0, y, colour.inverse(`status ${y}`), { transformers: [] });
  output.unclip();
  for (let y = top; y < bottom; y++) {
    output.clip({ x1: 0, x2: layout.left });
    output.write(0, y, paneText(layout.leftPane, layout.left, y, state.panes), { transformers: [] });
    output.unclip();
    output.clip({ x1: middle.x2, x2: WIDTH });
    output.write(middle.x2, y, paneText(layout.rightPane, layout.right, y, state.panes), { transformers: [] });
    output.unclip();
  }
  const rows = bottom - top;
  const end = Math.max(0, state.log.length - state.back);
  const shown = state.log.slice(Math.max(0, end - rows), end);
  output.clip(middle);
  shown.forEach((line, i) => output.write(middle.x1, top + i, line, { transformers: [] }));
  output.unclip();
  return output.get().output;
}

function frames(layout: Layout, log: readonly string[], steps: readonly Step[]): string[] {
  const state: State = { log: [...log], back: 0, panes: new Map(), header: 'tole' };
  const out = [render(layout, state)];
  for (const step of steps) {
    state.log.push(...step.append);
    if (step.grow !== undefined && state.log.length > 0) state.log[state.log.length - 1] += step.grow;
    state.back = Math.min(Math.max(0, state.back + step.back), state.log.length);
    if (step.pane) state.panes.set(step.pane.row, step.pane.text);
    if (step.header !== undefined) state.header = step.header;
    out.push(render(layout, state));
  }
  return out;
}

let scrolledFrames = 0;

async function check(sequence: readonly string[]): Promise<void> {
  const out = new FakeStdout(WIDTH, HEIGHT);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  const term = terminal(WIDTH, HEIGHT);
  try {
    for (const frame of sequence) {
      out.frames.length = 0;
      writer.stream.write(frame);
      const sent = out.frames.join('');
      if (/\x1b\[\d+;\d+r/.test(sent)) scrolledFrames++;
      await flush(term, sent);
      expect(cells(term)).toEqual(await wholeDraw(frame, WIDTH, HEIGHT));
    }
  } finally {
    term.dispose();
  }
}

/** A 120x40 screen: a tree pane, the transcript, two panes on the right, a status bar. */
function wideScreen(transcript: readonly string[], sideRow: (row: number) => string): string {
  const rows: string[] = [];
  const fit = (text: string, width: number): string => text.slice(0, width).padEnd(width);
  for (let y = 0; y < 40; y++) {
    if (y === 0 || y === 39) {
      rows.push(colour.inverse(fit(` tole · status ${y}`, 120)));
      continue;
    }
    const line = transcript[y - 1] ?? '';
    rows.push(
      `${colour.dim(`│${fit(sideRow(y), 30)}│`)}${colour.green(fit(line, 54))}${colour.dim(`│${fit(sideRow(y + 1000), 32)}│`)}`,
    );
  }
  return rows.join('\n');
}

function bytesOf(first: string, second: string, scroll: boolean): number {
  const out = new FakeStdout(120, 40);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  writer.scroll = scroll;
  writer.stream.write(first);
  out.frames.length = 0;
  writer.stream.write(second);
  return Buffer.byteLength(out.frames.join(''));
}

describe('the frame writer scrolls a band of rows that moved', () => {
  it('and leaves the terminal as drawing each frame whole would, panes beside the band or not', async () => {
    scrolledFrames = 0;
    await fc.assert(
      fc.asyncProperty(
        layoutArb,
        fc.array(textArb, { maxLength: 12 }),
        fc.array(stepArb, { minLength: 1, maxLength: 8 }),
        async (layout, log, steps) => {
          await check(frames(layout, log, steps));
        },
      ),
      { numRuns: fcRuns(0.6) },
    );
    // The property held with the scroll path taken, not only with the plain diff.
    expect(scrolledFrames).toBeGreaterThan(10);
  });

  it('sends a transcript that moved up a line for a fraction of the plain diff, and never more', () => {
    const vocabulary = ['store', 'commit', 'records', 'the', 'reply', 'grows', 'fsync', 'branch', 'tree', 'token'];
    // Lines that share little with their neighbours, as prose does.
    const words = Array.from({ length: 60 }, (_, i) =>
      Array.from({ length: 9 }, (_, w) => vocabulary[(i * 7 + w * ((i % 3) + 1)) % vocabulary.length]).join(' '),
    );
    const blank = (): string => '';
    const before = wideScreen(words.slice(0, 38), blank);
    const after = wideScreen(words.slice(1, 39), blank);
    const scrolled = bytesOf(before, after, true);
    const plain = bytesOf(before, after, false);
    expect(plain).toBeGreaterThan(1500);
    expect(scrolled).toBeLessThan(plain / 5);
    // Panes that differ on every row: what moved with the band costs more to repair than it saves.
    const busy = (row: number): string => `entry ${row * 7919} ${'#'.repeat(row % 23)}`;
    const busyBefore = wideScreen(words.slice(0, 38), busy);
    const busyAfter = wideScreen(words.slice(1, 39), busy);
    expect(bytesOf(busyBefore, busyAfter, true)).toBeLessThanOrEqual(bytesOf(busyBefore, busyAfter, false));
  });
});
