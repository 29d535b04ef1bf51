/**
 * The built tole in a real pseudo-terminal runs a turn that starts two sub-agents: the tree shows
 * each task call as a sub-agent node naming its session, and the usage pane lists each child with
 * its model and cost, its usage rolled into the session's row (marked `*`), and the session's
 * budget under it, the children's cost included.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type RecordedRequest } from '../support/chat-server';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

let server: ChatServer;
let driver: TerminalDriver | undefined;

function firstUser(request: RecordedRequest): string {
  const found = (request.body?.messages ?? []).find((m) => m.role === 'user');
  return typeof found?.content === 'string' ? found.content : '';
}

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    respond: (request) => {
      const prompt = firstUser(request);
      if (prompt !== 'review both parts') return { text: `${prompt}: no problems found` };
      const answered = (request.body?.messages ?? []).some((m) => m.role === 'tool');
      if (answered) return { text: 'Both parts are fine.' };
      return {
        toolCalls: [
          { name: 'task', arguments: JSON.stringify({ prompt: 'review the parser', description: 'parser review' }) },
          { name: 'task', arguments: JSON.stringify({ prompt: 'review the lexer', description: 'lexer review' }) },
        ],
      };
    },
  });
}, 120_000);

afterEach(() => driver?.kill('SIGKILL'));
afterAll(async () => server?.close());

describe('sub-agents on the screen', () => {
  it('shows each child in the tree and in the usage pane with its cost', async () => {
    const workspace = tempDirForTest('tole-e2e-task-');
    const config = join(tempDirForTest('tole-e2e-config-'), 'config.json');
    writeFileSync(config, JSON.stringify({ limits: { maxSessionCostUsd: 5 } }));
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1', '--config', config],
      cwd: workspace,
      env: { TOLE_HOME: tempDirForTest('tole-e2e-home-'), OPENAI_API_KEY: 'sk-test' },
      columns: 120,
      rows: 40,
    });
    await driver.waitFor('type a prompt');
    driver.type('review both parts\r');
    const screen = await driver.waitFor((s) => s.includes('Both parts are fine.') && s.includes('* with sub-agents'));
    if (process.env['TOLE_SHOW_SCREEN']) console.log(screen);
    // The tree: each task call a sub-agent node (the pane is narrow: the session id is in the transcript).
    expect(screen).toMatch(/^ {2}⧉ parser review · sub-a/m);
    expect(screen).toMatch(/^ {2}⧉ lexer review · sub-ag/m);
    expect(screen.match(/sub-agent session [0-9]+-[0-9a-f]{6}/g)).toHaveLength(2);
    // The usage pane: the rows that hold the children's usage marked, each child with its cost.
    // Token counts are shown as 987 or 1.0k: the system prompt names the workspace, whose path varies.
    expect(screen).toMatch(/│ session\* +[\d.]+k? +[\d.]+k? +\$0\.\d+ *$/m);
    expect(screen.match(/│ (agents| {6}) +gpt-4\.1 +\$0\.\d+ *$/gm)).toHaveLength(2);
    // The budget: what the session row says it cost, children included, against the one set.
    const spent = /│ session\* +[\d.]+k? +[\d.]+k? +(\$0\.\d+) *$/m.exec(screen)![1]!;
    expect(screen).toContain(`│ budget  ${spent} / $5.00`);
  });
});
