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

const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('a streamed reply in a terminal', () => {
  it('scrolls the transcript with a scroll region and leaves the screen as a whole redraw draws it', async () => {
    const workspace = tempDirForTest('tole-e2e-scroll-ws-');
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: tempDirForTest('tole-e2e-scroll-home-'), OPENAI_API_KEY: 'sk-test' },
      answers: true,
    });
    await driver.waitFor('type a prompt');
    for (const tag of ['one', 'two']) {
      driver.raw = '';
      driver.type(`reply ${tag}\r`);
      await driver.waitFor(`end of ${tag}`);
      await driver.waitFor((screen) => screen.includes('Final · seq') && screen.includes('type a prompt'));
      await settle(300);
      // The transcript scrolled by a scroll region over its rows, not by rewriting them all.
      expect(driver.raw).toMatch(/\x1b\[\d+;\d+r\x1b\[\d*S\x1b\[r/);
      expect(driver.raw.match(/\x1b\[\d+;\d+r/g)?.length).toBeGreaterThan(2);
      const streamed = await driver.cells();
      driver.resize(110, 40);
      await settle(300);
      driver.resize(120, 40);
      await driver.waitFor(`end of ${tag}`);
      await settle(500);
      // The terminal answered that it repeats (the first frame goes out before the answer, plain):
      // the redraws after it send a rule as one character and REP.
      expect(driver.raw).toMatch(/─\x1b\[\d{2,}b/);
      expect(streamed).toEqual(await driver.cells());
    }
    driver.type('\x03');
    await driver.exit;
  }, 60_000);
});
