/**
 * The built tole, in a real pseudo-terminal, against the local chat server: a streamed answer, a
 * Write call approved at the prompt, a branch from an earlier entry, and a clean quit.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_ARM_MS } from '../../src/tui/approval/approval-queue';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

let server: ChatServer;
let driver: TerminalDriver | undefined;
/** Lets the streamed answer go on past `Here is `: called once the test has seen it part-way. */
let goOnStreaming: () => void = () => {};
const streamingHeld = new Promise<void>((resolve) => {
  goOnStreaming = resolve;
});

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: [
      {
        text: [
          'Here is ',
          'the plan:\n\n',
          '1. read the notes\n',
          '2. **write** them\n\n',
          'Then I ask before writing.',
        ],
        // The role chunk and `Here is `, then the rest once the test has seen it part-way.
        stallAfterChunks: 2,
        stallUntil: streamingHeld,
      },
      {
        text: "I'll write the notes file.",
        toolCalls: [
          {
            name: 'write_file',
            arguments: JSON.stringify({ path: 'notes.md', content: '# Notes\n- ship the screen\n' }),
          },
        ],
      },
      { text: 'Done: notes.md is written.' },
      { text: 'A different idea, on its own branch.' },
    ],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

function start(workspace: string, home = tempDirForTest('tole-e2e-home-')): TerminalDriver {
  return new TerminalDriver({
    args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
    cwd: workspace,
    env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' },
  });
}

/** The tree pane's column of the screen (left of the transcript's rule, which meets the top one at `┬`). */
function treeColumn(screen: string): string {
  const lines = screen.split('\n');
  const width = Math.max(0, lines[0]!.indexOf('┬'));
  return lines.map((line) => line.slice(0, width)).join('\n');
}

describe('tole in a terminal', () => {
  it('streams an answer, asks before a Write, branches from an earlier entry, and restores the terminal on quit', async () => {
    const workspace = tempDirForTest('tole-e2e-ws-');
    driver = start(workspace);
    await driver.waitFor('type a prompt');
    expect(driver.onAlternateScreen).toBe(true);

    // A streamed answer: seen part-way, then whole.
    driver.type('explain the plan\r');
    await driver.waitFor((s) => s.includes('Here is') && !s.includes('Then I ask before writing.'));
    goOnStreaming();
    await driver.waitFor('Then I ask before writing.');
    await driver.waitFor(/Final · seq/);

    // A Write call: the prompt shows it, nothing is written until y.
    driver.type('write the notes\r');
    // The whole prompt: a frame can reach the terminal in more than one read of the pty.
    const asking = await driver.waitFor((screen) => screen.includes('approve?') && screen.includes('stop the turn'));
    expect(asking).toContain('write_file');
    expect(asking).toContain('notes.md');
    expect(asking).toMatch(/Write/);
    expect(asking).toContain('a allow write_file for this session');
    expect(existsSync(join(workspace, 'notes.md'))).toBe(false);
    // A y typed the instant the prompt appears is ignored (it may have been meant for something
    // else); one typed after the arming delay approves.
    driver.type('y');
    await driver.waitFor('press it again');
    expect(existsSync(join(workspace, 'notes.md'))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, APPROVAL_ARM_MS + 50));
    driver.type('y');
    await driver.waitFor('Done: notes.md is written.');
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# Notes\n- ship the screen\n');
    await driver.waitFor('+- ship the screen');

    // Branch: check out the first answer in the tree, then prompt from there.
    driver.type('\t');
    await driver.waitFor('check out');
    // Home, Down, Enter in one write: keys read together each act, one after the other's frame.
    driver.type('\x1b[H\x1b[B\r');
    // The entry is before the write's checkpoint: tole asks whether the files go back too.
    await driver.waitFor('conversation only');
    driver.type('c');
    await driver.waitFor('next prompt starts a new branch');
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# Notes\n- ship the screen\n');
    // Esc leaves the tree for the prompt; a letter typed with it would be read as Alt and the letter.
    driver.type('\x1b');
    await driver.waitFor('⏎ send');
    driver.type('another idea\r');
    const branched = await driver.waitFor('A different idea, on its own branch.');
    await driver.waitFor('2 branches');
    const tree = treeColumn(await driver.screen());
    expect(tree).toContain('write the notes');
    expect(tree).toContain('another idea');
    expect(tree).toContain('[1/2]');
    expect(tree).toContain('[2/2]');
    expect(branched).toContain('branch-2 ·');

    // Quit: Ctrl-C on an idle, empty prompt. The terminal is back as it was.
    await driver.waitFor(/Final · seq/);
    driver.type('\x03');
    const exit = await driver.exit;
    expect(exit.exitCode).toBe(0);
    expect(driver.onAlternateScreen).toBe(false);
    const tail = driver.raw.slice(driver.raw.lastIndexOf('\x1b[?1049l') - 60);
    expect(tail).toContain('\x1b[?25h');
    expect(tail).toContain('\x1b[?2004l');
  }, 90_000);

  it('restores the terminal when killed with SIGTERM mid-turn, settling the turn', async () => {
    await server.close();
    server = await startChatServer({
      // The reply holds after its opening chunk and the first tick until tole goes: the turn is
      // running when SIGTERM comes, however slow the machine.
      replies: [
        { text: ['tick ', 'tick ', 'tick ', 'tick ', 'tick '], stallAfterChunks: 2, stallUntil: new Promise(() => {}) },
      ],
    });
    const workspace = tempDirForTest('tole-e2e-ws-');
    const home = tempDirForTest('tole-e2e-home-');
    driver = start(workspace, home);
    await driver.waitFor('type a prompt');
    driver.type('go slowly\r');
    await driver.waitFor('tick');
    driver.kill('SIGTERM');
    const exit = await driver.exit;
    expect(exit.exitCode).toBe(143);
    expect(driver.onAlternateScreen).toBe(false);
    expect(driver.raw.slice(driver.raw.lastIndexOf('\x1b[?1049l') - 60)).toContain('\x1b[?25h');
    const [file] = readdirSync(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
    const session = readFileSync(join(home, 'sessions', file!), 'utf8');
    expect(session).toContain('"text":"tick ');
    expect(session).toContain('"finishReason":"interrupted"');
    expect(session).toMatch(/"pc":"Final"\}\}\]\}\n$/);
  }, 60_000);
});
