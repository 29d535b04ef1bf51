import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { eventually, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { wiredSession } from './wired-session';
import { closedPort } from '../support/closed-port';

let screen: Screen | undefined;
let server: ChatServer | undefined;
afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await server?.close();
  server = undefined;
});

async function send(s: Screen, text: string): Promise<void> {
  await s.type(text);
  await s.press(KEYS.enter);
}

/** The flash: the lines between the panes' last row (the rules between panes run down it) and the prompt. */
function flashOf(frame: string): string {
  const lines = stripAnsi(frame).split('\n');
  const prompt = lines.findIndex((l) => l.startsWith('❯'));
  const bottom = lines.slice(0, prompt).findLastIndex((l) => l.includes('│'));
  return lines.slice(bottom + 1, prompt).join('\n');
}

async function failingServer(status: number, body?: unknown): Promise<Screen> {
  server = await startChatServer({ replies: [{ error: { status, ...(body ? { body } : {}) } }] });
  const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
  screen = renderScreen({ ...wired, columns: 140, rows: 40 });
  return screen;
}

describe('provider errors in the screen: one line that says what to do, and the session goes on', () => {
  it('401: the key was refused', async () => {
    const s = await failingServer(401, {
      error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
    });
    await send(s, 'hello');
    // The file's first request also makes the provider client (tole loads it at the first call).
    const frame = stripAnsi(await s.waitFor('✗ key refused'));
    const flash = flashOf(frame);
    expect(flash.trim()).toBe(
      "! the key was refused: set a valid OPENAI_API_KEY (or your provider's key variable) and start tole again, or /connect",
    );
    expect(pane(frame, 'main ·')).toContain('Incorrect API key provided');
    expect(pane(frame, 'main ·').replace(/\s+/g, ' ')).toContain(`the server at ${server!.url} refused the key`);

    // The next prompt is sent as usual (the server now answers), and the alert goes.
    await send(s, 'again');
    await eventually(() => expect(pane(s.frame(), 'main ·')).toContain('echo: again'));
    expect(stripAnsi(s.frame())).not.toContain('✗ key refused');
  });

  it('404: the model is not found; /model picks another and ↑ brings the prompt back', async () => {
    const s = await failingServer(404, {
      error: { message: 'model "tole-test-model" not found', type: 'invalid_request_error', code: 'model_not_found' },
    });
    await send(s, 'count to three');
    const frame = stripAnsi(await s.waitFor('✗ model not found'));
    expect(flashOf(frame).trim()).toBe(
      '! no model "tole-test-model" on this server: /model NAME picks another, then ↑ brings the prompt back',
    );
    await send(s, '/model llama-local');
    await s.waitFor('model: llama-local');
    await s.press(KEYS.up);
    await s.waitFor('❯ /model llama-local');
    await s.press(KEYS.up);
    await s.waitFor('❯ count to three');
    await s.press(KEYS.enter);
    await eventually(() => expect(pane(s.frame(), 'main ·')).toContain('echo: count to three'));
    expect(server!.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body?.model)).toEqual([
      'tole-test-model',
      'llama-local',
    ]);
  });

  it('server down: it says to start the server, and the screen stays up', async () => {
    const port = await closedPort();
    const wired = wiredSession({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' });
    screen = renderScreen({ ...wired, columns: 140, rows: 40 });
    await send(screen, 'anyone there?');
    const frame = stripAnsi(await screen.waitFor('✗ server unreachable'));
    expect(flashOf(frame)).toContain(`is the server at http://127.0.0.1:${port}/v1 running?`);
    expect(flashOf(frame)).toContain('once it answers, ↑ brings the prompt back');
    expect(pane(frame, 'main ·').replace(/\s+/g, ' ')).toContain(`could not reach http://127.0.0.1:${port}/v1`);
    expect(screen.crash).not.toHaveBeenCalled();
    await screen.type('/usage');
    await screen.waitFor('❯ /usage');
  });

  it('no key: a prompt is held back with one line, and the status bar says no provider', async () => {
    const wired = wiredSession();
    screen = renderScreen({ ...wired, columns: 140, rows: 40 });
    await screen.waitFor('no model provider yet');
    await screen.press(KEYS.escape);
    await screen.waitFor('⏎ send');
    await send(screen, 'hello?');
    const frame = stripAnsi(await screen.waitFor('no model provider yet: /connect'));
    expect(flashOf(frame).trim().split('\n')).toHaveLength(1);
    expect(frame).toContain('✗ no provider');
    expect(frame).toContain('❯ hello?');
    await screen.press('\x15');
    await send(screen, '/compact');
    await screen.waitFor(
      '/compact: compacting asks the model for a summary, and there is no model yet: /connect finds a local server',
    );
  });
});
