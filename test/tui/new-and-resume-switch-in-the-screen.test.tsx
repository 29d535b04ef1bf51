/**
 * `/new` and `/resume` change the session the screen shows without leaving it, through the host
 * tole really uses (src/cli/screen-sessions.ts: openForTui, prepareSession, wireTui, a real Agent
 * over the OpenAI client and the local chat server). The session left is kept whole and let go
 * (its lock too); nothing is switched while a turn runs. What /new restarts (the session's MCP
 * servers) is new-restarts-the-mcp-servers-a-session-owns.test.tsx, in the process tier: it runs
 * the notes server the tests bundle.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import chalk from 'chalk';
import { render } from 'ink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newestSessionIn } from '../../src/cli/session-files';
import { seededRandom, systemClock } from '../../src/core/clock';
import { nameSession } from '../../src/core/session/session-name';
import { SessionStore } from '../../src/core/storage/session-store';
import type { SessionSwitching } from '../../src/tui/picker/session-switch';
import { SessionScreen, type SessionSwitcher } from '../../src/tui/screen/SessionScreen';
import { createTuiApprover } from '../../src/tui/approval/approval-queue';
import { loadTheme } from '../../src/tui/style/theme';
import { afterTheTest } from '../support/after-the-test';
import { chatServerForTest } from '../support/chat-server-for-test';
import { FakeStdin, FakeStdout, hangingAgent, KEYS, renderScreen, stripAnsi, type Screen } from './harness';
import { openTole, tick } from './tole-in-the-screen';
import { append, emptyStore, prepareSession } from './session-fixture';

/** Opens a session file for writing: this fails while another open holds its lock. */
function lockIsFree(path: string): boolean {
  try {
    SessionStore.open(path, { clock: systemClock, random: seededRandom(2) }).close();
    return true;
  } catch {
    return false;
  }
}

function entriesOnDisk(path: string): number {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(4), readOnly: true });
  try {
    return store.tree.size;
  } finally {
    store.close();
  }
}

describe('/new', () => {
  it('starts a new session with the model in use, keeps the old one whole and lets it go; -c then opens the new one', async () => {
    const server = await chatServerForTest();
    const tole = await openTole(server);
    await tole.shows('type a prompt');
    await tole.type('what is in this repo');
    await tole.press(KEYS.enter);
    await tole.shows('echo: what is in this repo');
    await tole.shows(/Final · seq/);
    const oldPath = newestSessionIn(tole.dir, tole.root)!;
    expect(lockIsFree(oldPath)).toBe(false);

    await tole.type('/model other-model');
    await tole.press(KEYS.enter);
    await tole.type('/new');
    await tole.press(KEYS.enter);
    const opened = await tole.shows('the one before is kept whole');
    expect(opened).not.toContain('echo: what is in this repo');
    expect(opened).toContain('other-model');

    // The old session: whole on disk, and its lock let go.
    expect(entriesOnDisk(oldPath)).toBeGreaterThanOrEqual(2);
    expect(lockIsFree(oldPath)).toBe(true);

    // An empty new session is not left for another /new.
    await tole.type('/new');
    await tole.press(KEYS.enter);
    await tole.shows('this session is new and still empty');

    await tole.type('second session');
    await tole.press(KEYS.enter);
    await tole.shows('echo: second session');
    expect(server.requests.at(-1)?.body?.model).toBe('other-model');
    const newPath = newestSessionIn(tole.dir, tole.root)!;
    expect(newPath).not.toBe(oldPath);
    expect(entriesOnDisk(newPath)).toBeGreaterThanOrEqual(2);
    expect(tole.quit).not.toHaveBeenCalled();
  });
});

