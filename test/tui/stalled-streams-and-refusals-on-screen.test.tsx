/**
 * The screen against a local server that stalls or refuses: the wait on a silent stream shows
 * with its countdown to the retry, Esc stops it at once, and a refusal reads as one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startChatServer, type ChatServer, type ScriptedReply } from '../support/chat-server';
import { KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { wiredSession, type WiredSession } from './wired-session';

let screen: Screen | undefined;
let server: ChatServer | undefined;
let store: WiredSession['store'] | undefined;
afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await server?.close();
  server = undefined;
});

async function open(replies: ScriptedReply[], limits: Record<string, number>): Promise<Screen> {
  server = await startChatServer({ replies });
  const wired = wiredSession({
    baseUrl: server.url,
    model: 'tole-test-model',
    config: { limits: { maxAttempts: 2, ...limits } },
  });
  store = wired.store;
  screen = renderScreen({ ...wired, columns: 140, rows: 40 });
  await screen.type('go');
  await screen.press(KEYS.enter);
  return screen;
}

describe('a silent stream and a refusal on screen', () => {
  it('a stalled stream shows how long it has been silent and when tole retries, then the retry answers', async () => {
    const s = await open([{ text: ['par', 'tial'], stallAfterChunks: 2, keepAliveMs: 100 }, { text: 'whole answer' }], {
      streamIdleTimeoutMs: 4000,
    });
    await vi.waitFor(() => expect(stripAnsi(s.frame())).toContain('no data for'), { timeout: 10_000 });
    const waiting = stripAnsi(s.frame());
    expect(waiting).toMatch(/⧗ no data for [\d.]+ m?s · gives up in [\d.]+ m?s · Esc stops/);
    await vi.waitFor(() => expect(pane(s.frame(), 'main ·')).toContain('whole answer'), { timeout: 10_000 });
    expect(stripAnsi(s.frame())).not.toContain('no data for');
  });

  it('Esc stops a stalled stream at once', async () => {
    // The wait shows after a quarter of the limit (or 5 s) of silence.
    const s = await open([{ text: 'x', stallAfterChunks: 1 }], {
      streamIdleTimeoutMs: 6000,
      firstTokenTimeoutMs: 6000,
    });
    await vi.waitFor(() => expect(stripAnsi(s.frame())).toContain('no first token for'), { timeout: 10_000 });
    await s.press(KEYS.escape);
    await vi.waitFor(() => expect(stripAnsi(s.frame())).not.toContain('no first token for'), { timeout: 10_000 });
    // Stopped by the key, not by the limit: the attempt is not retried.
    await vi.waitFor(() => expect(store!.usage.at(-1)?.usage).toMatchObject({ outcome: 'aborted' }), {
      timeout: 10_000,
    });
    expect(server!.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
  });

  it('a refusal is marked as the model declining, apart from an answer', async () => {
    const s = await open([{ refusal: 'I will not do that.' }], {});
    await vi.waitFor(() => expect(pane(s.frame(), 'main ·')).toContain('I will not do that.'), { timeout: 10_000 });
    const main = pane(s.frame(), 'main ·');
    expect(main).toContain('⊘ the model declined to answer');
    expect(pane(s.frame(), 'tree')).toContain('⊘ declined: I will');
  });
});
