/**
 * The built tole in a pseudo-terminal: prompts sent in a workspace come back with ↑ after tole
 * quits and starts again, in a new session or a resumed one (whose own prompts come first).
 */
import { mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';

const UP = '\x1b[A';

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ replies: [{ text: 'noted' }, { text: 'noted' }] });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

describe('prompt history', () => {
  it('↑ brings back the prompts of earlier runs in this folder; a resumed session its own first; Ctrl-R searches them', async () => {
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'tole-history-ws-')));
    const home = mkdtempSync(join(tmpdir(), 'tole-history-home-'));
    const start = (...args: string[]): TerminalDriver =>
      new TerminalDriver({
        args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1', ...args],
        cwd: workspace,
        env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' },
      });
    const sendAndQuit = async (term: TerminalDriver, prompt: string): Promise<void> => {
      await term.waitFor('type a prompt');
      term.type(`${prompt}\r`);
      await term.waitFor((s) => s.includes('noted') && /Final · seq/.test(s));
      term.type('\x03');
      expect((await term.exit).exitCode).toBe(0);
    };

    driver = start();
    await sendAndQuit(driver, 'alpha in the first session');
    const [first] = readdirSync(join(home, 'sessions')).filter((name) => name.endsWith('.jsonl'));
    driver = start();
    await sendAndQuit(driver, 'beta in the second');

    // A new session: the folder's prompts, newest first.
    driver = start();
    await driver.waitFor('type a prompt');
    driver.type(UP);
    await driver.waitFor('❯ beta in the second');
    driver.type(UP);
    await driver.waitFor('❯ alpha in the first session');
    // Ctrl-R: the newest earlier prompt holding what is typed, any case.
    driver.type('\x15BETA\x12');
    await driver.waitFor('❯ beta in the second');
    driver.type('\x03\x03');
    await driver.exit;

    // The first session resumed: its own prompt comes first, then the folder's others.
    driver = start('--resume', join(home, 'sessions', first!));
    await driver.waitFor('alpha in the first session');
    driver.type(UP);
    await driver.waitFor('❯ alpha in the first session');
    driver.type(UP);
    await driver.waitFor('❯ beta in the second');
  }, 90_000);
});
