/**
 * A style change goes to the terminal as one escape sequence, with a 24-bit colour that the
 * 256-colour palette holds exactly sent as its index, and bold or dim taken off by their own end
 * code instead of a reset and the rest set again. (That the screen stays the same is the property
 * tests' job: frame-writer-cell-diff-equals-whole-redraw and frame-writer-scrolls-moved-rows
 * compare every cell's colours as xterm draws them.)
 */
import { styledCharsFromTokens, tokenize, type AnsiCode } from '@alcalzone/ansi-tokenize';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { switchCodes } from '../../src/tui/frame/row-diff';
import { joinCodes, paletteIndex } from '../../src/tui/frame/sgr-codes';
import { FakeStdout } from './harness';

const colour = new Chalk({ level: 3 });
const styles = (sgr: string): AnsiCode[] => styledCharsFromTokens(tokenize(`${sgr}x`))[0]!.styles;

/** xterm's palette, 16 to 255, written out from its definition (not from the code under test). */
function xtermColour(index: number): [number, number, number] {
  if (index >= 232) {
    const grey = 8 + 10 * (index - 232);
    return [grey, grey, grey];
  }
  const levels = [0, 95, 135, 175, 215, 255];
  const i = index - 16;
  return [levels[Math.floor(i / 36)]!, levels[Math.floor(i / 6) % 6]!, levels[i % 6]!];
}

describe('palette colours', () => {
  it('finds every cube and grey colour past 21 at its own index', () => {
    for (let index = 22; index < 256; index++) expect(paletteIndex(...xtermColour(index))).toBe(index);
  });

  it('leaves 16 to 21 (which shell colour schemes redefine), the 16 named colours, and colours off the palette', () => {
    for (let index = 16; index < 22; index++) expect(paletteIndex(...xtermColour(index))).toBe(-1);
    expect(paletteIndex(0x30, 0x3a, 0x4e)).toBe(-1);
    expect(paletteIndex(208, 208, 209)).toBe(-1);
    expect(paletteIndex(9, 9, 9)).toBe(-1);
    expect(paletteIndex(255, 255, 254)).toBe(-1);
  });
});

describe('a style change', () => {
  it('is one sequence, exact colours by index and others as they were', () => {
    expect(joinCodes(['\x1b[0m', '\x1b[1m', '\x1b[38;2;215;175;255m', '\x1b[48;2;48;58;78m'])).toBe(
      '\x1b[0;1;38;5;183;48;2;48;58;78m',
    );
    // A hyperlink is no SGR: it follows the sequence, and a code given twice goes once.
    expect(joinCodes(['\x1b]8;;\x07', '\x1b[1m', '\x1b[1m', '\x1b]8;;https://x\x07'])).toBe(
      '\x1b[1m\x1b]8;;\x07\x1b]8;;https://x\x07',
    );
  });

  it('takes bold off with its end code and sets dim again when dim stays (they share it)', () => {
    expect(switchCodes(styles('\x1b[1m\x1b[2m\x1b[38;2;1;2;3m'), styles('\x1b[2m\x1b[38;2;1;2;3m'))).toBe('\x1b[22;2m');
    // Where a reset and the codes kept are shorter, the reset.
    expect(switchCodes(styles('\x1b[1m\x1b[2m'), styles('\x1b[2m'))).toBe('\x1b[0;2m');
    expect(switchCodes(styles('\x1b[1m\x1b[38;2;255;255;255m'), styles('\x1b[38;2;208;208;208m'))).toBe(
      '\x1b[0;38;5;252m',
    );
    expect(
      switchCodes(styles('\x1b[1m\x1b[48;2;48;58;78m\x1b[38;2;1;2;3m'), styles('\x1b[48;2;48;58;78m\x1b[38;2;1;2;3m')),
    ).toBe('\x1b[22m');
  });

  it('resets when a code whose end is not known is taken off', () => {
    expect(switchCodes(styles('\x1b[1m\x1b[6m'), styles('\x1b[1m'))).toBe('\x1b[0;1m');
  });
});

describe('a frame of themed panes', () => {
  it('costs far fewer bytes than the same frame with a 24-bit sequence per code', () => {
    const out = new FakeStdout(60, 12);
    const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
    const border = colour.hex('#4e4e4e');
    const row = (i: number): string =>
      `${border('│')} ${colour.bold.hex(i % 2 ? '#87d7ff' : '#d7afff')(i % 2 ? '●' : '◆')} ${colour.bold.hex('#ffffff')(`entry ${i}`.padEnd(12))}${border('││')}${colour.hex('#d0d0d0')(`line ${i} of the transcript`.padEnd(30))}${border('│')}`;
    const frame = Array.from({ length: 12 }, (_, i) => row(i)).join('\n');
    writer.stream.write(frame);
    const sent = out.frames.join('');
    // Each 24-bit colour, as Ink's lines hold it, would be 19 bytes; by index it is 11 to 13.
    expect(sent).not.toContain('38;2;');
    expect(Buffer.byteLength(sent)).toBeLessThan(Buffer.byteLength(frame) * 0.75);
  });
});
