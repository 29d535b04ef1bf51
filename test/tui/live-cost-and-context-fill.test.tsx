/**
 * The usage pane while a reply streams from the real local chat server, paced: the cost column
 * moves with the streamed text, marked `~` (turn, branch and session), until the server's usage
 * comes back and replaces the estimate with the real figure; the context fill (prompt tokens
 * against the window), coloured when high; on a narrow screen the status bar carries both.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadTheme } from '../../src/tui/style/theme';
import { themeView } from '../../src/tui/style/theme-context';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { eventually, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { wiredSession } from './wired-session';
import { inFullColor } from './full-color';

let screen: Screen | undefined;
let server: ChatServer;
inFullColor();
beforeEach(async () => {
  server = await startChatServer();
});
afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await server.close();
});

/** $10 a million prompt tokens, $20 a million output tokens: 5,000 in and 300 out cost $0.056. */
const PRICED = { 'tole-test-model': { inputUsdPerMTok: 10, outputUsdPerMTok: 20 } };

function wired(contextWindow: number, pricing: Record<string, { inputUsdPerMTok: number; outputUsdPerMTok: number }>) {
  return wiredSession({
    baseUrl: server.url,
    model: 'tole-test-model',
    config: { limits: { maxAttempts: 1 }, pricing, compaction: { contextWindow } },
  });
}

/**
 * A reply of 1,200 characters: one chunk of text (after the role's), then silence (the call stays
 * open) until the test calls what this returns, then two more chunks and the server's usage.
 */
function pacedReply(): () => void {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.push({
    text: ['a'.repeat(400), 'b'.repeat(400), 'c'.repeat(400)],
    stallAfterChunks: 2,
    stallUntil: released,
    usage: { prompt_tokens: 5000, completion_tokens: 300, total_tokens: 5300 },
  });
  return release;
}

const row = (usage: string, name: string): string =>
  usage.split('\n').find((l) => l.trimStart().startsWith(name)) ?? '';

describe('the live cost column', () => {
  it('estimates the cost from the streamed text, marked ~, and puts the real figure in when the usage arrives', async () => {
    const session = wired(128_000, PRICED);
    const release = pacedReply();
    screen = renderScreen({ ...session, columns: 140, rows: 40 });
    await screen.type('go');
    await screen.press(KEYS.enter);
    // Mid-stream: every figure the open call moves is marked, the cost included.
    await eventually(() => expect(row(pane(screen!.frame(), 'usage'), 'turn')).toMatch(/~\d+/));
    const streaming = pane(screen.frame(), 'usage');
    for (const name of ['turn', 'branch', 'session'])
      expect(row(streaming, name)).toMatch(/^\s*\w+\s+~[\d.]+k?\s+~\d+\s+~\$0\.\d+\s*$/);
    // The estimate is the price of what was streamed: four characters a token.
    const [, input, output, cost] = /~([\d.]+k?)\s+~(\d+)\s+~\$([\d.]+)/.exec(row(streaming, 'turn'))!;
    const tokens = (t: string): number => (t.endsWith('k') ? Number.parseFloat(t) * 1000 : Number(t));
    expect(Number(output) % 100).toBe(0);
    expect(Number(cost)).toBeCloseTo((tokens(input!) * 10 + Number(output) * 20) / 1e6, 3);
    expect(pane(screen.frame(), 'usage')).toMatch(/context\s+~[\d.]+k\/128k \d+%/);

    release();
    await screen.waitFor('cccc');
    await vi.waitFor(() =>
      expect(row(pane(screen!.frame(), 'usage'), 'turn')).toMatch(/turn\s+5\.0k\s+300\s+\$0\.056/),
    );
    const done = pane(screen.frame(), 'usage');
    expect(row(done, 'session')).toMatch(/session\s+5\.0k\s+300\s+\$0\.056\s*$/);
    expect(done).not.toContain('~');
    expect(done).toMatch(/context\s+5\.0k\/128k 4%/);
  });

  it('a model without a price gets no estimated cost: its tokens are still estimated, and the cost says +?', async () => {
    const session = wired(128_000, {});
    const release = pacedReply();
    screen = renderScreen({ ...session, columns: 140, rows: 40 });
    await screen.type('go');
    await screen.press(KEYS.enter);
    await eventually(() => expect(row(pane(screen!.frame(), 'usage'), 'turn')).toMatch(/~\d+/));
    expect(row(pane(screen.frame(), 'usage'), 'turn')).toMatch(/~[\d.]+k?\s+~\d+\s+\$0\+\?\s*$/);
    release();
    await eventually(() => expect(row(pane(screen!.frame(), 'usage'), 'turn')).toMatch(/turn\s+5\.0k\s+300\s+\$0\+\?/));
  });
});

describe('the context fill', () => {
  it('shows the prompt tokens of the last call against the window, in the error colour when nearly full', async () => {
    const session = wired(5_500, PRICED);
    server.push({ text: 'short', usage: { prompt_tokens: 5000, completion_tokens: 2, total_tokens: 5002 } });
    screen = renderScreen({ ...session, columns: 140, rows: 40 });
    // Before any call: the next call's estimate.
    await vi.waitFor(() => expect(pane(screen!.frame(), 'usage')).toMatch(/context\s+~[\d.]+k?\/5\.5k \d+%/));
    await screen.type('go');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(pane(screen!.frame(), 'usage')).toContain('context 5.0k/5.5k 91%'), 5000);
    const line = screen
      .frame()
      .split('\n')
      .find((l) => stripAnsi(l).includes('context 5.0k/5.5k 91%'))!;
    const view = themeView(loadTheme('dark'), false);
    expect(line).toContain(view.paint('5.0k/5.5k 91%', 'error'));
    expect(view.paint('x', 'error')).not.toBe(view.paint('x', 'text'));
  });
});

describe('a narrow screen', () => {
  it('at 80x24 the status bar carries the session cost and the context fill', async () => {
    const session = wired(128_000, PRICED);
    server.push({ text: 'short', usage: { prompt_tokens: 5000, completion_tokens: 300, total_tokens: 5300 } });
    screen = renderScreen({ ...session, columns: 80, rows: 24 });
    await screen.type('go');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toContain('$0.056 · ctx 5.0k/128k 4%'), 5000);
    const status = stripAnsi(screen.frame()).split('\n').filter(Boolean).at(-1)!;
    expect(status).toMatch(/^ ● \w+ · \$0\.056 · ctx 5\.0k\/128k 4% · tole-test-model +⏎ send +Tab panes/);
    // The usage pane is off screen: only the transcript shows.
    expect(pane(screen.frame(), 'usage')).toBe('');
  });

  it('paints the fill in the status bar as an alert when the window is nearly full', async () => {
    const session = wired(5_500, PRICED);
    server.push({ text: 'short', usage: { prompt_tokens: 5000, completion_tokens: 2, total_tokens: 5002 } });
    screen = renderScreen({ ...session, columns: 80, rows: 24 });
    await screen.type('go');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toContain('ctx 5.0k/5.5k 91%'), 5000);
    const status = screen
      .frame()
      .split('\n')
      .findLast((l) => stripAnsi(l).includes('ctx 5.0k/5.5k 91%'))!;
    const styleBefore = (text: string): string =>
      status.slice(0, status.indexOf(text)).match(/(\x1b\[[0-9;]*m)+$/)?.[0] ?? '';
    // The cost and fill are drawn apart from the rest of the bar, in another style.
    expect(styleBefore('$0.050')).not.toBe('');
    expect(styleBefore('$0.050')).not.toBe(styleBefore('tole-test-model'));
  });
});
