/**
 * `/copy` in the full-screen session: the last answer on the checked-out path goes to the
 * terminal as an OSC 52 clipboard sequence, and the flash says how much; with no answer, it
 * says there is nothing to copy and writes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { multiplexerOf } from '../../src/tui/commands/copy-answer';
import { KEYS, renderScreen, type Screen } from './harness';
import { wiredSession } from './wired-session';

let screen: Screen | undefined;
let server: ChatServer;
beforeEach(async () => {
  server = await startChatServer();
});
afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await server.close();
});

async function command(s: Screen, text: string): Promise<void> {
  await s.type(text);
  await s.press(KEYS.enter);
}

describe('/copy', () => {
  it('writes the last answer as ESC ] 52 ; c ; base64 BEL and says its size', async () => {
    const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
    await wired.agent.runTurn('first', new AbortController().signal, () => {});
    server.push({ text: ['héllo\n', 'second line'] });
    await wired.agent.runTurn('second', new AbortController().signal, () => {});
    const written: string[] = [];
    screen = renderScreen({ ...wired, columns: 140, rows: 40, writeTerminal: (data) => written.push(data) });
    await command(screen, '/copy');
    await screen.waitFor('copied the last answer (18 bytes, 2 lines)');
    expect(written).toEqual([`\x1b]52;c;${Buffer.from('héllo\nsecond line').toString('base64')}\x07`]);
  });

  it('says there is nothing to copy in a session without an answer, and writes nothing', async () => {
    const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
    const written: string[] = [];
    screen = renderScreen({ ...wired, columns: 140, rows: 40, writeTerminal: (data) => written.push(data) });
    await command(screen, '/copy');
    await screen.waitFor('nothing to copy: there is no answer on this path yet');
    expect(written).toEqual([]);
  });

  it('inside tmux wraps the sequence in its passthrough: ESC P tmux; with every ESC doubled, then ESC \\', async () => {
    const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
    server.push({ text: ['hi'] });
    await wired.agent.runTurn('first', new AbortController().signal, () => {});
    const written: string[] = [];
    screen = renderScreen({
      ...wired,
      columns: 140,
      rows: 40,
      multiplexer: multiplexerOf({ TMUX: '/tmp/tmux-0/default,123,0', STY: '' }),
      writeTerminal: (data) => written.push(data),
    });
    await command(screen, '/copy');
    await screen.waitFor('through tmux');
    // "hi" is aGk= in base64.
    expect(written).toEqual(['\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\']);
  });

  it('inside GNU screen sends the sequence in ESC P … ESC \\ pieces of at most 252 bytes', async () => {
    const answer = 'x'.repeat(300);
    const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
    server.push({ text: [answer] });
    await wired.agent.runTurn('first', new AbortController().signal, () => {});
    const written: string[] = [];
    screen = renderScreen({
      ...wired,
      columns: 140,
      rows: 40,
      multiplexer: multiplexerOf({ STY: '4242.pts-0.host' }),
      writeTerminal: (data) => written.push(data),
    });
    await command(screen, '/copy');
    await screen.waitFor('through GNU screen');
    const whole = `\x1b]52;c;${Buffer.from(answer).toString('base64')}\x07`;
    expect(whole.length).toBe(408);
    expect(written).toEqual([`\x1bP${whole.slice(0, 252)}\x1b\\\x1bP${whole.slice(252)}\x1b\\`]);
  });

  it('finds no multiplexer without TMUX or STY', () => {
    expect(multiplexerOf({ TERM: 'xterm-256color' })).toBeNull();
    expect(multiplexerOf({ TMUX: '', STY: '' })).toBeNull();
  });
});
