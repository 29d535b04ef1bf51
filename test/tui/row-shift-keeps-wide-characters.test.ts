/**
 * Insert- and delete-character shift whatever cells lie right of the cursor: a shift that starts
 * on the right half of a wide character, or pushes a left half to the edge without its right,
 * leaves the terminal holding half a character, and what a terminal then does with it (and with a
 * character written over that half) is its own choice (xterm.js and tmux 3 repair the case below
 * the same way; nothing says every terminal does). The frame writer splits no wide character: the
 * bytes say where it shifted, and the screen is what a whole redraw leaves (checked cell by cell
 * in a headless xterm).
 */
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';

const WIDTH = 20;

/** What the writer sends to turn `from` into `to`, after checking the screen it leaves. */
async function sent(from: string, to: string): Promise<string> {
  const out = new FakeStdout(WIDTH, 1);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  const term = terminal(WIDTH, 1);
  try {
    writer.stream.write(from);
    out.frames.length = 0;
    writer.stream.write(to);
    const bytes = out.frames.join('');
    await flush(term, `\x1b[1;1H${from}${bytes}`);
    expect(cells(term)).toEqual(await wholeDraw(to, WIDTH, 1));
    return bytes;
  } finally {
    term.dispose();
  }
}

describe('a row shifted by the terminal', () => {
  it('is shifted where text lines up again, not from the right half of a wide character', async () => {
    // The text after 中 lines up once 中's right half is deleted: that shift would split 中.
    const bytes = await sent('x中abcdefghijk', 'x?abcdefghijk');
    expect(bytes).not.toMatch(/\x1b\[1;3H\x1b\[1P/);
  });

  it('is shifted when the text moved by whole characters, wide ones included', async () => {
    const bytes = await sent('x中abcdefghijk', 'xabcdefghijk');
    expect(bytes).toContain('\x1b[2P');
  });
});
