/**
 * Runs the full-screen session from its own CommonJS script (dist/screen.cjs), compiled with
 * tole's code cache: Node 20 caches no compiled ES modules, and compiling the session's code
 * (Ink, React, the session) is a large part of the time to the first frame. A script compiled by
 * `vm.Script` can be given V8's code from the last start, and can hand back the code compiled so
 * far, functions the first frame ran included.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import packageJson from '../../package.json';
import type { Sandbox } from '../core/tools/sandbox';
import type { CliArgs } from './args';
import { codeCacheDir, codeCacheFile, codeCacheKey, readCodeCache, writeCodeCache } from './code-cache';
import { setScreenV8Flags } from './v8-flags';
import type { MainIo } from './main-io';

/** What dist/screen.cjs exports (src/cli/screen-entry.ts). */
interface ScreenScript {
  runScreen(args: CliArgs, io: MainIo, sandbox: Promise<Sandbox | null>, onFirstFrame?: () => void): Promise<number>;
}

/**
 * A fresh cache is made this long after the first frame (its functions and those of the effects
 * right after it compiled), or, when no session frame comes (the picker waits for a choice), this
 * long after start.
 */
const SAVE_AFTER_FIRST_FRAME_MS = 300;
const SAVE_AFTER_START_MS = 3000;

export interface LoadedScript {
  /** What the script put in `module.exports`. */
  readonly exports: unknown;
  /** True when V8 took the cached code; false when it compiled from source (no cache, or one it rejected). */
  readonly fromCache: boolean;
  /** Writes the code compiled so far as the cache; false when it could not be written. */
  saveCache(): boolean;
}

/**
 * Loads the script `file`: ASCII, one function expression that takes (exports, require, module,
 * __filename, __dirname, TOLE_IMPORT_META_URL), a CommonJS module's body as the build wraps it
 * (its `require` resolves from its folder). The cached code in `cacheDir` is used when there is
 * a good one for this very source and tole.
 */
export function loadScript(file: string, cacheDir: string, toleVersion: string): LoadedScript {
  const source = readScriptFile(file);
  const key = codeCacheKey(source, toleVersion);
  const cacheFile = codeCacheFile(cacheDir, basename(file).replace(/\.[^.]*$/, ''), key);
  const cachedData = readCodeCache(cacheFile, key) ?? undefined;
  // The build writes the script in ASCII (scripts/build.mjs): read as Latin-1, a plain copy.
  const script = new Script(source.toString('latin1'), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true;
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href);
  return {
    exports: module.exports,
    fromCache,
    saveCache: () => {
      try {
        return writeCodeCache(cacheFile, key, script.createCachedData());
      } catch {
        return false;
      }
    },
  };
}

/** The script's bytes; a missing one is reported as a part of tole's build that is not there (see missing-module). */
function readScriptFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw Object.assign(new Error(`Cannot find module '${file}'`), { code: 'MODULE_NOT_FOUND' });
  }
}

/** `tole` on a terminal, from dist/screen.cjs; a new cache is written once the session is on screen, when there was none. */
export async function runScreenBundle(
  url: URL,
  args: CliArgs,
  io: MainIo,
  sandbox: Promise<Sandbox | null>,
): Promise<number> {
  // Before anything of the session is compiled: the code cache is made and read under them.
  setScreenV8Flags();
  const loaded = loadScript(fileURLToPath(url), codeCacheDir(io.env), packageJson.version);
  if (loaded.fromCache) return (loaded.exports as ScreenScript).runScreen(args, io, sandbox);
  let saved = false;
  const save = (): void => {
    if (saved) return;
    saved = true;
    loaded.saveCache();
  };
  const later = (ms: number): void => void setTimeout(save, ms).unref();
  later(SAVE_AFTER_START_MS);
  return (loaded.exports as ScreenScript).runScreen(args, io, sandbox, () => later(SAVE_AFTER_FIRST_FRAME_MS));
}
