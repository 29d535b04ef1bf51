/**
 * The window closes while SIGHUP is ignored (nohup, some multiplexers): tole is not signalled, its
 * writes to the terminal fail with EIO. The built tole runs in a real pseudo-terminal under a shell
 * that ignores SIGHUP, mid-way through a streamed answer, and the terminal's master side is closed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { machineState } from '../../src/core/machine/machine';
import { SessionStore } from '../../src/core/storage/session-store';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForFile } from '../support/after-the-test';

const root = tempDirForFile('tole-closed-tty-');

let server: ChatServer;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    // The reply stops after its opening chunk and word0..word5 and holds the call open until tole
    // goes: the turn is still running when the terminal closes, however slow the machine (400
    // words 50 ms apart only made that likely).
    replies: [
      {
        text: Array.from({ length: 400 }, (_, i) => `word${i} `),
        stallAfterChunks: 7,
        stallUntil: new Promise(() => {}),
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

async function waitForFile(path: string, timeoutMs: number): Promise<string> {
  const started = Date.now();
  while (!existsSync(path) || !readFileSync(path, 'utf8').endsWith('\n')) {
    if (Date.now() - started > timeoutMs) throw new Error(`${path} did not appear in ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
  return readFileSync(path, 'utf8');
}

describe('closing the terminal while SIGHUP is ignored', () => {
  it('interrupts and settles the running turn, releases the lock, and exits 129 without a crash', async () => {
    const home = join(root, 'home');
    const exitFile = join(root, 'exit');
    const stderrFile = join(root, 'stderr');
    const script = `trap '' HUP; node ${TOLE} --base-url ${server.url} --model m 2> ${stderrFile}; echo $? > ${exitFile}`;
    const driver = new TerminalDriver({
      file: 'bash',
      args: ['-c', script],
      cwd: root,
      env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test' },
    });
    try {
      await driver.waitFor('type a prompt');
      driver.type('talk for a while\r');
      await driver.waitFor('word5');
      driver.closeTerminal();

      expect((await waitForFile(exitFile, 30_000)).trim()).toBe('129');
      expect(readFileSync(stderrFile, 'utf8')).not.toMatch(/Assertion failed|Unhandled 'error' event|internal error/);
      const sessions = join(home, 'sessions');
      expect(readdirSync(sessions).filter((name) => name.endsWith('.lock'))).toEqual([]);
      const [file] = readdirSync(sessions).filter((name) => name.endsWith('.jsonl'));
      const store = SessionStore.open(join(sessions, file!), {
        clock: systemClock,
        random: seededRandom(1),
        readOnly: true,
      });
      expect(machineState(store).pc).toBe('Final');
      const answers = [...store.tree.all()].filter((entry) => entry.type === 'assistant');
      expect(answers.map((entry) => (entry.payload as { finishReason: string }).finishReason)).toEqual(['interrupted']);
      expect((answers[0]!.payload as { text: string }).text).toContain('word5');
      store.close();
    } finally {
      driver.kill('SIGKILL');
    }
  }, 90_000);
});