describe('/resume', () => {
  it('shows the picker in the screen, with names; Esc goes back; Enter switches and lets the other session go', async () => {
    const server = await chatServerForTest();
    const tole = await openTole(server);
    await tole.shows('type a prompt');
    await tole.type('first topic');
    await tole.press(KEYS.enter);
    await tole.shows('echo: first topic');
    await tole.type('/name the first one');
    await tole.press(KEYS.enter);
    await tole.shows('the first one · main');
    await tole.type('/sessions');
    await tole.press(KEYS.enter);
    const listed = await tole.shows('▸ is this one');
    expect(listed).toMatch(/▸ \S+ .* the first one · first topic/);
    expect(listed).toContain('/resume switches to another here');
    await tole.press(KEYS.escape);
    const firstPath = newestSessionIn(tole.dir, tole.root)!;
    await tole.type('/new');
    await tole.press(KEYS.enter);
    await tole.shows('the one before is kept whole');
    await tole.type('second topic');
    await tole.press(KEYS.enter);
    await tole.shows('echo: second topic');
    const secondPath = newestSessionIn(tole.dir, tole.root)!;

    await tole.type('/resume');
    await tole.press(KEYS.enter);
    const picker = await tole.shows('resume a session');
    expect(picker).toContain('the first one · first topic');
    // The session open here is not offered.
    expect(picker).not.toContain('second topic');
    expect(picker).toMatch(/Esc back/);
    await tole.press(KEYS.escape);
    await tole.shows('echo: second topic');
    expect(tole.frame()).not.toContain('resume a session');

    await tole.type('/resume');
    await tole.press(KEYS.enter);
    await tole.shows('resume a session');
    await tole.type('first');
    await tole.shows('❯ first');
    await tole.press(KEYS.enter);
    const back = await tole.shows('echo: first topic');
    expect(back).toContain('the first one · main');
    expect(back).not.toContain('echo: second topic');
    expect(lockIsFree(secondPath)).toBe(true);
    expect(lockIsFree(firstPath)).toBe(false);

    // The session goes on where it was.
    await tole.type('more on it');
    await tole.press(KEYS.enter);
    await tole.shows('echo: more on it');
    expect(entriesOnDisk(firstPath)).toBeGreaterThanOrEqual(4);
    expect(tole.quit).not.toHaveBeenCalled();
  });

  it('leaves no empty session behind: a start that resumes another at once removes the one it made', async () => {
    // --storage names the format of new sessions: it does not stand in the way of resuming one.
    const server = await chatServerForTest();
    const tole = await openTole(server, { argv: ['--storage', 'jsonl'] });
    await tole.shows('type a prompt');
    const made = readdirSync(tole.dir).filter((f) => f.endsWith('.jsonl'));
    expect(made).toHaveLength(1);
    const earlier = SessionStore.create(tole.dir, { clock: systemClock, random: seededRandom(78), cwd: tole.root });
    append(earlier, 'user', { text: 'an earlier question' });
    earlier.close();
    await tole.type('/resume');
    await tole.press(KEYS.enter);
    const picker = await tole.shows('resume a session');
    expect(picker).toContain('an earlier question');
    expect(picker).toContain('1 of 1');
    await tole.press(KEYS.enter);
    await tole.shows(`opened session ${earlier.header.id}`);
    await vi.waitFor(() => expect(existsSync(join(tole.dir, made[0]!))).toBe(false));
    expect(readdirSync(tole.dir).filter((f) => f.endsWith('.jsonl'))).toEqual([`${earlier.header.id}.jsonl`]);
  });

  it('opens a session another tole holds read-only, saying who holds it; /resume ID of the open one says so', async () => {
    const server = await chatServerForTest();
    const tole = await openTole(server);
    await tole.shows('type a prompt');
    await tole.type('mine');
    await tole.press(KEYS.enter);
    await tole.shows('echo: mine');
    const mine = newestSessionIn(tole.dir, tole.root)!;
    // Another holder: a writable open with its lock live (this process, alive).
    const held = SessionStore.create(tole.dir, { clock: systemClock, random: seededRandom(77), cwd: tole.root });
    append(held, 'user', { text: 'held elsewhere' });
    nameSession(held, 'busy one');
    afterTheTest(async () => held.close());

    await tole.type(`/resume ${held.header.id}`);
    await tole.press(KEYS.enter);
    const frame = await tole.shows('locked by pid');
    expect(frame).toContain('held elsewhere');
    expect(frame).toContain('read-only');
    expect(lockIsFree(mine)).toBe(true);
    // The holder still writes: the read-only view took nothing from it.
    append(held, 'user', { text: 'still mine' });

    await tole.type(`/resume ${held.header.id}`);
    await tole.press(KEYS.enter);
    await tole.shows('is the session open here');
  });
});

