/**
 * When the full-screen script's code cache is written: a start that compiled the script from
 * source writes one once, after its first frame (or after a while when no frame comes); a start
 * that took the cache writes none, however long it runs. Timers are vitest's fake ones, so what
 * "however long" means is every timer tole set, run to its end, not a wait.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { CliArgs } from '../../src/cli/args';
import type { MainIo } from '../../src/cli/main-io';
import { runScreenBundle } from '../../src/cli/screen-loader';
import { tempDirForTest } from '../support/after-the-test';

// The screen's V8 flags are the whole process's: this test's worker keeps its own.
vi.mock('../../src/cli/v8-flags', () => ({ setScreenV8Flags: () => {} }));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A script as the build wraps dist/screen.cjs whose session draws its first frame (or none) and ends. */
function writeScreenScript(dir: string, drawsAFrame: boolean): string {
  const file = join(dir, 'screen.cjs');
  const helpers = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(
    file,
    `(function (exports, require, module, __filename, __dirname, TOLE_IMPORT_META_URL) {\n${helpers}\nmodule.exports = { runScreen: (args, io, sandbox, onFirstFrame) => { ${drawsAFrame ? 'if (onFirstFrame) onFirstFrame();' : ''} return Promise.resolve(f0(0)); } };\n})`,
  );
  return file;
}

function start(file: string, cacheHome: string): Promise<number> {
  const io = { argv: [], env: { XDG_CACHE_HOME: cacheHome }, cwd: '/', stdout: process.stdout, stderr: process.stderr };
  return runScreenBundle(pathToFileURL(file), {} as CliArgs, io as MainIo, Promise.resolve(null));
}

const cachesIn = (dir: string): string[] => {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.v8cache'));
  } catch {
    return [];
  }
};

it('a start that compiled writes the cache once, after its first frame; one that took the cache writes none', async () => {
  const dir = tempDirForTest('tole-screen-bundle-');
  const file = writeScreenScript(dir, true);
  const cacheHome = join(dir, 'cache');
  const cacheDir = join(cacheHome, 'tole');

  expect(await start(file, cacheHome)).toBe(0);
  expect(cachesIn(cacheDir)).toEqual([]);
  vi.advanceTimersByTime(299);
  expect(cachesIn(cacheDir)).toEqual([]);
  vi.advanceTimersByTime(1);
  const [name] = cachesIn(cacheDir);
  expect(name).toMatch(/^screen-[0-9a-f]{8}\.v8cache$/);
  const cache = join(cacheDir, name!);
  const bytes = readFileSync(cache);
  const mtime = statSync(cache).mtimeMs;
  // The later timer (for a start that draws no frame) writes nothing more.
  vi.runAllTimers();
  expect(statSync(cache).mtimeMs).toBe(mtime);

  // The next start takes the cache and sets no timer at all: nothing is written, whenever.
  expect(await start(file, cacheHome)).toBe(0);
  expect(vi.getTimerCount()).toBe(0);
  vi.runAllTimers();
  expect(cachesIn(cacheDir)).toEqual([name]);
  expect(readFileSync(cache).equals(bytes)).toBe(true);
  expect(statSync(cache).mtimeMs).toBe(mtime);
});

it('a start that compiled and drew no frame (a picker waiting) writes the cache after 3 s', async () => {
  const dir = tempDirForTest('tole-screen-bundle-');
  const file = writeScreenScript(dir, false);
  const cacheDir = join(dir, 'cache', 'tole');
  expect(await start(file, join(dir, 'cache'))).toBe(0);
  vi.advanceTimersByTime(2999);
  expect(cachesIn(cacheDir)).toEqual([]);
  vi.advanceTimersByTime(1);
  expect(cachesIn(cacheDir)).toHaveLength(1);
});
