/**
 * The built tole, in a real pseudo-terminal, against the local chat server: a message sent into
 * a running turn goes to the model with that turn's next call; Alt-Enter queues instead; r in the
 * tree asks again as a sibling branch; a start that quits without a prompt leaves no file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

let server: ChatServer;
let driver: TerminalDriver | undefined;
/** Lets the counting reply go on past its first words: called once the steer and the queued message are on screen. */
let goOnCounting: () => void = () => {};
const countingHeld = new Promise<void>((resolve) => {
  goOnCounting = resolve;
});

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: [
      // Held after `one, ` (the role chunk, then the first words) until the test has steered and
      // queued: the turn is running while it types, however slow the machine.
      {
        text: ['one, ', 'two, ', 'three, ', 'four, ', 'five, ', 'six, ', 'seven.'],
        stallAfterChunks: 2,
        stallUntil: countingHeld,
      },
      { text: 'Stopped at three, as you asked.' },
      { text: 'After the turn: the queued one.' },
      { text: 'Counting again, differently.' },
    ],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

function start(workspace: string, home: string): TerminalDriver {
  return new TerminalDriver({
    args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
    cwd: workspace,
    env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' },
  });
}

/** The user messages of each chat request, in order. */
function userMessages(): string[][] {
  return server.requests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => (r.body?.messages ?? []).filter((m) => m.role === 'user').map((m) => String(m.content)));
}

describe('driving a running session in a terminal', () => {
  it('steers a running turn with Enter, queues with Alt-Enter, and asks again as a branch with r', async () => {
    const workspace = tempDirForTest('tole-e2e-steer-ws-');
    const home = tempDirForTest('tole-e2e-steer-home-');
    driver = start(workspace, home);
    await driver.waitFor('type a prompt');

    driver.type('count to seven\r');
    const running = await driver.waitFor('one,');
    expect(running).toContain('⏎ steer');
    expect(running).toContain('M-⏎ queue');
    driver.type('stop at three\r');
    await driver.waitFor('↳ steering (next model call): stop at three');
    driver.type('and then this\x1b\r');
    await driver.waitFor('queued 1: and then this');
    goOnCounting();

    await driver.waitFor('Stopped at three, as you asked.');
    await driver.waitFor('After the turn: the queued one.');
    await driver.waitFor(/Final · seq/);
    const [first, second, third] = userMessages();
    expect(first).toEqual(['count to seven']);
    expect(second).toEqual(['count to seven', 'stop at three']);
    expect(third).toEqual(['count to seven', 'stop at three', 'and then this']);
    expect(await driver.screen()).toContain('↳ steered into the running turn');

    // r on the newest answer in the tree: asked again from its prompt, beside it.
    driver.type('\t');
    await driver.waitFor('r retry');
    driver.type('r');
    await driver.waitFor('Counting again, differently.');
    await driver.waitFor('2 branches');
    const fourth = userMessages()[3];
    expect(fourth).toEqual(['count to seven', 'stop at three', 'and then this']);

    await driver.waitFor(/Final · seq/);
    // Esc leaves the tree (its keys go from the status bar), then Ctrl-C quits from the prompt.
    driver.type('\x1b');
    await driver.waitFor('⏎ send');
    driver.type('\x03');
    expect((await driver.exit).exitCode).toBe(0);
    const [file] = readdirSync(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
    const session = readFileSync(join(home, 'sessions', file!), 'utf8');
    expect(session).toContain('"steered":true');
    expect(session.match(/"type":"assistant"/g)).toHaveLength(4);
  }, 90_000);

  it('a start that quits without a prompt leaves no session behind', async () => {
    const workspace = tempDirForTest('tole-e2e-steer-ws-');
    const home = tempDirForTest('tole-e2e-steer-home-');
    driver = start(workspace, home);
    await driver.waitFor('type a prompt');
    driver.type('\x03');
    expect((await driver.exit).exitCode).toBe(0);
    expect(readdirSync(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  }, 60_000);
});
