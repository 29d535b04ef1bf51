/**
 * Inside tmux, where box-drawing runs go out in the DEC special graphics set, a vertical rule on
 * rows that hold nothing else new (the blank rows under tole's panes) is left for the end of the
 * frame and drawn down its column: three or more cells of one style one under another go out as
 * the set's letter, a backspace and a line feed (`x BS VT`, 3 bytes a row) instead of a cursor
 * move each (`ESC[r;cH x`, ~9). The screen is cell for cell the one drawn whole (a headless xterm,
 * and a real tmux against the plain writer), in the last column too (where the cursor stays on the
 * cell it wrote), and nothing relative is sent outside the set or in a frame the set leaves alone.
 */
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { fcRuns } from '../support/fc-runs';
import { lineSetRead, tmuxReplay } from '../support/tmux-replay';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';

const colour = new Chalk({ level: 3 });
const WIDTH = 40;
const HEIGHT = 14;
const BS_VT = '\x08\x0b';
const rule = colour.ansi256(244);

/** tole's layout in small: a top rule, panes with text, then blank rows of three vertical rules (one in the last column). */
function panes(text: readonly string[]): string {
  return Array.from({ length: HEIGHT }, (_, r) => {
    if (r === 0) return rule(`─ tree ${'─'.repeat(4)}┬ main ${'─'.repeat(8)}┬ usage ${'─'.repeat(6)}`);
    if (r === HEIGHT - 1) return colour.bgAnsi256(235)(' ● Idle · seq 0 '.padEnd(WIDTH));
    const words = text[r - 1] ?? '';
    return `${' '.repeat(11)}${rule('│')}${colour.ansi256(252)(words.padEnd(14).slice(0, 14))}${rule('│')}${' '.repeat(12)}${rule('│')}`;
  }).join('\n');
}

async function written(lineSet: boolean, frames: readonly string[], width = WIDTH, height = HEIGHT): Promise<string[]> {
  const out = new FakeStdout(width, height);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  writer.drawLineSet(lineSet);
  const answer = Promise.resolve(false);
  writer.repeatsOnceAnswered(answer);
  await answer;
  return frames.map((frame) => {
    out.frames.length = 0;
    writer.stream.write(frame);
    return out.frames.join('');
  });
}

async function expectDrawnWhole(sent: readonly string[], frames: readonly string[], width = WIDTH, height = HEIGHT) {
  const term = terminal(width, height);
  try {
    for (let i = 0; i < frames.length; i++) {
      await flush(term, sent[i]!);
      expect(cells(term)).toEqual(await wholeDraw(frames[i]!, width, height));
    }
  } finally {
    term.dispose();
  }
}

