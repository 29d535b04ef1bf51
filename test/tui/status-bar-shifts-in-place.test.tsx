/**
 * When the status bar's text moves sideways (the state word grows from `Idle` to `Planning`, the
 * keys set flush right lose `? keys` at the first typed character), the frame writer has the
 * terminal shift the cells that moved (insert/delete-character at an absolute position) and
 * writes only what is new, instead of every cell after the change. The screen must be what a
 * whole redraw leaves: checked cell by cell in a headless xterm.
 */
import { render } from 'ink';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { StatusBar, type StatusBarProps } from '../../src/tui/status/StatusBar';
import { loadTheme } from '../../src/tui/style/theme';
import { ThemeContext, themeView } from '../../src/tui/style/theme-context';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';
import { inFullColor } from './full-color';

const WIDTH = 120;
inFullColor();

const IDLE_KEYS = [
  { keys: '⏎', hint: 'send' },
  { keys: 'Tab', hint: 'panes' },
  { keys: '^C', hint: 'quit' },
  { keys: '?', hint: 'keys' },
];
const RUNNING_KEYS = [
  { keys: '⏎', hint: 'steer' },
  { keys: 'M-⏎', hint: 'queue' },
  { keys: 'Tab', hint: 'panes' },
  { keys: 'Esc', hint: 'stop' },
  { keys: '?', hint: 'keys' },
];
const BASE: StatusBarProps = {
  pc: 'Idle',
  seq: 0,
  model: 'fake-model',
  sessionId: '1796577516840004476-3dd5d2',
  running: false,
  readOnly: false,
  queued: 0,
  hints: IDLE_KEYS,
  width: WIDTH,
};

/** The bar's row as Ink draws it, in colour. */
function barRow(props: Partial<StatusBarProps>): string {
  const theme = themeView(loadTheme('dark'), false);
  const stdout = new FakeStdout(WIDTH, 1);
  const drawn = render(
    <ThemeContext.Provider value={theme}>
      <StatusBar {...BASE} {...props} />
    </ThemeContext.Provider>,
    { stdout: stdout as unknown as NodeJS.WriteStream, debug: true, patchConsole: false },
  );
  drawn.unmount();
  return stdout.frames[0]!;
}

/** What the frame writer sends to turn the bar `from` into `to`, and whether the screen is then right. */
async function sent(from: string, to: string): Promise<string> {
  const out = new FakeStdout(WIDTH, 1);
  const writer = new FrameWriter(out as unknown as NodeJS.WriteStream);
  const term = terminal(WIDTH, 1);
  try {
    writer.stream.write(from);
    await flush(term, out.frames.join(''));
    out.frames.length = 0;
    writer.stream.write(to);
    const bytes = out.frames.join('');
    await flush(term, bytes);
    expect(cells(term)).toEqual(await wholeDraw(to, WIDTH, 1));
    return bytes;
  } finally {
    term.dispose();
  }
}

describe('the status bar, when its text moves sideways', () => {
  it('is shifted by the terminal at the first typed character, the keys not written again', async () => {
    const bytes = await sent(barRow({}), barRow({ hints: IDLE_KEYS.slice(0, 3) }));
    // The keys moved right by `? keys  ` (8 cells): eight cells are opened before them.
    expect(bytes).toContain('\x1b[1;85H\x1b[8@');
    expect(bytes).not.toContain('panes');
    // 157 B when every cell from the first key on was written again.
    expect(Buffer.byteLength(bytes)).toBeLessThanOrEqual(60);
  });

  it('is shifted as Idle becomes Planning, the session id not written again', async () => {
    const bytes = await sent(barRow({}), barRow({ pc: 'Planning', seq: 5, running: true, hints: RUNNING_KEYS }));
    expect(bytes).not.toContain('3dd5d2');
    // 256 B when the whole bar from the state word on was written again.
    expect(Buffer.byteLength(bytes)).toBeLessThanOrEqual(215);
  });

  it('is shifted as Planning becomes Final, with a seq one digit longer', async () => {
    const bytes = await sent(
      barRow({ pc: 'Planning', seq: 5, running: true, hints: RUNNING_KEYS }),
      barRow({ pc: 'Final', seq: 10 }),
    );
    expect(bytes).not.toContain('fake-model');
    // 231 B when the whole bar from the state word on was written again.
    expect(Buffer.byteLength(bytes)).toBeLessThanOrEqual(210);
  });
});
