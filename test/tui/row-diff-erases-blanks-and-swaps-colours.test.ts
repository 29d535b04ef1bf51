/**
 * The cell diff's cheaper codes: a stretch of blank cells left by a shorter line is erased where
 * it lies (ECH) instead of written as spaces, and one colour replaces another without a reset.
 * (That the screen stays right is the property test's job: frame-writer-cell-diff-equals-whole-redraw.)
 */
import { styledCharsFromTokens, tokenize, type AnsiCode } from '@alcalzone/ansi-tokenize';
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { Pen, switchCodes } from '../../src/tui/frame/row-diff';
import { FakeStdout } from './harness';
import { fcRuns } from '../support/fc-runs';

const colour = new Chalk({ level: 3 });

function second(first: string, next: string): string {
  const out = new FakeStdout(40, 3);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  writer.stream.write(first);
  out.frames.length = 0;
  writer.stream.write(next);
  return out.frames.join('').replace('\x1b[?2026h', '').replace('\x1b[?2026l', '');
}

describe('the cell diff', () => {
  it('erases the rest of a shorter line between two panes instead of writing spaces', () => {
    const row = (text: string): string => `│${text.padEnd(30)}│`;
    const sent = second(row('a long line of words that ends'), row('a long'));
    // From the first cell that differs; no style code: the first frame left the terminal plain.
    expect(sent).toBe('\x1b[1;9H\x1b[23X');
  });

  it('writes a few blanks inside a coloured run as spaces in that colour, which a space does not show', () => {
    const sent = second(colour.red('abcdefgh'), `${colour.green('ab')}  ${colour.green('ef')}`);
    // The end of the old line is erased in the same colour: erasing takes the background alone.
    expect(sent).toBe('\x1b[1H\x1b[32mab  ef\x1b[K\x1b[m');
  });

  it('leaves a padding space between two changed borders as a space, not an erase and a jump', () => {
    const grey = new Chalk({ level: 3 }).ansi256(239);
    const sent = second(`${grey('│')}ab${grey('│')}`, `${grey('│')} ${grey('││')}`);
    expect(sent).toBe('\x1b[1;2H \x1b[38;5;239m│\x1b[m');
  });

  it('does not rewrite a space whose only change is a style a space does not show', () => {
    expect(second(`a${colour.red('   ')}b`, `a${colour.bold.italic('   ')}b`)).toBe('');
    expect(second(`x${colour.blue('  ')}`, 'x')).toBe('');
    // An underline, a background or inverse does show on a space.
    expect(second('a   b', `a${colour.underline(' ')}  b`)).toBe('\x1b[1;2H\x1b[4m \x1b[m');
    expect(second('a   b', `a${colour.bgBlue(' ')}  b`)).toBe('\x1b[1;2H\x1b[44m \x1b[m');
  });

  it('draws the rules between panes after their text, together, rather than switching colour around each', () => {
    const grey = colour.ansi256(244);
    const rule = colour.ansi256(239)('│');
    const row = (a: string, b: string): string => `${rule} ${grey(a)}${rule} ${grey(b)}${rule}`;
    const rows = (a: string, b: string): string => `${row(a, b)}\n${row(b, a)}`;
    // Texts longer than a key's name: they are written in place (a short one would be left for the end, as a key is).
    const sent = second('', rows('left text', 'right text'));
    // A rule between two grey texts is jumped over (ESC[C) and drawn at the end with the other left
    // ones, in the colour the row-end rule leaves the pen in: no switch to grey and back around it.
    // The next row's start is a carriage return and a line feed (2 bytes, against ESC[2H's 4).
    expect(sent).toBe(
      '\x1b[1H\x1b[0;38;5;239m│ \x1b[38;5;244mleft text\x1b[C right text\x1b[38;5;239m│' +
        '\r\v│ \x1b[38;5;244mright text\x1b[C left text\x1b[38;5;239m│' +
        '\x1b[1;12H│\x1b[2;13H│\x1b[m',
    );
  });

  it("draws the keys among a bar's hints after the hints, together, rather than switching colour around each", () => {
    const bar = new Chalk({ level: 3 }).bgAnsi256(235).ansi256(250);
    const key = new Chalk({ level: 3 }).bgAnsi256(235).bold.ansi256(75);
    const hints = `${bar(' ')}${key('⏎')}${bar(' send  ')}${key('Tab')}${bar(' panes  ')}${key('^C')}${bar(' quit')}`;
    const sent = second('', hints);
    // Each key is jumped over (ESC[nC) where it lies and all are drawn at the end in one switch to
    // the accent: not two switches around each (ESC[1;38;5;75m, ESC[22;38;5;250m: 25 bytes a key).
    expect(sent).toBe(
      '\x1b[1H\x1b[0;48;5;235;38;5;250m \x1b[C send  \x1b[3C panes  \x1b[2C quit' +
        '\r\x1b[C\x1b[1;38;5;75m⏎\x1b[7CTab\x1b[8C^C\x1b[m',
    );
  });

  it('replaces one colour by another with the new colour alone', () => {
    const sent = second(`${colour.red('ab')}${colour.blue('cd')}`, `${colour.green('ab')}${colour.yellow('cd')}`);
    expect(sent).toBe('\x1b[1H\x1b[32mab\x1b[33mcd\x1b[m');
  });

  it('remembers a style switch by the codes of both styles, the same as working it out each time', () => {
    const sgr = [
      '',
      '\x1b[1m',
      '\x1b[2m',
      '\x1b[31m',
      '\x1b[1m\x1b[31m',
      '\x1b[2m\x1b[44m',
      '\x1b[38;5;208m',
      '\x1b[7m\x1b[32m',
    ];
    // Each time new arrays of codes, as a new row's cells bring.
    const styles = (i: number): AnsiCode[] => styledCharsFromTokens(tokenize(`${sgr[i]}x`))[0]!.styles;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: sgr.length - 1 }), fc.constant(-1)), { maxLength: 40 }),
        (steps) => {
          const pen = new Pen();
          let held: AnsiCode[] | null = null;
          let heldKey = '';
          for (const step of steps) {
            if (step === -1) {
              pen.forget();
              held = null;
              continue;
            }
            const next = styles(step);
            const key = next.map((code) => code.code).join('');
            const expected = held !== null && key === heldKey ? '' : switchCodes(held, next);
            expect(pen.style(next, key)).toBe(expected);
            held = next;
            heldKey = key;
          }
        },
      ),
      { numRuns: fcRuns() },
    );
  });
});
