/**
 * The frame writer sends only the cells that changed. Property: for any sequence of frames, a
 * terminal fed everything it sent shows, after each frame, exactly what a fresh terminal shows
 * when that frame is drawn whole: every cell's character, width, colours and attributes; with
 * runs of one character repeated (REP) or not, and runs of box-drawing characters in the DEC
 * special graphics set (as inside tmux) or not.
 */
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import Output from '../../src/tui/frame/ink-output';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';
import { fcRuns } from '../support/fc-runs';

const WIDTH = 16;
const HEIGHT = 6;
const colour = new Chalk({ level: 3 });

const TEXTS = [
  'plain text',
  'a',
  ' ',
  '   x',
  'abcdefghijklmnopqrstu',
  colour.red('red') + ' then ' + colour.bold.blue('bold blue'),
  colour.bold('b') + colour.dim('d') + colour.bold.dim('bd'),
  colour.bgRgb(30, 30, 60)(' selected row ') + colour.dim('dim'),
  colour.inverse('inv') + colour.underline('under') + colour.italic('it') + colour.strikethrough('st'),
  colour.bgGreen('    '),
  '宽字符 and ascii',
  '中' + colour.red('文') + 'x',
  'emoji 👍🏽 flag 🇫🇷 done',
  'e\u0301 combining',
  '╭ border ─────────╮',
  // Box-drawing characters the graphics set has, in runs long and short, across styles.
  '┌──┬──┐ ├┼┤ └┴┘' + colour.red('││││') + colour.bold('─'),
  '│ ◆ tole ⚙ ✓ ✘ ●',
  '\x1b[38;5;208morange\x1b[39m and \x1b[48;2;1;2;3mbg\x1b[49m',
  `${colour.cyan('⠋')} running · seq 12`,
  // Colours the 256-colour palette holds exactly (sent by index), beside one it does not, and
  // bold or dim taken off while the colour stays.
  colour.bold.hex('#d7afff')('◆') + ' ' + colour.hex('#d0d0d0')('text') + colour.hex('#d0d0d1')('near'),
  colour.bgHex('#262626').hex('#bcbcbc')(' bar ') +
    colour.bgHex('#262626').bold.hex('#5fafff')('⏎') +
    colour.dim.hex('#808080')(' dim'),
  colour.bold.dim('both') + colour.dim('dim') + colour.hex('#000087')('blue 18'),
  // Spaces in styles a space does not show (written as any space, or skipped), beside ones it does.
  colour.red('a   ') + colour.underline('  ') + colour.bold.italic('   b') + colour.inverse(' ') + colour.dim('  '),
  colour.strikethrough('  ') + colour.hex('#5fafff')('  │ ') + colour.overline(' ') + colour.bgRed(' '),
  // Rules between panes' text, each left for the end of the frame and drawn with the others.
  colour.ansi256(244)('ab') + colour.ansi256(239)('│') + ' ' + colour.ansi256(244)('cd') + colour.ansi256(239)('│'),
  colour.ansi256(244).dim('x') +
    colour.ansi256(111).bold('┬') +
    colour.ansi256(244).dim('y') +
    colour.bgBlue('│') +
    'z',
  // Keys among a bar's hints, runs of a few cells in another style, each left for the end of the
  // frame and drawn with the others of its style; a run cut by a wide character, one of eight cells
  // and one of nine, a run followed by blanks, and a run in a style a space does not show.
  colour.bgHex('#262626').hex('#bcbcbc')(' ⏎ ') +
    colour.bgHex('#262626').bold.hex('#5fafff')('Tab') +
    colour.bgHex('#262626').hex('#bcbcbc')(' panes ') +
    colour.bgHex('#262626').bold.hex('#5fafff')('M-⏎') +
    colour.bgHex('#262626').hex('#bcbcbc')(' q'),
  colour.ansi256(244)('a') + colour.ansi256(75).bold('ab中') + colour.ansi256(244)('c'),
  colour.ansi256(244)('x') +
    colour.red.bold('12345678') +
    colour.ansi256(244)('y') +
    colour.red.bold('123456789') +
    colour.ansi256(244)('z'),
  colour.ansi256(244)('ab') + colour.ansi256(75).bold('K ') + '   ' + colour.ansi256(244)('cd'),
  colour.ansi256(244)('ab') + colour.bold.italic('  ') + colour.ansi256(244)('cd') + colour.bold.italic(' e '),
  // A vertical rule alone (three or more one under another go down their column in the graphics set).
  colour.ansi256(244)('│'),
  '├',
  // Runs of one character (repeated with REP where the terminal does it), in one style and across two.
  colour.ansi256(244)('─ a ──────────┬──'),
  colour.bold('════') + colour.dim('═════') + 'xxxxxxx',
  colour.bgAnsi256(235)('       ') + '!!!!!!',
];

interface Write {
  readonly x: number;
  readonly y: number;
  readonly text: string;
}

const writeArb: fc.Arbitrary<Write> = fc.record({
  x: fc.integer({ min: 0, max: WIDTH - 1 }),
  y: fc.integer({ min: 0, max: HEIGHT - 1 }),
  text: fc.oneof(fc.constantFrom(...TEXTS), fc.stringMatching(/^[ab中 ]{0,6}$/)),
});

