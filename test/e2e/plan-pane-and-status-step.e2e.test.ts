/**
 * The built tole in a real pseudo-terminal against the local chat server: the model's plan shows
 * in the registers pane at 160x45 with the step in progress, Ctrl-O opens it full size, and at
 * 80x24 the status bar carries the step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

const STEPS = [
  'read the issue',
  'find the code',
  'writing tests',
  'fix the bug',
  'run the tests',
  'update the README',
  'commit',
];

let server: ChatServer;
let driver: TerminalDriver | undefined;
let seenRunning!: () => void;
// The reply after the first plan holds after 'reading the ' until the test has read the running screen.
const runningSeen = new Promise<void>((resolve) => (seenRunning = resolve));

beforeAll(async () => {
  ensureBuilt();
  const plan = (at: number) =>
    STEPS.map((step, i) => ({ step, status: i < at ? 'completed' : i === at ? 'in_progress' : 'pending' }));
  const update = (at: number) => ({
    toolCalls: [{ name: 'update_plan', arguments: JSON.stringify({ explanation: 'seven steps', plan: plan(at) }) }],
  });
  server = await startChatServer({
    replies: [
      update(0),
      { text: ['reading ', 'the ', 'issue ', 'slowly ', 'now.'], stallAfterChunks: 3, stallUntil: runningSeen },
      update(2),
      { text: 'Plan set; on to the tests.' },
    ],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

describe('the plan on screen', () => {
  it('shows live in the registers pane at 160x45, full size with Ctrl-O, and as the status step at 80x24', async () => {
    const workspace = tempDirForTest('tole-e2e-plan-ws-');
    const home = tempDirForTest('tole-e2e-plan-home-');
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' },
      columns: 160,
      rows: 45,
    });
    await driver.waitFor('type a prompt');
    driver.type('fix the bug\r');
    // Live: while the turn runs on, the pane and the bar already show the first step.
    const running = await driver.waitFor('reading the');
    expect(running).toContain('▶ read the issue');
    expect(running).toContain('step 1/7 · read the issue');
    seenRunning();
    await driver.waitFor(/Final · step 1\/7/);
    driver.type('go on\r');
    const wide = await driver.waitFor('Plan set; on to the tests.');
    expect(wide).toMatch(/plan\s+2\/7 done/);
    expect(wide).toContain('▶ writing tests');
    expect(wide).toContain('✓ read the issue');
    expect(wide).toContain('step 3/7 · writing tests');

    driver.type('\x0f');
    const full = await driver.waitFor('plan · Esc or q closes');
    expect(full).toContain('why  seven steps');
    expect(full).toMatch(/last update_plan step 3\/7: writing tests ok/);
    driver.type('\x1b');
    await driver.waitFor((s) => !s.includes('plan · Esc or q closes'));

    driver.resize(80, 24);
    // tole lays its frame out one line shorter than the screen (src/tui/panes/layout.ts): the status
    // bar is on row 23 and row 24 stays blank. The resize draws the frame for 80x24 alone: wait for
    // it (its narrow header).
    const narrow = await driver.waitFor((s) => {
      const rows = s.split('\n');
      return rows[0]!.startsWith('─ main') && rows[22]!.includes('step 3/7 · writing tests');
    });
    expect(narrow.split('\n')[22]).toMatch(/Final · .*step 3\/7 · writing tests/);
    expect(narrow.split('\n')[23]).toBe('');
  }, 60_000);
});
