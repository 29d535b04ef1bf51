/**
 * The built tole in a real pseudo-terminal: while long replies stream, the transcript scrolls and
 * the frame writer has the terminal scroll it (a scroll region), repairing the panes beside it.
 * After each reply the screen, cell by cell, equals what tole draws whole after a resize. The
 * terminal answers tole's question whether it repeats characters (xterm does), so the rules go out
 * as REPs, from the first frame on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

const WORDS = ['store', 'commit', 'records', 'the', 'reply', 'grows', 'fsync', '**branch**', 'tree', '`token`', '中文'];

/** A reply of `lines` lines of words, streamed a few words a chunk. */
function longReply(lines: number, tag: string): string[] {
  const chunks: string[] = [];
  for (let line = 0; line < lines; line++) {
    const words = Array.from({ length: 8 }, (_, w) => WORDS[(line * 5 + w * ((line % 3) + 1)) % WORDS.length]);
    chunks.push(`${words.slice(0, 4).join(' ')} `, `${words.slice(4).join(' ')}${line % 7 === 6 ? '\n\n' : '\n'}`);
  }
  chunks.push(`end of ${tag}`);
  return chunks;
}

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: [
      // Paced so that frames (at most 30 a second) see the transcript move a line or two.
      { text: longReply(45, 'one'), delayMs: 20 },
      { text: longReply(30, 'two'), delayMs: 20 },
    ],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';

/** tole is not part-way through a frame: every synchronized update it opened, it closed. */
const noFrameOpen = (raw: string): boolean => raw.lastIndexOf(SYNC_START) <= raw.lastIndexOf(SYNC_END);

/** tole drew a whole frame on a cleared screen (what it does after a resize), and closed it. */
const wholeFrame = (raw: string): boolean => /\x1b\[\?2026h\x1b\[2J/.test(raw) && noFrameOpen(raw);

/**
 * Resizes the terminal and waits for tole's whole redraw at the new size (one frame, on a cleared
 * screen, then nothing until the next change): `driver.raw` holds what came after the resize.
 */
async function resizedAndRedrawn(driver: TerminalDriver, columns: number, rows: number, showing: string) {
  driver.raw = '';
  driver.resize(columns, rows);
  await driver.waitFor((screen) => screen.includes(showing) && wholeFrame(driver.raw));
}

describe('a streamed reply in a terminal', () => {
  it('scrolls the transcript with a scroll region and leaves the screen as a whole redraw draws it', async () => {
    const workspace = tempDirForTest('tole-e2e-scroll-ws-');
    const terminal = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: tempDirForTest('tole-e2e-scroll-home-'), OPENAI_API_KEY: 'sk-test' },
      answers: true,
    });
    driver = terminal;
    await terminal.waitFor('type a prompt');
    for (const tag of ['one', 'two']) {
      terminal.raw = '';
      terminal.type(`reply ${tag}\r`);
      await terminal.waitFor(`end of ${tag}`);
      // The idle screen, its frame closed: tole draws nothing more until something changes.
      await terminal.waitFor(
        (screen) => screen.includes('Final · seq') && screen.includes('type a prompt') && noFrameOpen(terminal.raw),
      );
      // The transcript scrolled by a scroll region over its rows, not by rewriting them all.
      expect(terminal.raw).toMatch(/\x1b\[\d+;\d+r\x1b\[\d*S\x1b\[r/);
      // More than once; how many frames a reply gets depends on how its chunks arrive, and a
      // loaded machine bunches them (two scrolls were seen in one of a series of whole runs).
      expect(terminal.raw.match(/\x1b\[\d+;\d+r/g)?.length).toBeGreaterThanOrEqual(2);
      const streamed = await terminal.cells();
      // Narrower, then back: the redraw at 110 columns is seen before the next resize, so that
      // tole's redraw at 120 comes of its own resize and is not one coalesced with the first.
      await resizedAndRedrawn(terminal, 110, 40, `end of ${tag}`);
      await resizedAndRedrawn(terminal, 120, 40, `end of ${tag}`);
      // The terminal answered that it repeats (the first frame goes out before the answer, plain):
      // the redraw sends a rule as one character and REP.
      expect(terminal.raw).toMatch(/─\x1b\[\d{2,}b/);
      expect(streamed).toEqual(await terminal.cells());
    }
    terminal.type('\x03');
    await terminal.exit;
  }, 60_000);
});
