/**
 * The built tole in a real pseudo-terminal, against a model whose text and whose tool's output
 * (a file in the workspace, under a hostile name) carry OSC 52 (clipboard), OSC 0/2 (title),
 * OSC 8 (links), C1 controls and bidi overrides, some split across stream chunks: everything the
 * pty received holds none of them, and the screen shows them as text. Headless to a pty likewise.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

/** Each sequence the terminal must never receive from tole, by what it would do. */
const NEVER = [
  ['OSC 52 (sets the clipboard)', '\u001b]52'],
  ['OSC 0 (sets the title)', '\u001b]0;'],
  ['OSC 2 (sets the title)', '\u001b]2;'],
  ['OSC 8 (a link)', '\u001b]8;'],
  ['OSC 9 (a notification)', '\u001b]9;'],
  ['C1 CSI', '\u009b'],
  ['C1 OSC', '\u009d'],
  ['RLO', '\u202e'],
  ['BEL', '\u0007'],
] as const;

const FILE_TEXT =
  'notes\n\u001b]52;c;ZmlsZQ==\u0007\u001b]2;file-title\u001b\\\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\\n\u009d0;c1-title\u009c\n';
const FILE_NAME = 'read\u202eme.txt';

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer();
}, 120_000);

afterEach(() => {
  driver?.kill('SIGKILL');
  driver = undefined;
  server.clear();
});

afterAll(async () => {
  await server?.close();
});

function workspace(): { cwd: string; home: string } {
  const cwd = tempDirForTest('tole-e2e-escapes-');
  writeFileSync(join(cwd, FILE_NAME), FILE_TEXT);
  return { cwd, home: tempDirForTest('tole-e2e-escapes-home-') };
}

function expectNoneIn(raw: string): void {
  for (const [what, sequence] of NEVER) expect(raw.includes(sequence), `${what} reached the terminal`).toBe(false);
}

describe('escape sequences from a model and a tool', () => {
  it('the full screen shows them as text; the pty receives none of them', async () => {
    const { cwd, home } = workspace();
    server.push(
      {
        // Split across chunks: the ESC in one, the rest in the next.
        text: ['Reading it \u001b', ']52;c;bW9kZWw=\u0007 \u001b]0;model-', 'title\u0007 now.'],
        toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: FILE_NAME }) }],
      },
      { text: ['done \u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\ ', '\u009b2J end-of-answer'] },
    );
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'm'],
      cwd,
      env: { TOLE_HOME: join(home, 'tole'), HOME: home, OPENAI_API_KEY: 'sk-test' },
    });
    await driver.waitFor('type a prompt');
    driver.type('read the notes\r');
    const screen = await driver.waitFor('end-of-answer', 30_000);
    expect(screen).toContain('␛]52;c;bW9kZWw=␇');
    expect(screen).toContain('⟨U+009B⟩2J');
    expect(screen).toContain('␛]8;;https://evil.example/␛\\click');
    expect(screen).toContain('read⟨U+202E⟩me.txt');
    expectNoneIn(driver.raw);
  }, 60_000);

  it('headless to a terminal prints the answer with them shown; to a pipe JSON escapes them', async () => {
    const { cwd, home } = workspace();
    server.push(
      { text: 'look', toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: FILE_NAME }) }] },
      { text: ['answer \u001b]52;c;aGVhZGxlc3M=\u0007 \u001b', ']2;t\u0007 \u202e end'] },
    );
    driver = new TerminalDriver({
      args: [TOLE, '-p', 'read it', '--base-url', server.url, '--model', 'm'],
      cwd,
      env: { TOLE_HOME: join(home, 'tole'), HOME: home, OPENAI_API_KEY: 'sk-test' },
    });
    const { exitCode } = await driver.exit;
    expect(exitCode).toBe(0);
    expect(driver.raw).toContain('answer ␛]52;c;aGVhZGxlc3M=␇ ␛]2;t␇ ⟨U+202E⟩ end');
    expectNoneIn(driver.raw);
  }, 60_000);
});
