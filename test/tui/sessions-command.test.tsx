/**
 * `/sessions` in the full-screen session: this directory's sessions in an overlay (what
 * `tole sessions` lists), the open one marked; a session of another directory is left out.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { KEYS, renderScreen, stripAnsi, type Screen } from './harness';
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

describe('/sessions', () => {
  it("lists this directory's sessions with the open one marked, and leaves other directories out", async () => {
    const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
    await wired.agent.runTurn('what is in this repo', new AbortController().signal, () => {});
    const elsewhere = SessionStore.create(wired.sessionsDir, {
      clock: systemClock,
      random: seededRandom(9),
      cwd: '/somewhere/else',
    });
    const otherId = elsewhere.header.id;
    elsewhere.close();
    screen = renderScreen({ ...wired, columns: 140, rows: 40 });
    await screen.type('/sessions');
    await screen.press(KEYS.enter);
    const frame = stripAnsi(await screen.waitFor('▸ is this one'));
    const row = frame.split('\n').find((line) => line.includes(wired.store.header.id))!;
    expect(row.replace(/\s+/g, ' ')).toMatch(/▸ \S+ \d{4}-\d\d-\d\d \d\d:\d\d 2 entries .* what is in this repo/);
    expect(frame).toContain(`1 in ${wired.root}`);
    expect(frame).not.toContain(otherId);
  });
});
