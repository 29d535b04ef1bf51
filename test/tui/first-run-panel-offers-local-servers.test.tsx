import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaServer, type OllamaServer } from '../support/ollama-server';
import { eventually, KEYS, WAIT_MS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { append } from './session-fixture';
import { wiredSession } from './wired-session';
import { closedPort } from '../support/closed-port';

let screen: Screen | undefined;
let server: OllamaServer | undefined;
afterEach(async () => {
  screen?.unmount();
  await server?.close();
  server = undefined;
});

/** A local Ollama (found through its OpenAI-compatible model list, spoken to on its native /api/chat). */
async function firstRun(models = ['qwen-local', 'llama-local']) {
  server = await startOllamaServer({ models });
  const port = Number(new URL(server.url).port);
  const servers = [
    { name: 'Ollama', preset: 'ollama', port },
    { name: 'LM Studio', preset: 'lmstudio', port: await closedPort() },
  ];
  // The test's server answers in the test's own busy process: it gets longer than the product's
  // PROBE_TIMEOUT_MS (whose effect on a port that never answers is tested on its own below).
  const wired = wiredSession({ probe: { host: '127.0.0.1', servers, timeoutMs: WAIT_MS } });
  screen = renderScreen({ ...wired, columns: 120, rows: 40 });
  return { wired, server };
}

describe('the first run, with no provider configured and no key', () => {
  it('opens anyway, on a panel that says what it looked for and offers the local servers it found', async () => {
    const { wired, server } = await firstRun();
    expect(wired.setup.missing).toBe(true);
    expect(wired.provider.usable).toBe(false);
    const frame = stripAnsi(await screen!.waitFor('qwen-local'));
    const panel = pane(frame, 'no model provider yet');
    expect(panel).toMatch(/✗ OPENAI_API_KEY\s+not set/);
    expect(panel).toMatch(/✗ --base-url, OPENAI_BASE_URL\s+not given/);
    expect(panel).toMatch(/✗ ~\/\.config\/tole\/config\.json\s+not there/);
    expect(panel).toMatch(/✗ \.\/tole\.config\.json\s+not there/);
    expect(panel).toContain(`▸ Ollama     ${server.url.replace('http://', '')}`);
    expect(panel).toContain('qwen-local:latest, llama-local:latest');
    expect(panel).toMatch(/LM Studio\s+127\.0\.0\.1:\d+\s+nothing there/);
    expect(panel).toContain('export OPENAI_API_KEY=sk-...');
    expect(panel).toContain('tole --base-url http://127.0.0.1:11434/v1');
    expect(frame).toContain('✗ no provider');
    expect(frame).toContain('⏎ use it');
  });

  it('Enter uses the server found and its first model: the status bar says so, and a prompt goes there', async () => {
    const { wired, server } = await firstRun();
    await screen!.waitFor('qwen-local');
    await screen!.press(KEYS.enter);
    const frame = stripAnsi(await screen!.waitFor('qwen-local:latest on Ollama'));
    expect(frame).not.toContain('no provider');
    expect(frame).not.toContain('no model provider yet');
    expect(wired.provider.usable).toBe(true);
    expect(wired.provider.name).toBe('Ollama');
    expect(wired.agent.model).toBe('qwen-local:latest');
    await screen!.type('hello local');
    await screen!.press(KEYS.enter);
    // The first request also makes the provider client (tole loads it at the first call).
    await eventually(() => expect(pane(screen!.frame(), 'main ·')).toContain('echo: hello local'));
    // Spoken to on Ollama's own API (which takes num_ctx), at the server's root, not under /v1.
    expect(server.chats().map((body) => body.model)).toEqual(['qwen-local:latest']);
  });

  it('a prompt typed with no provider says what to do in one line, stays in the input, and is never sent', async () => {
    const { wired, server } = await firstRun();
    await screen!.waitFor('qwen-local');
    await screen!.press(KEYS.escape);
    await eventually(() => expect(stripAnsi(screen!.frame())).not.toContain('no model provider yet'));
    await screen!.type('explain the plan');
    await screen!.press(KEYS.enter);
    const frame = stripAnsi(await screen!.waitFor('no model provider yet: /connect finds a local server'));
    expect(frame).toContain('❯ explain the plan');
    expect(wired.store.tree.size).toBe(0);
    expect(server.chats()).toHaveLength(0);

    // /connect brings the panel back, and the prompt typed before is still there after a server is picked.
    await screen!.press('\x15');
    await screen!.type('/connect');
    await screen!.press(KEYS.enter);
    await screen!.waitFor('no model provider yet ─');
    await screen!.press(KEYS.down, KEYS.up, KEYS.enter);
    await screen!.waitFor('qwen-local:latest on Ollama');
  });

  it('a session with something in it opens on its panes to be browsed; the status bar says there is no provider', async () => {
    const wired = wiredSession();
    append(wired.store, 'user', { text: 'an old question' });
    append(wired.store, 'assistant', { text: 'an old answer', toolCalls: [], model: 'gpt-4.1', finishReason: 'stop' });
    screen = renderScreen({ ...wired, columns: 120, rows: 30 });
    const frame = stripAnsi(await screen.waitFor('an old answer'));
    expect(frame).not.toContain('no model provider yet');
    expect(frame).toContain('✗ no provider');
    expect(frame).toContain('no model yet: /connect finds a local server');
  });

  it('a port that takes connections and never answers is given up after PROBE_TIMEOUT_MS, and shown as nothing there', async () => {
    const sockets: Socket[] = [];
    const hung = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const { port } = hung.address() as { port: number };
    try {
      const wired = wiredSession({
        probe: { host: '127.0.0.1', servers: [{ name: 'Ollama', preset: 'ollama', port }] },
      });
      screen = renderScreen({ ...wired, columns: 120, rows: 40 });
      const frame = stripAnsi(await screen.waitFor('none answered'));
      expect(pane(frame, 'no model provider yet')).toMatch(
        new RegExp(`Ollama\\s+127\\.0\\.0\\.1:${port}\\s+nothing there`),
      );
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  });

  it('a server that lists no model is shown, and picking it says to load one', async () => {
    await firstRun([]);
    await screen!.waitFor('lists no model');
    await screen!.press(KEYS.enter);
    await screen!.waitFor('answers but lists no model');
    expect(stripAnsi(screen!.frame())).toContain('✗ no provider');
  });
});
