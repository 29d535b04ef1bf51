/**
 * The built tole in a real pseudo-terminal asks about a write_file over an existing file: the
 * approval box shows the unified diff against the file (`-old`, `+new`) and its hunk count, read
 * when the user is asked, not the call's raw content.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
        text: 'I will change the greeting.',
        toolCalls: [
          {
            name: 'write_file',
            arguments: JSON.stringify({ path: 'greet.txt', content: 'hello\nthere world\nbye\n' }),
          },
        ],
      },
      { text: 'Left it as it was.' },
    ],
  });
}, 120_000);

afterEach(() => driver?.kill('SIGKILL'));
afterAll(async () => server?.close());

describe('a write_file approval in a terminal', () => {
  it('shows the diff against the file on disk and its hunk count', async () => {
    const workspace = tempDirForTest('tole-e2e-diff-');
    writeFileSync(join(workspace, 'greet.txt'), 'hello\nold world\nbye\n');
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: tempDirForTest('tole-e2e-home-'), OPENAI_API_KEY: 'sk-test' },
      columns: 100,
      rows: 30,
    });
    await driver.waitFor('type a prompt');
    driver.type('change the greeting\r');
    const screen = await driver.waitFor((s) => s.includes('approve?') && s.includes('Esc stop the turn'));
    expect(screen).toContain('1 hunk');
    expect(screen).toMatch(/^│ +-old world/m);
    expect(screen).toMatch(/^│ +\+there world/m);
    expect(screen).not.toContain('content: |');
    // n opens the denial field; ⏎ with nothing typed denies without a message.
    driver.type('n');
    await driver.waitFor('type first to say why');
    driver.type('\r');
    await driver.waitFor('Left it as it was.');
    expect(readFileSync(join(workspace, 'greet.txt'), 'utf8')).toBe('hello\nold world\nbye\n');
  });
});
