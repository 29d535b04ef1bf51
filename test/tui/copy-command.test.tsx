/**
 * `/copy` in the full-screen session: the last answer on the checked-out path goes to the
 * terminal as an OSC 52 clipboard sequence, and the flash says how much; with no answer, it
 * says there is nothing to copy and writes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
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
});
