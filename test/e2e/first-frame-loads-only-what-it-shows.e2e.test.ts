/**
 * What the built tole loads before a new session's first frame: not the libraries in
 * dist/later.cjs (the provider client, zod, MCP, ...; src/cli/later-modules.ts), and not
 * the Node builtins that only a later action uses (`worker_threads` for checking a resumed
 * session's file, `readline` for the read_file tool; scripts/lazy-builtins.mjs), and no
 * `Intl.Segmenter` (the first loads ICU's break rules; scripts/segmenter-inject.mjs). They still load,
 * and work, when that action comes: here a turn with a read_file call answered from the file.
 * Seen by a preload that lists the modules and scripts loaded at the first whole frame and at exit.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

const PROBE = resolve('test/support/modules-at-first-frame.mjs');
/**
 * Builtins the first frame must not load (each loads on first use): crypto hashes for file tools,
 * checkpoints and a project config's trust (scripts/lazy-builtins.mjs; a new session in a folder
 * without a project config hashes nothing before its frame), and assert only checks a failed
 * signal-exit registration (scripts/signal-exit-no-assert-plugin.mjs).
 */
const LATER_BUILTINS = [
  'NativeModule worker_threads',
  'NativeModule readline',
  'NativeModule crypto',
  'NativeModule assert',
];

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: [
      { text: 'Reading it.', toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: 'plan.txt' }) }] },
      { text: 'The plan is read.' },
    ],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

function cachesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function listed(file: string): { atFrame: string[]; atExit: string[] } {
  const [atFrame, atExit] = readFileSync(file, 'utf8').split('\nexit\n');
  return { atFrame: atFrame!.split('\n'), atExit: (atExit ?? '').split('\n') };
}

/** A copy of the built dist/ in a new folder, for a test to change what the install holds. */
function copyOfDist(label: string): string {
  const copy = tempDirForTest(`tole-e2e-${label}-`);
  cpSync(resolve('dist'), join(copy, 'dist'), { recursive: true });
  return copy;
}

/** The tole of a copied dist/ started against the chat server, in a home and workspace of its own. */
function startedCopy(copy: string, label: string): TerminalDriver {
  const home = tempDirForTest(`tole-e2e-${label}-home-`);
  return new TerminalDriver({
    args: [join(copy, 'dist', 'tole.js'), '--base-url', server.url, '--model', 'gpt-4.1'],
    cwd: tempDirForTest(`tole-e2e-${label}-ws-`),
    env: {
      HOME: home,
      XDG_CACHE_HOME: join(home, 'cache'),
      TOLE_HOME: join(home, '.tole'),
      OPENAI_API_KEY: 'sk-test',
    },
  });
}

describe("a new session's first frame", () => {
  it('loads neither the later script nor builtins only a later action needs; a turn with read_file then loads and uses them', async () => {
    const home = tempDirForTest('tole-e2e-loads-home-');
    const workspace = tempDirForTest('tole-e2e-loads-');
    writeFileSync(join(workspace, 'plan.txt'), 'step one: ship the first frame sooner\n');
    const out = join(home, 'modules.txt');
    driver = new TerminalDriver({
      args: ['--import', PROBE, TOLE_JS, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: {
        HOME: home,
        XDG_CACHE_HOME: join(home, 'cache'),
        TOLE_HOME: join(home, '.tole'),
        OPENAI_API_KEY: 'sk-test',
        MODULES_PROBE_FILE: out,
      },
    });
    await driver.waitFor('type a prompt');
    const { atFrame } = listed(out);
    expect(atFrame).toContain(`script ${join(resolve('dist'), 'screen.cjs')}`);
    expect(atFrame).not.toContain(`script ${join(resolve('dist'), 'later.cjs')}`);
    expect(atFrame).toContain('NativeModule tty');
    for (const name of LATER_BUILTINS) expect(atFrame, `${name} waits for its first use`).not.toContain(name);
    expect(atFrame, 'ICU segmenters made before the first frame').toContain('segmenters 0');

    driver.type('read the plan\r');
    await driver.waitFor('The plan is read.');
    // The tool's answer went back to the model: read by the lazily loaded readline. (The last chat
    // request: the context-window probes of other paths may arrive after it.)
    const lastChat = server.requests.filter((request) => request.path.endsWith('/chat/completions')).at(-1);
    expect(JSON.stringify(lastChat)).toContain('step one: ship the first frame sooner');
    // The later script's compiled code is kept for the next start, as the first script's is.
    await driver.waitFor(
      () => cachesIn(join(home, 'cache', 'tole')).some((name) => /^later-[0-9a-f]{8}\.v8cache$/.test(name)),
      10_000,
    );
    driver.type('\x03');
    await driver.waitFor(() => readFileSync(out, 'utf8').includes('\nexit\n'), 15_000);
    const { atExit } = listed(out);
    expect(atExit).toContain('NativeModule readline');
    expect(atExit).toContain(`script ${join(resolve('dist'), 'later.cjs')}`);
  }, 60_000);

  it('without dist/later.cjs (an install cut short): the session opens, then tole says the install is incomplete and restores the terminal', async () => {
    const copy = copyOfDist('nolater');
    rmSync(join(copy, 'dist', 'later.cjs'));
    driver = startedCopy(copy, 'nolater');
    const { exitCode } = await driver.exit;
    expect(exitCode).toBe(1);
    expect(driver.raw).toContain('type a prompt');
    expect(driver.raw).toContain(
      `tole: this install of tole is incomplete: Cannot find module '${join(copy, 'dist', 'later.cjs')}' (rebuild it with npm run build, or reinstall tole)`,
    );
    await driver.screen(); // the terminal has parsed all it was sent
    expect(driver.onAlternateScreen).toBe(false);
  }, 60_000);

  it('with a dist/later.cjs of another build (tole updated under the session): tole says to restart it and restores the terminal', async () => {
    const copy = copyOfDist('otherlater');
    const later = join(copy, 'dist', 'later.cjs');
    const source = readFileSync(later, 'latin1');
    const id = /"tole:build-id": "([0-9a-f]+)"/.exec(source)?.[1];
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    writeFileSync(later, source.replace(`"tole:build-id": "${id}"`, '"tole:build-id": "0000111122223333"'), 'latin1');
    driver = startedCopy(copy, 'otherlater');
    const { exitCode } = await driver.exit;
    expect(exitCode).toBe(1);
    expect(driver.raw).toContain('type a prompt');
    expect(driver.raw.replace(/\r?\n/g, '')).toContain(
      `tole: tole was updated while this session ran (${later} is from build 0000111122223333, this session is build ${id}); restart tole to use the new version`,
    );
    await driver.screen(); // the terminal has parsed all it was sent
    expect(driver.onAlternateScreen).toBe(false);
  }, 60_000);
});
