/**
 * The built tole in a real pseudo-terminal: `/name` names the session, `/new` starts another and
 * `/resume` goes back to the first through the picker, all without leaving the alternate screen
 * (the terminal sees one enter and one leave, at start and at quit). `tole sessions` lists the name.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

const LEAVE_ALTERNATE = '\x1b[?1049l';

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: [{ text: 'The plan is a lock file.' }, { text: 'Zebras have stripes.' }, { text: 'Back on the plan.' }],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

describe('/new and /resume in a terminal', () => {
  it('switch sessions in the running screen, and the sessions stay whole', async () => {
    const workspace = tempDirForTest('tole-e2e-switch-ws-');
    const home = tempDirForTest('tole-e2e-switch-home-');
    const env = { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' };
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env,
    });
    await driver.waitFor('type a prompt');
    driver.type('what is the plan\r');
    await driver.waitFor('The plan is a lock file.');
    await driver.waitFor(/Final · seq/);
    driver.type('/name plans\r');
    await driver.waitFor('plans · main');

    driver.type('/new\r');
    await driver.waitFor('the one before is kept whole');
    const fresh = await driver.screen();
    expect(fresh).not.toContain('The plan is a lock file.');
    expect(fresh).toContain('gpt-4.1');
    driver.type('tell me about zebras\r');
    await driver.waitFor('Zebras have stripes.');
    await driver.waitFor(/Final · seq/);

    driver.type('/resume\r');
    const picker = await driver.waitFor('resume a session');
    expect(picker).toContain('plans · what is the plan');
    // The session open here is not offered.
    expect(picker).not.toContain('tell me about zebras');
    driver.type('plans');
    await driver.waitFor('❯ plans');
    driver.type('\r');
    const back = await driver.waitFor('The plan is a lock file.');
    expect(back).toContain('plans · main');
    expect(back).not.toContain('Zebras have stripes.');
    driver.type('go on\r');
    await driver.waitFor('Back on the plan.');
    await driver.waitFor(/Final · seq/);

    // The screen never left the alternate buffer while switching.
    expect(driver.onAlternateScreen).toBe(true);
    expect(driver.raw).not.toContain(LEAVE_ALTERNATE);

    driver.type('\x03');
    const exit = await driver.exit;
    expect(exit.exitCode).toBe(0);
    expect(driver.raw.split(LEAVE_ALTERNATE).length - 1).toBe(1);

    expect(readdirSync(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'))).toHaveLength(2);
    const listed = execFileSync(process.execPath, [TOLE, 'sessions'], {
      cwd: workspace,
      env: { PATH: process.env['PATH'] ?? '', HOME: home, ...env },
      encoding: 'utf8',
    });
    const rows = listed.trim().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.includes('what is the plan'))).toMatch(/plans +what is the plan/);
    expect(rows.find((r) => r.includes('tell me about zebras'))).toBeDefined();
  }, 90_000);
});
