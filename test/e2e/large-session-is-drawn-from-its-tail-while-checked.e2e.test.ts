/**
 * The built tole in a real pseudo-terminal, resuming a session past the size the open checks on a
 * worker: a provisional frame drawn from the file's tail comes first (`checking session…`), then
 * the checked screen. A key typed on the provisional frame is read by the checked screen only; a file
 * damaged mid-file (where the tail does not reach) still ends in the open's refusal, the terminal
 * given back.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ASIDE_MIN_BYTES } from '../../src/core/storage/aside-bounds';
import { AppendBatch } from '../../src/core/session/cursor';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';
import { fastOps, storeIn } from '../tui/session-fixture';
import { TerminalDriver } from './terminal-driver';

let driver: TerminalDriver | undefined;

beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => driver?.kill('SIGKILL'));

/** Prompt/answer commits of ~1 KB entries until the file passes the worker's size. */
function largeSession(dir: string): string {
  const store = storeIn(dir, fastOps);
  const text = 'filler '.repeat(150);
  for (let n = 0; statSync(store.path).size < ASIDE_MIN_BYTES + 64 * 1024; n++) {
    const batch = new AppendBatch(store);
    for (let i = 0; i < 50; i++) {
      batch.entry('user', { text: `question ${n}.${i} ${text}` });
      batch.entry('assistant', { text: `answer ${n}.${i} ${text}`, toolCalls: [], model: 'm', finishReason: 'stop' });
    }
    store.commit(batch.build());
  }
  store.close();
  return store.path;
}

function tole(path: string, dir: string): TerminalDriver {
  driver = new TerminalDriver({
    args: [TOLE, '--resume', path, '--read-only', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'gpt-4.1'],
    cwd: dir,
    env: { TOLE_HOME: tempDirForTest('tole-e2e-tail-home-'), OPENAI_API_KEY: 'sk-test' },
  });
  return driver;
}

describe('a large session resumed in a terminal', () => {
  it('shows a provisional frame from its tail, then the checked screen', async () => {
    const dir = tempDirForTest('tole-e2e-tail-');
    const path = largeSession(dir);
    const screen = tole(path, dir);
    await screen.waitFor(() => screen.raw.includes('checking session…'), 30_000);
    const provisionalAt = screen.raw.indexOf('checking session…');
    // The checked screen after it: the tree's head mark and the status bar's seq (the frame writer
    // may send a run of one character as a repeat, so counts are not looked for whole).
    await screen.waitFor(() => screen.raw.indexOf('◀', provisionalAt) > provisionalAt, 30_000);
    expect(screen.raw.slice(provisionalAt)).toContain('seq ');
    expect(await screen.screen()).not.toContain('checking session…');
    screen.type('\x03');
    expect((await screen.exit).exitCode).toBe(0);
  }, 60_000);

  it('reads a key typed on the provisional frame only once the checked screen is up: a Ctrl-C then quits', async () => {
    const dir = tempDirForTest('tole-e2e-tail-');
    const path = largeSession(dir);
    const screen = tole(path, dir);
    await screen.waitFor(() => screen.raw.includes('checking session…'), 30_000);
    screen.type('\x03');
    const { exitCode } = await screen.exit;
    expect(exitCode).toBe(0);
    // The checked screen took the terminal over (entered it again) before the key was read.
    const provisionalAt = screen.raw.indexOf('checking session…');
    expect(screen.raw.indexOf('\x1b[?1049h', provisionalAt)).toBeGreaterThan(provisionalAt);
    await screen.screen();
    expect(screen.onAlternateScreen).toBe(false);
  }, 60_000);

  it('ends in the open refusal of a line damaged mid-file, the terminal given back', async () => {
    const dir = tempDirForTest('tole-e2e-tail-');
    const path = largeSession(dir);
    const bytes = readFileSync(path);
    const at = bytes.indexOf('question', Math.floor(bytes.length / 2));
    bytes[at] = 'Q'.charCodeAt(0);
    writeFileSync(path, bytes);
    const screen = tole(path, dir);
    const { exitCode } = await screen.exit;
    expect(exitCode).toBe(1);
    expect(screen.raw).toContain('checking session…');
    const said = (await screen.screen()).replace(/\n/g, '');
    expect(screen.onAlternateScreen).toBe(false);
    expect(said).toMatch(/line \d+: checksum mismatch/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  }, 60_000);
});
