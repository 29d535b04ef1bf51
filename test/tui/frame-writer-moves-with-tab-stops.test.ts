/**
 * The frame writer sets tab stops where the panes start (clearing the terminal's others, which a
 * user's `tabs 4` may have set) and reaches a pane's row start with a carriage return, a line feed
 * and tabs: `CR VT HT HT` (4 bytes) instead of `CR VT ESC[32C` (7). Checked byte for byte, against a
 * whole redraw in a headless xterm holding a user's tab stops, after a resize and a repaint (a
 * terminal may reset its stops when its width changes; a program run in between may set its own),
 * from a stop to the next one, and in a real tmux against the writer without stops.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/tui/frame/frame-writer';
import { defaultTabStops, TerminalScreen } from '../../src/tui/frame/terminal-screen';
import { paneStartColumns } from '../../src/tui/panes/layout';
import { tmuxReplay } from '../support/tmux-replay';
import { FakeStdout } from './harness';
import { cells, flush, terminal, wholeDraw } from './xterm-screen';

const colour = new Chalk({ level: 3 });
const WIDTH = 40;
const HEIGHT = 8;
const rule = colour.ansi256(244);
const STOPS = [2, 12, 26, 28];
/** A user's own stops, every 4 columns (`tabs 4`), and the cursor home. */
const USER_TABS = `\x1b[3g${[4, 8, 12, 16, 20, 24, 28, 32, 36].map((c) => `\x1b[${c + 1}G\x1bH`).join('')}\x1b[H`;

/** A tree, a transcript from column 12 and a side pane from column 26 (its rule) and 28. */
function panes(words: readonly string[]): string {
  return Array.from({ length: HEIGHT }, (_, r) => {
    const text = words[r] ?? '';
    return `  ${`t${r}`.padEnd(8)}${rule('│')} ${colour.ansi256(252)(text.padEnd(13).slice(0, 13))}${rule('│')} ${`u${r}`.padEnd(11)}`;
  }).join('\n');
}

function writer(stops: readonly number[] | null): { out: FakeStdout; frames: FrameWriter } {
  const out = new FakeStdout(WIDTH, HEIGHT);
  const frames = new FrameWriter(out as unknown as NodeJS.WriteStream);
  if (stops !== null) frames.tabStops(() => stops);
  return { out, frames };
}

function send(w: { out: FakeStdout; frames: FrameWriter }, frame: string): string {
  w.out.frames.length = 0;
  w.frames.stream.write(frame);
  return w.out.frames.join('');
}

async function expectWhole(term: ReturnType<typeof terminal>, sent: string, frame: string): Promise<void> {
  await flush(term, sent);
  expect(cells(term)).toEqual(await wholeDraw(frame, WIDTH, HEIGHT));
}

const reply = ['alpha bravo', 'charlie delta', 'echo fox', 'golf hotel', 'india juliet', 'kilo lima'];

describe('tab stops where the panes start', () => {
  it("are set with the first frame, replacing the user's, and a pane's rows are reached with CR VT and tabs", async () => {
    const w = writer(STOPS);
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, USER_TABS);
      const first = panes([]);
      const sent = send(w, first);
      expect(sent.startsWith('\x1b[?2026h\x1b[3g\x1b[3G\x1bH\x1b[13G\x1bH\x1b[27G\x1bH\x1b[29G\x1bH')).toBe(true);
      await expectWhole(term, sent, first);
      // The reply's rows: each one's start is CR VT HT HT (column 12: the second stop).
      const next = panes(reply);
      const rows = send(w, next);
      expect(rows).not.toContain('\x1b[3g');
      expect(rows.split('\r\v\t\t').length - 1).toBe(reply.length - 1);
      expect(rows).not.toMatch(/\r\v\x1b\[\d+C/);
      await expectWhole(term, rows, next);
    } finally {
      term.dispose();
    }
  });

  it("without a stop at the tree's text, a transcript row is CR VT HT and a tree row CR VT and a move right", async () => {
    const w = writer(STOPS.slice(1));
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, USER_TABS);
      const first = panes([]);
      await expectWhole(term, send(w, first), first);
      const next = panes(reply);
      const rows = send(w, next);
      expect(rows.split('\r\v\t').length - 1).toBe(reply.length - 1);
      expect(rows).not.toContain('\t\t');
      await expectWhole(term, rows, next);
      // The tree's rows change (an entry added): reached from column 0 without a tab.
      const tree = next
        .split('\n')
        .map((line, r) => (r < 3 ? `  ${`n${r}`.padEnd(8)}${line.slice(10)}` : line))
        .join('\n');
      const treeRows = send(w, tree);
      expect(treeRows).toMatch(/^\x1b\[\?2026h\x1b\[1;3Hn(\x1b\[2;3H|\r\v\x1b\[2C)n(\x1b\[3;3H|\r\v\x1b\[2C)n/);
      await expectWhole(term, treeRows, tree);
    } finally {
      term.dispose();
    }
  });

  it('are set again after a resize and after a repaint, where the terminal may hold others', async () => {
    const w = writer(STOPS);
    const term = terminal(WIDTH, HEIGHT);
    try {
      await expectWhole(term, send(w, panes([])), panes([]));
      // The terminal reset its stops to every 8 columns (as tmux does when the width changes).
      await flush(term, `\x1b[3g${[8, 16, 24, 32].map((c) => `\x1b[${c + 1}G\x1bH`).join('')}`);
      w.frames.resized();
      const again = send(w, `\x1b[2J${panes(reply.slice(0, 2))}`);
      expect(again).toContain('\x1b[2J\x1b[3g');
      await expectWhole(term, again, panes(reply.slice(0, 2)));
      await flush(term, `\x1b[2J${USER_TABS}`);
      w.frames.repaint();
      const repainted = w.out.frames.join('');
      expect(repainted).toContain('\x1b[3g');
      await expectWhole(term, repainted, panes(reply.slice(0, 2)));
      const last = panes(reply);
      await expectWhole(term, send(w, last), last);
    } finally {
      term.dispose();
    }
  });

  it('leave rules in the graphics set inside tmux (HTS, an escape other than CSI, goes ahead of the frame)', async () => {
    const w = writer(STOPS);
    w.frames.drawLineSet(true);
    const term = terminal(WIDTH, HEIGHT);
    try {
      const first = [
        rule('─'.repeat(WIDTH)),
        ...panes(reply)
          .split('\n')
          .slice(0, HEIGHT - 1),
      ].join('\n');
      const sent = send(w, first);
      expect(sent).toContain('\x1b[3g');
      expect(sent).toContain('\x1b(0');
      expect(sent).toContain('\r\v\t');
      await expectWhole(term, sent, first);
    } finally {
      term.dispose();
    }
  });

  it('from a stop, a tab reaches the next stop, not the one after it', async () => {
    const w = writer([4, 9, 14]);
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, USER_TABS);
      await expectWhole(term, send(w, 'x'), 'x');
      // "abcd" leaves the cursor on the stop at 4; Y is at the stop at 9.
      const frame = `abcd     Y    Z`;
      const sent = send(w, frame);
      expect(sent).toContain('abcd\tY\tZ');
      await expectWhole(term, sent, frame);
    } finally {
      term.dispose();
    }
  });

  it("at tole's sizes: the transcript's and the side column's first columns, not the tree's; one for a narrow screen", () => {
    // A stop at the tree's text would be a tab more on the way to each of the others.
    expect(paneStartColumns(120)).toEqual([32, 87, 89]);
    expect(paneStartColumns(100)).toEqual([27, 67, 69]);
    expect(paneStartColumns(80)).toEqual([2]);
    const w = writer(paneStartColumns(WIDTH));
    // Stops past the screen are never set.
    const wide = writer([2, 39, 40, 55]);
    expect(send(wide, 'a')).toContain('\x1b[3g\x1b[3G\x1bH\x1b[40G\x1bH\x1b[1H');
    expect(send(w, 'a')).toContain('\x1b[3g\x1b[3G\x1bH');
  });

  it("are put back at every 8 columns when tole leaves the screen or hands it to the user's editor", async () => {
    const w = writer(STOPS);
    const screen = TerminalScreen.enter(
      w.out as unknown as NodeJS.WriteStream,
      { isTTY: false } as unknown as NodeJS.ReadStream,
    );
    const term = terminal(WIDTH, HEIGHT);
    try {
      await flush(term, `${w.out.frames.join('')}${send(w, panes(reply))}`);
      for (const leave of [() => screen.suspend(), () => screen.restore()]) {
        w.out.frames.length = 0;
        leave();
        const left = w.out.frames.join('');
        expect(left).toContain(defaultTabStops(WIDTH));
        await flush(term, `${left}\x1b[?1049l\x1b[H\x1b[2K\tA\tB\tC`);
        const row = term.buffer.active.getLine(0)!.translateToString(true);
        expect([row.indexOf('A'), row.indexOf('B'), row.indexOf('C')]).toEqual([8, 16, 24]);
        screen.resume();
        w.frames.repaint();
      }
    } finally {
      term.dispose();
    }
  });

  it('a real tmux holding tabs 4 shows what the writer without stops leaves', () => {
    const tmux = tmuxReplay('tole-tab-stops', WIDTH, HEIGHT);
    const frames = [panes([]), panes(reply.slice(0, 3)), panes(reply)];
    const bytes = (stops: readonly number[] | null): string => {
      const w = writer(stops);
      return `\x1b[?7l${USER_TABS}${frames.map((frame) => send(w, frame)).join('')}`;
    };
    const withStops = bytes(STOPS);
    expect(withStops).toContain('\r\v\t\t');
    expect(tmux.replay('stops', withStops)).toBe(tmux.replay('plain', bytes(null)));
  });
});
