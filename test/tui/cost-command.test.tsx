/**
 * `/cost`: an overlay with the session's calls and their cost, whole, priced against unpriced,
 * per model, per branch and along the checked-out path, over a real Agent talking to the local
 * chat server; the call in flight is added as an estimate marked `~`; Esc or q closes it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkout } from '../../src/core/session/cursor';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { eventually, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
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

const usage = (input: number, output: number) => ({
  prompt_tokens: input,
  completion_tokens: output,
  total_tokens: input + output,
});

/** $10 a million prompt tokens and $20 a million output tokens, for tole-test-model only. */
function wired() {
  return wiredSession({
    baseUrl: server.url,
    model: 'tole-test-model',
    config: {
      limits: { maxAttempts: 1 },
      pricing: { 'tole-test-model': { inputUsdPerMTok: 10, outputUsdPerMTok: 20 } },
    },
  });
}

async function command(s: Screen, text: string): Promise<void> {
  await s.type(text);
  await s.press(KEYS.enter);
}

/** The overlay's row that starts with `name`, its columns squeezed to single spaces. */
function row(frame: string, name: string): string {
  const line = pane(frame, 'cost ·')
    .split('\n')
    .find((l) => l.trim().replace(/^▸ /, '').startsWith(name));
  return (line ?? '').trim().replace(/\s+/g, ' ');
}

describe('/cost', () => {
  it('splits the calls priced and unpriced, per model and per branch, and Esc closes it', async () => {
    const session = wired();
    const signal = new AbortController().signal;
    // main: a priced call (1,000 in, 100 out: $0.012), then one on a model without a price.
    server.push({ text: 'one', usage: usage(1000, 100) });
    await session.agent.runTurn('first', signal, () => {});
    // The first call's row hangs on the first prompt: the branch starts beside its answer.
    const firstPromptId = [...session.store.usage][0]!.entryId!;
    session.agent.model = 'local-llm';
    server.push({ text: 'two', usage: usage(2000, 200) });
    await session.agent.runTurn('second', signal, () => {});
    // A second branch from the first prompt, priced again (3,000 in, 300 out: $0.036).
    session.agent.model = 'tole-test-model';
    checkout(session.store, firstPromptId);
    server.push({ text: 'three', usage: usage(3000, 300) });
    await session.agent.runTurn('third', signal, () => {});

    screen = renderScreen({ ...session, columns: 120, rows: 40 });
    await command(screen, '/cost');
    const frame = stripAnsi(await screen.waitFor('per branch'));
    expect(row(frame, 'all calls')).toBe('all calls 3 6.0k 600 $0.048+?');
    expect(row(frame, 'priced')).toBe('priced 2 4.0k 400 $0.048');
    expect(row(frame, 'unpriced')).toBe('unpriced 1 2.0k 200 ? no price for local-llm: set "pricing" in the config');
    expect(row(frame, 'tole-test-model')).toBe('tole-test-model 2 4.0k 400 $0.048');
    expect(row(frame, 'local-llm')).toBe('local-llm 1 2.0k 200 ? unpriced');
    expect(row(frame, 'main')).toBe('main 2 3.0k 300 $0.012+?');
    const lanes = pane(frame, 'cost ·').split('\n');
    const checkedOut = lanes.find((l) => l.includes('checked out'))!;
    expect(checkedOut.trim()).toMatch(/^▸ \S+ +1 +3\.0k +300 +\$0\.036 +checked out$/);
    expect(checkedOut).not.toContain('main');
    // The checked-out path: the first call and the branch's, not the second.
    expect(row(frame, 'this path')).toMatch(/^this path 2 4\.0k 400 \$0\.048 /);
    expect(frame).not.toContain('in flight');
    // Only the marks the overlay shows are explained: +? here, ~ while a call is open.
    expect(frame).toContain('+? some calls had no price');
    expect(frame).not.toContain('~ estimated');

    await screen.press(KEYS.escape);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).not.toContain('per branch'));
    expect(pane(screen.frame(), 'usage')).toContain('session');
  });

  it('adds the call in flight as an estimate marked ~, then the real figure; q closes it', async () => {
    const session = wired();
    // The first chunk of text (after the role's), then nothing (the call stays open while /cost is
    // typed and read) until the test lets the rest come.
    let release = (): void => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.push({
      text: ['a'.repeat(400), 'b'.repeat(400), 'c'.repeat(400)],
      stallAfterChunks: 2,
      stallUntil: released,
      usage: usage(5000, 300),
    });
    screen = renderScreen({ ...session, columns: 120, rows: 40 });
    await command(screen, 'go');
    await screen.waitFor('aaaa');
    await command(screen, '/cost');
    const streaming = stripAnsi(await screen.waitFor('in flight'));
    expect(row(streaming, 'in flight')).toMatch(/^in flight 0\+1 ~[\d.]+k? ~\d+ ~\$0\.\d+ estimated \(~\) until/);
    expect(row(streaming, 'all calls')).toMatch(/^all calls 0\+1 ~[\d.]+k? ~\d+ ~\$0\.\d+/);
    expect(row(streaming, 'tole-test-model')).toMatch(/^tole-test-model 0\+1 ~/);
    expect(streaming).toContain('~ estimated');

    // The server's usage replaces the estimate: 5,000 in and 300 out cost $0.056.
    release();
    await eventually(() => expect(row(stripAnsi(screen!.frame()), 'all calls')).toBe('all calls 1 5.0k 300 $0.056'));
    expect(stripAnsi(screen.frame())).not.toContain('in flight');
    expect(stripAnsi(screen.frame())).not.toContain('~ estimated');
    expect(stripAnsi(screen.frame())).not.toContain('+? some calls');
    await screen.press('q');
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).not.toContain('per branch'));
  });

  it('is listed in ? and /help', async () => {
    screen = renderScreen({ ...wired(), columns: 160, rows: 50 });
    await screen.press('?');
    const keys = stripAnsi(await screen.waitFor('keys · Esc'));
    expect(keys).toMatch(/\/cost +what the calls cost/);
    await screen.press(KEYS.escape);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).not.toContain('keys · Esc'));
    await command(screen, '/help');
    expect(stripAnsi(await screen.waitFor('keys · Esc'))).toMatch(/\/cost +what the calls cost/);
  });
});
