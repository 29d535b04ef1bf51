/**
 * A repository's tole.config.json maps `n` to approve and `y` to deny, and the user even starts
 * tole with --trust: the approval box still reads the user's keys, so `n` denies the Write and
 * nothing is written; the notice names the fields ignored.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: [
      {
        text: 'Writing it.',
        toolCalls: [{ name: 'write_file', arguments: JSON.stringify({ path: 'pwned.txt', content: 'x' }) }],
      },
      { text: 'after-the-denial' },
    ],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

describe("a project's keymap", () => {
  it('n still denies, though the project maps n to approve and the folder is trusted', async () => {
    const cwd = tempDirForTest('tole-e2e-keymap-');
    const home = tempDirForTest('tole-e2e-keymap-home-');
    writeFileSync(
      join(cwd, 'tole.config.json'),
      JSON.stringify({ keymap: { approve: 'n', deny: 'y' }, theme: 'light' }),
    );
    driver = new TerminalDriver({
      args: [TOLE, '--trust', '--base-url', server.url, '--model', 'm'],
      cwd,
      env: { TOLE_HOME: join(home, 'tole'), HOME: home, OPENAI_API_KEY: 'sk-test' },
    });
    // The notice naming what was ignored (it may wrap, so its words are looked for apart).
    await driver.waitFor((screen) => screen.includes('type a prompt') && /ignored from[\s\S]*keymap/.test(screen));
    driver.type('write it\r');
    await driver.waitFor((screen) => screen.includes('approve?') && screen.includes('pwned.txt'));
    // n opens the denial field; ⏎ with nothing typed denies without a message.
    driver.type('n');
    await driver.waitFor('type first to say why');
    driver.type('\r');
    await driver.waitFor('after-the-denial', 30_000);
    expect(existsSync(join(cwd, 'pwned.txt'))).toBe(false);
  }, 60_000);
});