describe('the screen while it switches', () => {
  it('holds prompts while the other session opens, draws it in place, then lets the old one go; /theme and the prompt history carry over', async () => {
    const level = chalk.level;
    chalk.level = 3;
    afterTheTest(async () => {
      chalk.level = level;
    });
    const { store: first } = prepareSession();
    const second = emptyStore();
    append(second, 'user', { text: 'the other session' });
    const firstAgent = hangingAgent();
    const secondAgent = hangingAgent();
    let opened!: () => void;
    const released: unknown[] = [];
    const switcher: SessionSwitcher = {
      list: () => ({ sessions: [], cwd: '/work/project', home: '/home/x', nowMs: 0 }),
      open: (request) =>
        new Promise((resolve) => {
          expect(request).toEqual({ kind: 'new' });
          opened = () =>
            resolve({ store: second, agent: secondAgent, approvals: createTuiApprover({ armMs: 0 }), policy: null });
        }),
      release: async (session) => {
        released.push(session.store);
      },
    };
    const stdout = new FakeStdout(140, 40);
    const stdin = new FakeStdin();
    const instance = render(
      <SessionScreen
        session={{ store: first, agent: firstAgent, approvals: createTuiApprover({ armMs: 0 }), policy: null }}
        switcher={switcher}
        theme={loadTheme('dark')}
        noColor={false}
        resumeOnOpen={false}
        onQuit={() => {}}
        onCrash={(error) => {
          throw error;
        }}
      />,
      { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, debug: true },
    );
    afterTheTest(async () => instance.unmount());
    const frame = (): string => stripAnsi(stdout.frames.at(-1) ?? '');
    /** The colour codes of the status bar: they differ from theme to theme. */
    const statusColours = (): string =>
      [
        ...new Set(
          (stdout.frames.at(-1) ?? '')
            .split('\n')
            .find((l) => l.includes(' · seq '))
            ?.match(/\x1b\[[0-9;]*m/g),
        ),
      ]
        .sort()
        .join('');
    const type = async (text: string): Promise<void> => {
      for (const ch of text) {
        stdin.write(ch);
        await tick();
      }
    };
    await vi.waitFor(() => expect(frame()).toContain('branch-2 · 6 entries'));
    const dark = statusColours();
    await type('/theme light\r');
    await vi.waitFor(() => expect(frame()).toContain('theme: light'));
    const light = statusColours();
    expect(light).not.toBe(dark);
    await type('/new\r');
    await vi.waitFor(() => expect(frame()).toContain('opening a new session'));
    await type('too early\r');
    await vi.waitFor(() => expect(frame()).toContain('another session is being opened'));
    expect(firstAgent.prompts).toEqual([]);
    expect(frame()).toContain('too early');

    opened();
    await vi.waitFor(() => expect(frame()).toContain('the other session'));
    expect(frame()).not.toContain('branch-2 · 6 entries');
    await vi.waitFor(() => expect(released).toEqual([first]));
    expect(statusColours()).toBe(light);
    // The prompts sent in the session left come back with ↑ here too.
    stdin.write('\x1b[A');
    await vi.waitFor(() => expect(frame()).toMatch(/❯ \/new\s/));
    stdin.write('\x1b[A');
    await vi.waitFor(() => expect(frame()).toMatch(/❯ \/theme light\s/));
    stdin.write('\x1b[B');
    stdin.write('\x1b[B');
    await vi.waitFor(() => expect(frame()).not.toContain('❯ /new'));
    await type('hello there\r');
    await vi.waitFor(() => expect(secondAgent.prompts).toEqual(['hello there']));
    expect(firstAgent.prompts).toEqual([]);
  });
});

describe('while something is in flight', () => {
  let screen: Screen | undefined;
  afterEach(() => screen?.unmount());

  it('/new and /resume are refused while a turn runs, and nothing of it is dropped', async () => {
    const { store } = prepareSession();
    const agent = hangingAgent();
    const open = vi.fn(async () => {});
    const list = vi.fn(() => ({ sessions: [], cwd: '/work/project', home: '/home/x', nowMs: 0 }));
    const sessions: SessionSwitching = { open, list };
    screen = renderScreen({ store, agent, sessions, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.type('keep working');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(agent.prompts).toEqual(['keep working']));
    await screen.type('/new');
    await screen.press(KEYS.enter);
    await screen.waitFor('/new: a turn is running');
    await screen.type('/resume');
    await screen.press(KEYS.enter);
    await screen.waitFor('/resume: a turn is running');
    expect(open).not.toHaveBeenCalled();
    expect(list).not.toHaveBeenCalled();
    expect(agent.signals[0]!.aborted).toBe(false);

    // Once it ends, they go through.
    agent.finish();
    await screen.waitFor(/Idle|Final/);
    await screen.type('/new');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(open).toHaveBeenCalledWith({ kind: 'new' }));
  });

  it('without a host that can switch, they say what to do instead', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.type('/resume');
    await screen.press(KEYS.enter);
    await screen.waitFor('tole -r picks one');
  });
});
