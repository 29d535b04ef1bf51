import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { labelOf } from '../../src/core/session/labels';
import { SessionStore } from '../../src/core/storage/session-store';
import { chatRequests } from '../support/agent-fixtures';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { eventually, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { wiredSession, type WiredSession } from './wired-session';

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

async function withTurns(
  prompts: readonly string[],
  options: Parameters<typeof wiredSession>[0] = {},
): Promise<WiredSession> {
  const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model', ...options });
  for (const prompt of prompts) await wired.agent.runTurn(prompt, new AbortController().signal, () => {});
  return wired;
}

function open(wired: WiredSession, rows = 40): Screen {
  screen = renderScreen({ ...wired, columns: 140, rows });
  return screen;
}

async function command(s: Screen, text: string): Promise<void> {
  await s.type(text);
  await s.press(KEYS.enter);
}

describe('host slash commands, through a real Agent', () => {
  it('/compact summarizes through the model and says what it did; a prompt typed meanwhile waits its turn', async () => {
    const wired = await withTurns(['one', 'two', 'three', 'four', 'five']);
    // The summary is held until the prompt typed meanwhile shows as queued (a fixed delay lost the
    // race on a loaded machine: the summary came first, and the prompt was sent, not queued).
    let release = (): void => {};
    const summaryHeld = new Promise<void>((resolve) => (release = resolve));
    server.push({ text: ['SUMMARY: five small ', 'questions, all echoed.'], holdUntil: summaryHeld });
    const s = open(wired);
    await s.waitFor('main · 10 entries');
    await command(s, '/compact');
    await s.waitFor('compacting the conversation');
    await command(s, 'and now?');
    await s.waitFor('⧗ queued 1: and now?');
    expect(chatRequests(server)).toHaveLength(6);
    release();
    const done = stripAnsi(await s.waitFor(/compacted \d+ entries into a summary \(e_\w+\)/));
    expect(done.replace(/\s+/g, ' ')).toMatch(
      /: (~[\d.k]+ → ~[\d.k]+ tokens a turn|though it saves little yet \(~[\d.k]+ tokens\)); the tree keeps everything/,
    );
    await eventually(() => expect(pane(s.frame(), 'main ·')).toContain('echo: and now?'));
    expect(pane(s.frame(), 'main ·')).toContain('Σ compacted');
    const requests = chatRequests(server);
    expect(JSON.stringify(requests[requests.length - 1]!.body?.messages)).toContain(
      'SUMMARY: five small questions, all echoed.',
    );
  });

  it('/compact with too little to summarize says so, and writes nothing', async () => {
    const wired = await withTurns(['only one']);
    const before = wired.store.lastSeq;
    const s = open(wired);
    await command(s, '/compact');
    await s.waitFor('nothing to compact: the conversation is still within its last');
    // One sentence: no reason nested inside another.
    expect(s.frame()).not.toContain('nothing to summarize');
    expect(wired.store.lastSeq).toBe(before);
  });

  it('/fork copies the path to the selected entry into a new session and says how to open it', async () => {
    const wired = await withTurns(['first question', 'second question']);
    const s = open(wired);
    await s.waitFor('main · 4 entries');
    await s.press(KEYS.tab, KEYS.home, KEYS.down, KEYS.tab, KEYS.tab, KEYS.tab, KEYS.tab);
    await command(s, '/fork');
    const frame = stripAnsi(await s.waitFor('forked at'));
    const said = /forked at (e_\w+) into session (\S+): open it with \/resume (\S+)/.exec(frame.replace(/\s+/g, ' '));
    expect(said, frame).not.toBeNull();
    const [, entryId, id, again] = said!;
    expect(again).toBe(id);
    const file = readdirSync(wired.sessionsDir).find((name) => name.startsWith(id!));
    expect(file).toBeDefined();
    const fork = SessionStore.open(join(wired.sessionsDir, file!), {
      clock: systemClock,
      random: seededRandom(1),
      readOnly: true,
    });
    expect(fork.header.parent).toMatchObject({ sessionId: wired.store.header.id, entryId });
    expect(wired.store.tree.get(entryId!)?.type).toBe('assistant');
    expect(fork.tree.size).toBe(2);
    fork.close();
  });

  it('/label TEXT goes through core: it persists in the file and shows in the tree', async () => {
    const wired = await withTurns(['label me']);
    const s = open(wired);
    await command(s, '/label   the   start  ');
    await s.waitFor('labelled "the start"');
    expect(pane(s.frame(), 'tree')).toContain('⚑ the start');
    const reopened = SessionStore.open(wired.store.path, {
      clock: systemClock,
      random: seededRandom(1),
      readOnly: true,
    });
    const labelled = [...reopened.tree.all()].find((e) => labelOf(reopened, e.id) !== undefined);
    expect(labelled && labelOf(reopened, labelled.id)).toBe('the start');
    reopened.close();
    await command(s, '/label');
    await s.waitFor('label removed from');
  });

  it('/model NAME is used from the next call on; /usage, /tree, /help, /theme work; an unknown command says so; /quit quits', async () => {
    const wired = await withTurns([]);
    const s = open(wired);
    await command(s, '/model other-model');
    await s.waitFor('model: other-model (from the next model call on)');
    await command(s, 'which model?');
    await eventually(() => expect(pane(s.frame(), 'main ·')).toContain('echo: which model?'));
    expect(chatRequests(server).map((r) => r.body?.model)).toEqual(['other-model']);
    expect(wired.agent.model).toBe('other-model');

    await command(s, '/usage');
    await eventually(() => expect(stripAnsi(s.frame())).toMatch(/↑↓ scroll/));
    await s.press(KEYS.escape);
    await command(s, '/tree');
    await s.waitFor('⏎ check out');
    await s.press(KEYS.escape);
    await command(s, '/help');
    await s.waitFor('keys · Esc or ? closes');
    expect(stripAnsi(s.frame())).toContain('/compact');
    expect(stripAnsi(s.frame())).toContain('/fork');
    await s.press(KEYS.escape);
    await command(s, '/theme light');
    await s.waitFor('theme: light');
    await command(s, '/frobnicate');
    const unknown = stripAnsi(await s.waitFor('unknown command /frobnicate'));
    expect(unknown.replace(/\s+/g, ' ')).toContain('/compact /fork');
    await command(s, '/quit');
    await eventually(() => expect(s.quit).toHaveBeenCalledTimes(1));
  });

  it('runs the sessionStart hooks on open; a blocking one shows its reason and keeps prompts from being sent', async () => {
    const wired = await withTurns([], {
      config: { hooks: { sessionStart: 'echo "the working tree is dirty: commit first" >&2; exit 2' } },
    });
    expect(wired.sessionStart).toBeDefined();
    const s = open(wired);
    const frame = stripAnsi(await s.waitFor('a sessionStart hook blocked this session: the working tree is dirty'));
    expect(frame).toContain('✗ blocked by a hook');
    await command(s, 'do it anyway');
    await s.waitFor('(browse it; start tole again once that is fixed)');
    expect(stripAnsi(s.frame())).toContain('❯ do it anyway');
    expect(chatRequests(server)).toHaveLength(0);
  });

  it('a sessionStart hook that passes runs once, and the session goes on', async () => {
    const wired = await withTurns([], {
      config: { hooks: { sessionStart: 'touch started-once; echo "on branch main"' } },
    });
    const s = open(wired);
    await eventually(() => expect(existsSync(join(wired.root, 'started-once'))).toBe(true));
    await command(s, 'hello');
    await eventually(() => expect(pane(s.frame(), 'main ·')).toContain('echo: hello'));
    expect(stripAnsi(s.frame())).not.toContain('blocked');
  });
});