describe('vertical rules drawn down their column in the graphics set', () => {
  const first = panes(['hello', 'world']);
  const second = panes(['hello', 'world', 'and more', 'lines']);

  it('a rule on blank rows goes down with a backspace and a line feed, and the screen is the one drawn whole', async () => {
    const [lined, after] = await written(true, [first, second]);
    const [plain] = await written(false, [first]);
    // Rows 3 to 12 hold only rules: the first two columns go down (9 steps each at least); the
    // last column (39), where a backspace would land a column short, is reached by cursor moves.
    expect(lined).toContain(`x${BS_VT}x${BS_VT}x`);
    expect(lined!.split(BS_VT).length - 1).toBeGreaterThanOrEqual(2 * 9);
    expect(lined).toContain('\x1b[4;40Hx\x1b[5;40Hx');
    expect(plain).not.toContain('\x08');
    expect(Buffer.byteLength(lined!)).toBeLessThan(Buffer.byteLength(plain!) - 100);
    // Every BS VT is sent while the graphics set is chosen (a letter there is one column wide).
    for (const piece of lined!.split('\x1b(B')) {
      if (piece.includes(BS_VT)) expect(piece).toContain('\x1b(0');
    }
    await expectDrawnWhole([lined!, after!], [first, second]);
  });

  it('two rows are not a column: each rule behind its own cursor move', async () => {
    const short = [rule('─'.repeat(WIDTH)), `${' '.repeat(5)}${rule('│')}`, `${' '.repeat(5)}${rule('│')}`, 'x'].join(
      '\n',
    );
    const [sent] = await written(true, [short], WIDTH, 4);
    expect(sent).not.toContain('\x08');
    await expectDrawnWhole([sent!], [short], WIDTH, 4);
  });

  it('a frame that changes nothing but a rule alone draws it', async () => {
    const frames = ['', rule('│'), `${rule('│')}\n${rule('│')}\n${rule('│')}`, 'a', rule('│')];
    const sent = await written(true, frames, 8, 3);
    expect(sent[1]).toContain('│');
    await expectDrawnWhole(sent, frames, 8, 3);
  });

  it('a frame holding an escape other than CSI (which stays in UTF-8) gets no relative moves', async () => {
    const linked = `${first}\n\x1b]8;;http://a/\x1b\\link\x1b]8;;\x1b\\`;
    const [sent] = await written(true, [linked], WIDTH, HEIGHT + 1);
    expect(sent).not.toContain('\x1b(0');
    expect(sent).not.toContain('\x08');
  });

  it('a real tmux holds the same cells as after the plain writer, and copies the same text', async () => {
    const tmux = tmuxReplay('tole-rules-down', WIDTH, HEIGHT);
    /** The pane after `bytes`: each cell's character (the set's letters read as theirs) with its style codes, and the copied text. */
    const shown = (name: string, bytes: string): { screen: string; copied: string } => {
      const screen = lineSetRead(tmux.replay(name, bytes));
      return { screen, copied: tmux.copied(name) };
    };
    const [plain] = await written(false, [first]);
    const [lined] = await written(true, [first]);
    expect(lined).toContain(BS_VT);
    const a = shown('plain', plain!);
    const b = shown('lined', lined!);
    expect(b.screen).toBe(a.screen);
    expect(b.copied).toBe(a.copied);
    expect(b.copied.split('\n')[5]).toBe(`${' '.repeat(11)}│${' '.repeat(14)}│${' '.repeat(12)}│`);
  });

  it('any frames of rules in columns, styles and texts leave the screen a whole redraw leaves', async () => {
    const W = 12;
    const H = 8;
    const styles = [rule, colour.ansi256(75).bold, (s: string) => s];
    const glyphs = ['│', '├', '┼', 'x', ' '];
    const cellArb = fc.record({ glyph: fc.constantFrom(...glyphs), style: fc.nat(styles.length - 1) });
    // Columns 0, 5 and the last, where rules go; a text written over some rows now and then.
    const frameArb = fc.record({
      columns: fc.array(fc.array(cellArb, { minLength: H, maxLength: H }), { minLength: 3, maxLength: 3 }),
      text: fc.array(fc.option(fc.stringMatching(/^[ab ]{0,4}$/), { nil: undefined }), { minLength: H, maxLength: H }),
    });
    const draw = (f: { columns: { glyph: string; style: number }[][]; text: (string | undefined)[] }): string =>
      Array.from({ length: H }, (_, r) => {
        const at = (c: number): string => styles[f.columns[c]![r]!.style]!(f.columns[c]![r]!.glyph);
        const text = (f.text[r] ?? '').padEnd(4);
        return `${at(0)}${text}${at(1)}${' '.repeat(W - 7)}${at(2)}`;
      }).join('\n');
    await fc.assert(
      fc.asyncProperty(fc.array(frameArb, { minLength: 1, maxLength: 4 }), async (specs) => {
        const frames = specs.map(draw);
        const sent = await written(true, frames, W, H);
        await expectDrawnWhole(sent, frames, W, H);
      }),
      { numRuns: fcRuns(0.3) },
    );
  });
});
