/**
 * A new session's first frame is whole when it is first written, and waits on nothing the model's
 * server says: the peer harness counts a start as done when the prompt line shows, and tole's
 * first frame must be that frame, not one that a later answer (the model list, the context
 * window) completes. The server here takes every connection and never answers: a first frame
 * that waited on it would never come. The frame's text is looked for in the bytes of the first
 * synchronized update the built tole writes.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';
import { TerminalDriver } from './terminal-driver';

const FRAME_END = '\x1b[?2026l';

let server: Server;
const sockets: Socket[] = [];
let connected: () => void;
const firstConnection = new Promise<void>((resolve) => {
  connected = resolve;
});
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = createServer((socket) => {
    // Read and hold: no byte is ever written back.
    sockets.push(socket);
    socket.on('error', () => {});
    connected();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server?.close(resolve));
});

/** The text of what was written up to the end of the first synchronized update, escape sequences taken out. */
function firstFrameText(raw: string): string | null {
  const end = raw.indexOf(FRAME_END);
  if (end < 0) return null;
  return raw.slice(0, end).replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '');
}

describe("a new session's first frame", () => {
  it('holds the prompt line and the status bar when first written, while the server answers nothing', async () => {
    const home = tempDirForTest('tole-e2e-whole-frame-home-');
    const { port } = server.address() as { port: number };
    driver = new TerminalDriver({
      args: [TOLE_JS, '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'gpt-4.1'],
      cwd: tempDirForTest('tole-e2e-whole-frame-'),
      env: {
        HOME: home,
        XDG_CACHE_HOME: join(home, 'cache'),
        TOLE_HOME: join(home, '.tole'),
        OPENAI_API_KEY: 'sk-test',
      },
      // The terminal answers tole's one question (whether it repeats characters), as a real one does.
      answers: true,
    });
    await driver.waitFor((screen) => screen.includes('type a prompt') && screen.includes('seq 0'));
    const first = firstFrameText(driver.raw);
    expect(first, 'a frame was written').not.toBeNull();
    for (const part of ['type a prompt', 'seq 0', 'gpt-4.1', 'no entries yet', 'Idle'])
      expect(first, `the first frame holds "${part}"`).toContain(part);
    // The server is there to be asked: a prompt reaches it, and stays unanswered.
    driver.type('hello\r');
    await firstConnection;
  }, 60_000);
});
