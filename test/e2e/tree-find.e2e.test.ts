/**
 * The built tole in a real pseudo-terminal: `/` in the tree opens the find field, a query typed
 * into it marks the matching entries (tree keys typed there are text), and Enter checks the match out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: [{ text: 'The plan is a lock file.' }, { text: 'Zebras have stripes.' }, { text: 'Third answer.' }],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

/** The tree pane's column of the screen (left of the transcript's rule, which meets the top one at `┬`). */
function treeColumn(screen: string): string {
  const lines = screen.split('\n');
  const width = Math.max(0, lines[0]!.indexOf('┬'));
  return lines.map((line) => line.slice(0, width)).join('\n');
}

describe('find in the tree, in a terminal', () => {
  it('/ opens the field, the query marks its matches, Enter checks out the match', async () => {
    const workspace = tempDirForTest('tole-e2e-find-ws-');
    const home = tempDirForTest('tole-e2e-find-home-');
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' },
    });
    await driver.waitFor('type a prompt');
    // Backspaces that arrive in one read (a held key, tmux's send-keys) each delete one character.
    driver.type('what is the planXYZ');
    await driver.waitFor('planXYZ');
    driver.type('\x7f\x7f\x7f');
    await driver.waitFor((screen) => screen.includes('❯ what is the plan') && !screen.includes('planX'));
    driver.type('\r');
    await driver.waitFor('The plan is a lock file.');
    await driver.waitFor(/Final · seq/);
    for (const [prompt, answer] of [
      ['tell me about zebras', 'Zebras have stripes.'],
      ['one more', 'Third answer.'],
    ] as const) {
      driver.type(`${prompt}\r`);
      await driver.waitFor(answer);
      await driver.waitFor(/Final · seq/);
    }

    driver.type('\t');
    await driver.waitFor('check out');
    driver.type('/');
    await driver.waitFor('find:');
    // Typed as a person would, one key a read: j, k, l are tree keys; in the field they are letters.
    let typed = '';
    for (const ch of 'zebraxx') {
      driver.type(ch);
      typed += ch;
      await driver.waitFor(`find: ${typed}`);
    }
    driver.type('\x7f\x7f');
    const found = await driver.waitFor('2 found');
    expect(found).toContain('find: zebra');

    driver.type('\r');
    await driver.waitFor('next prompt starts a new branch');
    const tree = treeColumn(await driver.screen());
    const headRow = tree.split('\n').find((line) => line.includes('◀'));
    expect(headRow).toContain('tell me about zebras');
    expect(await driver.screen()).not.toContain('find:');

    driver.type('\x03');
    const exit = await driver.exit;
    expect(exit.exitCode).toBe(0);
  }, 90_000);
});
