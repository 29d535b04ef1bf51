/**
 * Class 5 of the attack corpus: escape sequences in the model's text and in a tool's output reach
 * the user's terminal only made visible, never acted on, in the full screen and from headless
 * `-p` writing to a terminal. The built tole runs in a real pseudo-terminal; what it wrote there
 * is searched for each sequence's active part.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TerminalDriver } from '../e2e/terminal-driver';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { HOSTILE_SEQUENCES, hostileText } from './corpus/hostile-sequences';
import { tempDirForFile } from '../support/after-the-test';
import { REPEAT_PROBE } from '../../src/tui/frame/repeat-probe';

let server: ChatServer;
const base = tempDirForFile('tole-attack-terminal-');

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ defaultReply: { text: 'done' } });
});

afterAll(async () => {
  await server.close();
});

function place(name: string): { ws: string; env: Record<string, string> } {
  const ws = join(base, name, 'ws');
  const home = join(base, name, 'home');
  mkdirSync(ws, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(ws, 'hostile.txt'), hostileText());
  return { ws, env: { HOME: home, TOLE_HOME: join(home, '.tole'), OPENAI_API_KEY: 'sk-test', TOLE_NO_SANDBOX: '1' } };
}

/** What of each sequence reached the terminal: the ids whose active part is in `raw`. */
function passedOn(raw: string): string[] {
  return HOSTILE_SEQUENCES.filter((s) => raw.includes(s.acted)).map((s) => s.id);
}

describe('headless -p writing to a terminal', () => {
  let raw = '';
  beforeAll(async () => {
    const { ws, env } = place('headless');
    server.push({ text: `the answer ${hostileText()} end-of-answer` });
    const driver = new TerminalDriver({
      args: [TOLE_JS, '-p', 'say it', '--base-url', server.url, '--model', 'm'],
      cwd: ws,
      env,
    });
    await driver.exit;
    raw = driver.raw;
  });

  it('printed the answer', () => expect(raw).toContain('end-of-answer'));
  for (const s of HOSTILE_SEQUENCES) it(`${s.id}: ${s.what}`, () => expect(passedOn(raw)).not.toContain(s.id));
});

describe('the full screen, from the model and from a tool', () => {
  let raw = '';
  beforeAll(async () => {
    const { ws, env } = place('screen');
    server.push(
      {
        text: `model says ${hostileText()}`,
        toolCalls: [{ id: 'call_cat', name: 'read_file', arguments: '{"path":"hostile.txt"}' }],
      },
      { toolCalls: [{ id: 'call_sh', name: 'bash', arguments: JSON.stringify({ command: 'cat hostile.txt' }) }] },
      { text: 'all-shown-now' },
    );
    const driver = new TerminalDriver({
      args: [TOLE_JS, '--yes', '--base-url', server.url, '--model', 'm'],
      cwd: ws,
      env,
      columns: 160,
      rows: 45,
    });
    await driver.waitFor('send');
    driver.type('show me\r');
    await driver.waitFor('all-shown-now', 30_000);
    // tole's own question to the terminal when the screen opens (whether it repeats characters,
    // src/tui/frame/repeat-probe.ts) asks for the cursor's position once, before any text of the model's.
    raw = driver.raw.replace(REPEAT_PROBE, '');
    expect(driver.raw.indexOf(REPEAT_PROBE)).toBeLessThan(driver.raw.indexOf('send'));
    driver.type('\x03');
    driver.kill();
    // tole may still be writing under its home as it ends: the folder is removed only after.
    await driver.exit;
  });

  it('showed the whole turn', () => expect(raw).toContain('all-shown-now'));
  for (const s of HOSTILE_SEQUENCES) it(`${s.id}: ${s.what}`, () => expect(passedOn(raw)).not.toContain(s.id));
});
