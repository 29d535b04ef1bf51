/**
 * The cell diff's cheaper codes: a stretch of blank cells left by a shorter line is erased where
 * it lies (ECH) instead of written as spaces, and one colour replaces another without a reset.
 * (That the screen stays right is the property test's job: frame-writer-cell-diff-equals-whole-redraw.)
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame-writer';
import { FakeStdout } from './harness';

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
    // From the first cell that differs; the style reset because a frame starts from an unknown pen.
    expect(sent).toBe('\x1b[1;9H\x1b[0m\x1b[23X');
  });

  it('erases blanks inside a coloured run without taking the colour off and putting it back', () => {
    const sent = second(colour.red('abcdefgh'), `${colour.green('ab')}  ${colour.green('ef')}`);
    // The end of the old line is erased in the same colour: erasing takes the background alone.
    expect(sent).toBe('\x1b[1H\x1b[0m\x1b[32mab\x1b[2X\x1b[2Cef\x1b[K\x1b[0m');
  });

  it('replaces one colour by another with the new colour alone', () => {
    const sent = second(`${colour.red('ab')}${colour.blue('cd')}`, `${colour.green('ab')}${colour.yellow('cd')}`);
    expect(sent).toBe('\x1b[1H\x1b[0m\x1b[32mab\x1b[33mcd\x1b[0m');
  });
});
