/**
 * The built tole in a pseudo-terminal: `/model ` offers the server's models. `!echo hi` runs in the shell without calling the model,
 * its output shows in the transcript, the session file holds it as the user's call (intent and
 * result), and the next prompt's request carries it as the user's message.
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

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ replies: [{ text: 'it printed hi' }] });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

describe('!command in the built tole', () => {
  it('!echo hi shows its output, is committed as the user’s call, and the next request carries it', async () => {
    const workspace = tempDirForTest('tole-bang-ws-');
    const home = tempDirForTest('tole-bang-home-');
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test', XDG_CONFIG_HOME: join(home, 'xdg') },
    });
    await driver.waitFor('type a prompt');
    driver.type('!echo hi\r');
    await driver.waitFor((s) => /● you {2}!echo hi/.test(s) && /│ {3,}hi {2,}/.test(s));
    expect(server.requests.filter((request) => request.body?.messages)).toHaveLength(0);

    const [file] = readdirSync(join(home, 'sessions')).filter((name) => name.endsWith('.jsonl'));
    const entries = readFileSync(join(home, 'sessions', file!), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"tool_'));
    const text = entries.join('\n');
    expect(text).toMatch(/"type":"tool_intent".*"subject":"echo hi".*"by":"user"/);
    expect(text).toMatch(/"type":"tool_result".*"outcome":"ok".*"content":"hi\\n/);

    driver.type('what did it print?\r');
    await driver.waitFor('it printed hi');
    const sent = server.requests.filter((request) => request.body?.messages).at(-1)!.body!.messages!;
    const users = sent.filter((m) => m.role === 'user').map((m) => String(m.content));
    expect(users[0]).toMatch(/^\[the user ran a shell command\]\n\$ echo hi\n```\nhi\n/);
    expect(users[1]).toBe('what did it print?');
    driver.type('\x03');
    expect((await driver.exit).exitCode).toBe(0);
  });

  it("/model offers the server's models in the popup, Tab inserts one and ⏎ uses it", async () => {
    const workspace = tempDirForTest('tole-model-ws-');
    const home = tempDirForTest('tole-model-home-');
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test', XDG_CONFIG_HOME: join(home, 'xdg') },
    });
    await driver.waitFor('type a prompt');
    driver.type('/model ');
    await driver.waitFor('▸ tole-test-model');
    driver.type('\t');
    await driver.waitFor('❯ /model tole-test-model');
    driver.type('\r');
    await driver.waitFor('model: tole-test-model (from the next model call on)');
    driver.type('\x03');
    expect((await driver.exit).exitCode).toBe(0);
  });
});