/**
 * A frame is a base set of writes, some dropped, some added, all moved up or down (a scroll), and
 * those from a column on moved sideways (a word grown or shrunk before them: the terminal may
 * shift the rest of the row with insert- or delete-character).
 */
const stepArb = fc.record({
  drop: fc.array(fc.nat(12), { maxLength: 3 }),
  add: fc.array(writeArb, { maxLength: 3 }),
  shift: fc.integer({ min: -2, max: 2 }),
  sideways: fc.record({ from: fc.nat(WIDTH - 1), by: fc.integer({ min: -4, max: 4 }) }),
});

function render(writes: readonly Write[]): string {
  const output = new Output({ width: WIDTH, height: HEIGHT });
  // As Ink's boxes do: every write is clipped to the screen's width.
  output.clip({ x1: 0, x2: WIDTH });
  for (const w of writes) output.write(w.x, w.y, w.text, { transformers: [] });
  output.unclip();
  return output.get().output;
}

function frames(
  base: readonly Write[],
  steps: readonly {
    drop: readonly number[];
    add: readonly Write[];
    shift: number;
    sideways: { from: number; by: number };
  }[],
): string[] {
  const out = [render(base)];
  let writes = [...base];
  for (const step of steps) {
    writes = writes
      .filter((_, i) => !step.drop.includes(i))
      .concat(step.add)
      .map((w) => ({ ...w, y: w.y + step.shift, x: w.x >= step.sideways.from ? w.x + step.sideways.by : w.x }))
      .filter((w) => w.y >= 0 && w.y < HEIGHT && w.x >= 0 && w.x < WIDTH);
    out.push(render(writes));
  }
  return out;
}

/**
 * `parse`: each line gets a trailing reset, so the writer parses it from its text instead of
 * taking the cells Ink's output remembered for it; both ways must agree with the terminal.
 */
async function check(
  frames: readonly string[],
  parse: boolean,
  repeats: boolean,
  lineSet: boolean,
  stops: readonly number[] | null = null,
): Promise<void> {
  const sequence = parse
    ? frames.map((frame) =>
        frame
          .split('\n')
          .map((line) => `${line}\x1b[0m`)
          .join('\n'),
      )
    : frames;
  const out = new FakeStdout(WIDTH, HEIGHT);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  writer.drawLineSet(lineSet);
  const answer = Promise.resolve(repeats);
  writer.repeatsOnceAnswered(answer);
  await answer;
  if (stops !== null) writer.tabStops(() => stops);
  const term = terminal(WIDTH, HEIGHT);
  // Tab stops of the user's own (`tabs 3`), which the writer's must replace, not add to.
  await flush(term, '\x1b[3g\x1b[4G\x1bH\x1b[7G\x1bH\x1b[10G\x1bH\x1b[13G\x1bH\x1b[H');
  try {
    for (const frame of sequence) {
      out.frames.length = 0;
      writer.stream.write(frame);
      const sent = out.frames.join('');
      // The graphics set is never left chosen at a frame's end (whatever writes next would be drawn in it).
      expect(sent.split('\x1b(0').length).toBe(sent.split('\x1b(B').length);
      expect(sent.lastIndexOf('\x1b(0')).toBeLessThanOrEqual(sent.lastIndexOf('\x1b(B'));
      await flush(term, sent);
      expect(cells(term)).toEqual(await wholeDraw(frame, WIDTH, HEIGHT));
    }
  } finally {
    term.dispose();
  }
}

describe('the frame writer sends cell diffs', () => {
  it('that leave the terminal as drawing each frame whole would, for any sequence of frames', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(writeArb, { maxLength: 10 }),
        fc.array(stepArb, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        // Tab stops where panes start (some outside the screen, repeated, or out of order).
        fc.option(fc.array(fc.integer({ min: -1, max: WIDTH + 1 }), { maxLength: 5 })),
        async (base, steps, parse, repeats, lineSet, stops) => {
          await check(frames(base, steps), parse, repeats, lineSet, stops);
        },
      ),
      { numRuns: fcRuns(0.6) },
    );
  });

  it('sends a streamed token that extends the last line as a cursor move and the token alone', () => {
    const out = new FakeStdout(40, 4);
    const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
    const pane = (text: string): string =>
      ['╭ tree ─╮╭ transcript ──────╮', `│ a     ││ ${text}`, '╰───────╯╰──────────────────╯'].join('\n');
    writer.stream.write(pane(colour.green('the reply')));
    out.frames.length = 0;
    writer.stream.write(pane(colour.green('the reply grows')));
    const sent = out.frames.join('');
    expect(sent).toContain('grows');
    expect(sent).not.toContain('the reply');
    expect(sent).not.toContain('tree');
    // A one-row frame this short goes without the synchronized-update markers: a cursor move, the
    // colour alone (the last frame left the terminal plain), 'grows' (the green space before it
    // looks as the blank cell there did), a reset.
    expect(JSON.stringify(sent)).toBe('"\\u001b[2;22H\\u001b[32mgrows\\u001b[m"');
  });
});
