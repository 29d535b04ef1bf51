/**
 * The built tole in a pseudo-terminal: prompts sent in a workspace come back with ↑ after tole
 * quits and starts again, in a new session or a resumed one (whose own prompts come first).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

const UP = '\x1b[A';

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ replies: [{ text: 'noted' }, { text: 'noted' }, { text: 'reviewed' }] });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

describe('prompt history', () => {
  it('↑ brings back the prompts of earlier runs in this folder; a resumed session its own first; Ctrl-R searches them; a prompt template takes arguments', async () => {
    const workspace = tempDirForTest('tole-history-ws-');
    const home = tempDirForTest('tole-history-home-');
    // A prompt template of the user's.
    const prompts = join(home, 'xdg', 'tole', 'prompts');
    mkdirSync(prompts, { recursive: true });
    writeFileSync(join(prompts, 'review.md'), '---\ndescription: review a file\n---\nReview $1 for $2, please.\n');
    const start = (...args: string[]): TerminalDriver =>
      new TerminalDriver({
        args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1', ...args],
        cwd: workspace,
        env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test', XDG_CONFIG_HOME: join(home, 'xdg') },
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

    // A template with arguments: /review sends its text with them put in.
    driver.type('\x15/rev\t');
    await driver.waitFor('❯ /review');
    driver.type('src/a.ts "race conditions"\r');
    await driver.waitFor('reviewed');
    const sent = JSON.stringify(server.requests.at(-1)?.body?.messages?.at(-1));
    expect(sent).toContain('Review src/a.ts for race conditions, please.');
  }, 90_000);
});
