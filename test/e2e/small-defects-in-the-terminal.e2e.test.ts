/**
 * Issue 32's small defects seen in a real terminal: the built tole in a real tmux pane at 80x24
 * (tmux draws emoji at the widths users saw, which the headless xterm of the other screen tests
 * does not). The welcome screen keeps the session file's name on one line; a prompt and a reply
 * holding an emoji with a skin tone (👍🏽) and one with a variation selector (❤️) leave every
 * bordered row exactly 80 cells wide with its right border in place; quitting prints the command
 * that resumes the session.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

const COLUMNS = 80;
const ROWS = 24;
const SOCKET = `tole-defects-${process.pid}`;

let server: ChatServer;

const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });

/** The pane's text (with its scrollback) once `test` holds; fails with the pane as it was. */
async function paneWhen(test: (pane: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const pane = tmux('capture-pane', '-p', '-t', 'tole', '-S', '-40');
    if (test(pane)) return pane;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out; the pane:\n${pane}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ replies: [{ text: 'thumbs up 👍🏽 back, and ❤️ too' }] });
}, 120_000);

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // Already gone with its last pane.
  }
  await server?.close();
});

describe('small defects in a real tmux pane at 80x24', () => {
  it('the session path stays whole, emoji keep the border in place, and quitting names the resume command', async () => {
    const workspace = tempDirForTest('tole-defects-ws-');
    const home = tempDirForTest('tole-defects-home-with-a-long-folder-name-');
    const env = {
      TOLE_HOME: home,
      OPENAI_API_KEY: 'sk-test',
      XDG_CONFIG_HOME: join(home, 'xdg'),
      LANG: 'C.UTF-8',
    };
    const command = [
      'env',
      ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
      process.execPath,
      TOLE,
      '--base-url',
      server.url,
      '--model',
      'gpt-4.1',
      // The pane stays after tole ends, so the line it prints on the way out can be read.
    ].map((word) => `'${word.replaceAll("'", "'\\''")}'`);
    tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'tole',
      '-x',
      String(COLUMNS),
      '-y',
      String(ROWS),
      '-c',
      workspace,
    );
    tmux('set-option', '-t', 'tole', 'remain-on-exit', 'on');
    tmux('respawn-pane', '-k', '-t', 'tole', command.join(' '));

    const welcome = await paneWhen((pane) => pane.includes('type a prompt'));
    const fileName = /\d+-[0-9a-f]+\.jsonl/.exec(welcome.replace(/[│\s]/g, ''))?.[0];
    expect(fileName, welcome).toBeDefined();
    expect(
      welcome.split('\n').some((line) => line.includes(fileName!)),
      welcome,
    ).toBe(true);

    tmux('send-keys', '-t', 'tole', '-l', 'say thumbs 👍🏽 please');
    tmux('send-keys', '-t', 'tole', 'Enter');
    const answered = await paneWhen((pane) => pane.includes('back, and') && /Final · /.test(pane));
    // At 80 columns the transcript is alone, with no rule on its right: every row fits, and the
    // prompt's row reads as tole laid it out (tmux drawing the modifier would push or overwrite 'please').
    for (const line of answered.split('\n')) expect(stringWidth(line.trimEnd()), line).toBeLessThanOrEqual(COLUMNS);
    expect(answered).toMatch(/thumbs 👍\S* please/);
    expect(answered).toMatch(/^ {2}say thumbs 👍 please$/m);
    expect(answered).toMatch(/thumbs up 👍\S* back/);

    tmux('send-keys', '-t', 'tole', 'C-c');
    const after = await paneWhen((pane) => /to go back to this session: tole -r \d+-[0-9a-f]+/.test(pane));
    expect(after).toContain(fileName!.replace(/\.jsonl$/, ''));
  });
});
