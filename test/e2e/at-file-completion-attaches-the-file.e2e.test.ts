/**
 * The built tole in a pseudo-terminal: `@` and a few letters offer a workspace file in the
 * completion popup, Tab puts it in the prompt, and the sent request carries the file's text in a
 * block naming its path (the attachment recorded in the user entry before the call).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ replies: [{ text: 'read it' }] });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

describe('@ completion', () => {
  it('inserts a workspace path from the popup, and the file reaches the model attached', async () => {
    const workspace = tempDirForTest('tole-at-ws-');
    const home = tempDirForTest('tole-at-home-');
    mkdirSync(join(workspace, 'src', 'parser'), { recursive: true });
    writeFileSync(join(workspace, 'src', 'parser', 'tokens.ts'), 'export const TOKEN_MARK = 42;\n');
    writeFileSync(join(workspace, 'notes.md'), 'notes\n');
    writeFileSync(join(workspace, '.gitignore'), 'secret.txt\n');
    writeFileSync(join(workspace, 'secret.txt'), 'hidden\n');
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' },
    });
    await driver.waitFor('type a prompt');
    driver.type('explain @');
    await driver.waitFor('▸ ');
    driver.type('tokts');
    await driver.waitFor('▸ src/parser/tokens.ts');
    expect(await driver.screen()).not.toContain('secret.txt');
    driver.type('\t');
    await driver.waitFor((s) => s.includes('❯ explain @src/parser/tokens.ts') && !s.includes('▸'));
    driver.type('\r');
    await driver.waitFor((s) => s.includes('read it') && /Final · seq/.test(s));
    expect(await driver.screen()).toContain('⎘ attached src/parser/tokens.ts');
    const sent = JSON.stringify(server.requests.filter((request) => request.body?.messages).at(-1)?.body);
    expect(sent).toContain('explain @src/parser/tokens.ts');
    expect(sent).toContain('<attachment path=\\"src/parser/tokens.ts\\" (30 bytes)>\\nexport const TOKEN_MARK = 42;');
    driver.type('\x03');
    expect((await driver.exit).exitCode).toBe(0);
  });
});
