/**
 * After the terminal shrank, the frame laid out for the old size is drawn once more (tole's
 * repaint on the resize, and Ink's own redraw) before the frame for the new size comes. A
 * terminal places a cursor move past its last row on that row, so each row of the old frame
 * below the new bottom was written over the bottom row, which showed the old frame's last row
 * (its status bar) until the next clear. The frame writer draws no row past the screen's bottom.
 */
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';

const OLD = Array.from({ length: 9 }, (_, i) =>
  i === 8 ? ' ● Final · step 3/7 · writing tests' : `row ${i} of the old frame`,
);

function rowsMovedTo(bytes: string): number[] {
  return [...bytes.matchAll(/\x1b\[(\d+)(?:;\d+)?H/g)].map((m) => Number(m[1]));
}

describe('a frame taller than the screen after a resize', () => {
  it('is drawn down to the bottom row and no further, so the bottom row holds its own row', async () => {
    const out = new FakeStdout(40, 10);
    const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
    writer.stream.write(`${OLD.join('\n')}\n`);
    // The terminal shrinks to 30x5; tole clears the screen and repaints the last frame.
    out.columns = 30;
    out.rows = 5;
    const term = terminal(40, 10);
    await flush(term, out.frames.join(''));
    term.resize(30, 5);
    out.frames.length = 0;
    writer.repaint();
    const repaint = out.frames.join('');
    await flush(term, `\x1b[2J\x1b[H${repaint}`);

    expect(Math.max(...rowsMovedTo(repaint))).toBeLessThanOrEqual(5);
    expect(cells(term)).toEqual(await wholeDraw(OLD.slice(0, 5).join('\n'), 30, 5));

    // Then the frame for the new size (one line less than the screen, as tole lays it out).
    out.frames.length = 0;
    const next = ['top', '', 'prompt', ' ● Final · step 3/7'];
    writer.stream.write(`${next.join('\n')}\n`);
    const drawn = out.frames.join('');
    await flush(term, drawn);
    expect(Math.max(...rowsMovedTo(drawn))).toBeLessThanOrEqual(5);
    expect(cells(term)).toEqual(await wholeDraw([...next, ''].join('\n'), 30, 5));
    term.dispose();
  });
});
