/**
 * While the user writes a prompt, tole gets the model call ready: the server is asked for the
 * model's window (which the first call would otherwise ask) before ⏎, so the usage pane shows it
 * and the prompt leaves without waiting. A slash command being typed asks nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequests } from '../support/agent-fixtures';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { eventually, KEYS, pane, renderScreen, type Screen } from './harness';
import { wiredSession } from './wired-session';

let screen: Screen | undefined;
let server: ChatServer | undefined;
afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await server?.close();
});

const asked = (s: ChatServer): string[] => s.requests.map((r) => `${r.method} ${r.path}`);

describe('writing a prompt gets the model call ready', () => {
  it('the window is learned while the prompt is typed, and asked only once', async () => {
    server = await startChatServer();
    const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
    // Each time the screen gets the call ready, counted: a slash command must not.
    let readied = 0;
    const prepare = wired.agent.prepare.bind(wired.agent);
    wired.agent.prepare = () => {
      readied++;
      prepare();
    };
    screen = renderScreen({ ...wired, columns: 140, rows: 40 });
    const s = screen;
    await s.type('/hel');
    await s.waitFor('❯ /hel');
    // Rubbed out again: the screen drew each key, and ran the effects of every frame before it.
    for (let i = 0; i < 4; i++) await s.press('\x7f');
    await eventually(() => expect(s.frame()).not.toContain('❯ /'));
    expect(readied).toBe(0);
    expect(asked(server)).toEqual([]);
    await s.type('hello');
    await eventually(() => expect(asked(server!)).toContain('GET /v1/models'));
    expect(readied).toBe(1);
    expect(chatRequests(server)).toHaveLength(0);
    expect(pane(await s.waitFor('32.8k from GET', 5_000), 'usage')).toMatch(/window\s+32\.8k from GET \/v1\/models/);
    await s.press(KEYS.enter);
    await s.waitFor('echo: hello', 10_000);
    expect(asked(server).filter((r) => r === 'GET /v1/models')).toHaveLength(1);
    expect(chatRequests(server)).toHaveLength(1);
  });
});
