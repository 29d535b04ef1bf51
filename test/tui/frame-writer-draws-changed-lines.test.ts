import { describe, expect, it } from 'vitest';
import { FrameWriter, withoutColour } from '../../src/tui/frame/frame-writer';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';

const eraseLines = (n: number): string => `${'\x1b[2K\x1b[1A'.repeat(n - 1)}\x1b[2K\x1b[G`;

function writer(noColor = false): { out: FakeStdout; frames: FrameWriter } {
  const out = new FakeStdout(20, 5);
  return { out, frames: new FrameWriter(out as unknown as NodeJS.WriteStream, noColor) };
}

/** The row (1-based) of each cursor move: an absolute one, or a carriage return and line feeds from the last. */
function rows(written: string): number[] {
  const found: number[] = [];
  for (const m of written.matchAll(/\x1b\[(\d+)(?:;\d+)?H|\r(\v+)/g)) {
    found.push(m[1] === undefined ? found.at(-1)! + m[2]!.length : Number(m[1]));
  }
  return found;
}

describe('the frame writer', () => {
  it('draws a first frame whole, then only the rows that changed, at an absolute row after the last frame', () => {
    const { out, frames } = writer();
    frames.stream.write('a\nb\nc\n');
    expect(rows(out.frames.join(''))).toEqual([1, 2, 3]);
    out.frames.length = 0;
    // Ink erases its previous frame first: that never reaches the terminal.
    frames.stream.write(`${eraseLines(4)}a\nB\nc\n`);
    const written = out.frames.join('');
    expect(rows(written)).toEqual([2]);
    // No style code before B: the first frame left the terminal plain.
    expect(written).toContain('\x1b[2HB');
    expect(written).not.toContain('\x1b[1A');
  });

  it('clears rows a shorter frame no longer uses, and draws everything again after a repaint', () => {
    const { out, frames } = writer();
    frames.stream.write('a\nb\nc\n');
    out.frames.length = 0;
    frames.stream.write(`${eraseLines(4)}a\n`);
    expect(rows(out.frames.join(''))).toEqual([2, 3]);
    out.frames.length = 0;
    frames.repaint();
    expect(rows(out.frames.join(''))).toEqual([1]);
  });

  it("passes cursor and mode sequences through and drops Ink's own synchronized-update markers", () => {
    const { out, frames } = writer();
    frames.stream.write('\x1b[?2026h');
    frames.stream.write('\x1b[?25l');
    expect(out.frames).toEqual(['\x1b[?25l']);
  });

  it('with NO_COLOR takes every colour code out of a line and keeps the other styles', () => {
    expect(withoutColour('\x1b[1;38;2;1;2;3mA\x1b[22;39m')).toBe('\x1b[1mA\x1b[22m');
    expect(withoutColour('\x1b[38;5;12;7mB\x1b[0m')).toBe('\x1b[7mB\x1b[0m');
    expect(withoutColour('\x1b[0;2m\x1b[39m\x1b[49m x')).toBe('\x1b[0;2m x');
    const { out, frames } = writer(true);
    frames.stream.write('\x1b[31mred\x1b[39m\n');
    expect(out.frames.join('')).not.toMatch(/\x1b\[[0-9;]*3[0-9][;m]/);
    expect(out.frames.join('')).toContain('red');
  });

  it('sends a short one-row frame without the synchronized-update pair, and every other frame inside one', () => {
    const out = new FakeStdout(80, 5);
    const frames = new FrameWriter(out as unknown as NodeJS.WriteStream);
    frames.stream.write('a\nb\nc\n');
    expect(out.frames.join('')).toMatch(/^\x1b\[\?2026h[\s\S]*\x1b\[\?2026l$/);
    out.frames.length = 0;
    frames.stream.write('a\nb!\nc\n');
    expect(out.frames.join('')).toBe('\x1b[2;2H!');
    out.frames.length = 0;
    // Two rows: a terminal must not show one without the other.
    frames.stream.write('A\nb!\nC\n');
    expect(out.frames.join('')).toMatch(/^\x1b\[\?2026h[\s\S]*\x1b\[\?2026l$/);
    out.frames.length = 0;
    // One row, but long: it may take the terminal more than one read.
    frames.stream.write(`A\n${'x'.repeat(64)}\nC\n`);
    expect(out.frames.join('')).toMatch(/^\x1b\[\?2026h[\s\S]*\x1b\[\?2026l$/);
  });

  it('sets the first style of a frame without a reset after a frame, and with one after anything else wrote', () => {
    const red = (text: string): string => `\x1b[31m${text}\x1b[39m`;
    const { out, frames } = writer();
    frames.stream.write('a\nb\n');
    out.frames.length = 0;
    frames.stream.write(`a\n${red('b')}\n`);
    // The last frame ended plain: the colour alone.
    expect(out.frames.join('')).toBe('\x1b[2H\x1b[31mb\x1b[m');
    // Codes passed through beside the frames, a clear, a repaint: the terminal's style is not known.
    for (const between of [
      () => frames.stream.write('\x1b[?25l'),
      () => frames.stream.write('\x1b[2J'),
      () => frames.repaint(),
    ]) {
      frames.stream.write('a\nb\n');
      out.frames.length = 0;
      between();
      frames.stream.write(`a\n${red('b')}\n`);
      // The first style code sent after it starts with a reset.
      expect(out.frames.join('').match(/\x1b\[[0-9;]*m/)?.[0]).toMatch(/^\x1b\[(?:0[;m]|m)/);
    }
  });

  it('reaches a row one or two below with a carriage return and line feeds where shorter, and the screen is the whole draw', async () => {
    const out = new FakeStdout(40, 14);
    const frames = new FrameWriter(out as unknown as NodeJS.WriteStream);
    // Rows 1, 2 and 4 from the left edge, rows 10, 11 and 14 (the last) from column 33: a row or two
    // below is CR VT (VT) and a move right; three below, or a move no shorter, is absolute.
    const first = [
      'a',
      'b',
      '',
      'd',
      '',
      '',
      '',
      '',
      '',
      ` ${'x'.repeat(32)}row`,
      `${' '.repeat(32)}next`,
      '',
      '',
      `${' '.repeat(32)}end`,
    ];
    const frame = first.join('\n');
    frames.stream.write(frame);
    const sent = out.frames.join('');
    expect(sent).toContain('\x1b[1H\x1b[ma\r\vb\r\v\vd');
    expect(sent).toContain('row\r\v\x1b[32Cnext\x1b[14;33Hend');
    // In a terminal whose line feed also returns the carriage (LNM set), the screen is the same.
    for (const lnm of ['', '\x1b[20h']) {
      const term = terminal(40, 14);
      try {
        await flush(term, lnm + sent);
        expect(cells(term)).toEqual(await wholeDraw(frame, 40, 14));
      } finally {
        term.dispose();
      }
    }
  });
});
