/**
 * The built tole keeps the compiled code of its full-screen session under the user's cache folder:
 * the first start writes it once the session is on screen, a later start uses it, and a damaged
 * one (or a folder it cannot write) costs only the time: tole opens all the same. A probe preloaded
 * into tole (test/support/code-cache-probe.mjs) says as it happens whether V8 took the cache and
 * when tole made one, so no test waits a fixed time for a write to happen or not; that a start which
 * took the cache schedules no write is test/cli/screen-bundle-saves-a-cache-only-when-it-compiled.test.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForFile, tempDirForTest } from '../support/after-the-test';

let driver: TerminalDriver | undefined;

beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => driver?.kill('SIGKILL'));

const home = tempDirForFile('tole-e2e-cache-home-');
const cacheHome = join(home, 'cache');
const cacheDir = join(cacheHome, 'tole');
/** A bound only a failing run reaches: tole writes its cache 300 ms after its first frame. */
const WRITTEN_WITHIN = { timeout: 20_000, interval: 50 };
const PROBE = resolve('test/support/code-cache-probe.mjs');

/**
 * Starts tole (with the probe, whose lines it returns), waits for its first frame and then until
 * `done` holds, and quits with Ctrl-C.
 */
async function startAndQuit(
  done: (probed: () => string[]) => Promise<unknown>,
  xdgCacheHome = cacheHome,
): Promise<string[]> {
  const workspace = tempDirForTest('tole-e2e-cache-');
  const probeFile = join(tempDirForTest('tole-e2e-cache-probe-'), 'probe.log');
  const probed = (): string[] =>
    existsSync(probeFile) ? readFileSync(probeFile, 'utf8').split('\n').filter(Boolean) : [];
  driver = new TerminalDriver({
    args: ['--import', PROBE, TOLE_JS],
    cwd: workspace,
    env: { HOME: home, XDG_CACHE_HOME: xdgCacheHome, TOLE_HOME: join(home, '.tole'), CODE_CACHE_PROBE_FILE: probeFile },
    columns: 120,
    rows: 40,
  });
  await driver.waitFor((s) => s.includes('no model provider yet'));
  await done(probed);
  driver.type('\x03');
  expect((await driver.exit).exitCode).toBe(0);
  return probed();
}

function cacheFiles(): string[] {
  try {
    return readdirSync(cacheDir).filter((name) => name.endsWith('.v8cache'));
  } catch {
    return [];
  }
}

describe("the built tole's code cache", () => {
  it('is written once the session is on screen, kept while it is good, and replaced when damaged', async () => {
    await startAndQuit(() => vi.waitFor(() => expect(cacheFiles()).toHaveLength(1), WRITTEN_WITHIN));
    const [name] = cacheFiles();
    expect(name).toMatch(/^screen-[0-9a-f]{8}\.v8cache$/);
    const file = join(cacheDir, name!);
    const written = statSync(file).mtimeMs;
    expect(readFileSync(file).subarray(0, 40).toString()).toContain('"format":"tole-code-cache/1"');

    // A good cache is used (V8 takes it) and not written again in the whole life of that tole.
    const second = await startAndQuit(async () => {});
    expect(second).toContain('loaded screen.cjs accepted');
    expect(second.filter((line) => line.startsWith('saving screen.cjs'))).toEqual([]);
    expect(statSync(file).mtimeMs).toBe(written);

    // Damaged: tole opens all the same, and writes a good one in its place.
    const bytes = readFileSync(file);
    bytes.fill(0x55, bytes.length - 200, bytes.length - 100);
    writeFileSync(file, bytes);
    await startAndQuit(() => vi.waitFor(() => expect(readFileSync(file).equals(bytes)).toBe(false), WRITTEN_WITHIN));
    expect(cacheFiles()).toEqual([name]);
  }, 90_000);

  it('that cannot be written: tole opens all the same', async () => {
    // A file where the folder would be: not writable even for root.
    const notAFolder = join(home, 'a-file');
    writeFileSync(notAFolder, '');
    // tole tries to write its cache (the try is over once the probe says saved), and goes on.
    const lines = await startAndQuit(
      async (probed) => {
        await vi.waitFor(() => expect(probed()).toContain('saved screen.cjs'), WRITTEN_WITHIN);
        expect(await driver!.screen()).toContain('no model provider yet');
      },
      join(notAFolder, 'cache'),
    );
    expect(lines).toContain('loaded screen.cjs none');
  }, 60_000);
});
