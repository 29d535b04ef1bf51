/**
 * The libraries a full-screen session uses only after its first frame (the provider's client,
 * zod, the MCP SDK, the grep regex engine, the sync database driver) are built into a second
 * script, dist/later.cjs, so that the first start reads, deserialises and runs none of
 * their code before the session is on screen. The build (scripts/later-modules-plugin.mjs)
 * replaces each import of them in dist/screen.cjs by `laterModule(specifier)`, which runs when
 * the importing module is first evaluated: the first call loads the script, with tole's code
 * cache like dist/screen.cjs. From source (tests under tsx) the imports stay plain.
 */
import { fileURLToPath } from 'node:url';
import packageJson from '../../package.json';
import { codeCacheDir } from './code-cache';
import { type LoadedScript, loadScript } from './screen-loader';

/**
 * The script's file, beside dist/screen.cjs. Its name (so its cache's) does not start with
 * `screen-`: earlier builds of tole, sharing the cache folder, take every `screen-*` cache for one
 * of their own older builds and remove it.
 */
export const LATER_SCRIPT = 'later.cjs';
/** The key under which dist/later.cjs exports its build's id (scripts/later-modules-plugin.mjs). */
const BUILD_ID_KEY = 'tole:build-id';
/** Set by the build: one id per build, the same in dist/screen.cjs and dist/later.cjs. Unset from source. */
declare const TOLE_BUILD_ID: string | undefined;
/** A fresh cache is written this long after the script loads (what its first use compiled by then). */
const SAVE_AFTER_LOAD_MS = 2000;

let loaded: LoadedScript | null = null;

/**
 * What `require(specifier)` gives in dist/later.cjs (the module's exports). A missing or
 * unreadable script throws the loader's error (a missing one with code MODULE_NOT_FOUND, which
 * tole's error reports turn into "this install of tole is incomplete ..."); so does a script of
 * another build than the running one (`buildId`: tole rebuilt or upgraded while the session ran),
 * with code TOLE_UPDATED, reported as an update that needs a restart. Neither is kept: the next
 * call tries again.
 */
export function laterModule(
  specifier: string,
  scriptUrl = new URL(`./${LATER_SCRIPT}`, import.meta.url),
  buildId: string | undefined = typeof TOLE_BUILD_ID === 'string' ? TOLE_BUILD_ID : undefined,
): unknown {
  if (loaded === null) {
    const script = loadScript(fileURLToPath(scriptUrl), codeCacheDir(process.env), packageJson.version);
    const found = (script.exports as Record<string, unknown>)[BUILD_ID_KEY];
    if (buildId !== undefined && found !== buildId)
      throw Object.assign(
        new Error(
          `tole was updated while this session ran (${fileURLToPath(scriptUrl)} is from build ${String(found ?? 'unknown')}, this session is build ${buildId}); restart tole to use the new version`,
        ),
        { code: 'TOLE_UPDATED' },
      );
    if (!script.fromCache) setTimeout(() => script.saveCache(), SAVE_AFTER_LOAD_MS).unref();
    loaded = script;
  }
  const load = (loaded.exports as Record<string, (() => unknown) | undefined>)[specifier];
  if (load === undefined)
    throw Object.assign(new Error(`Cannot find module '${specifier}' in ${fileURLToPath(scriptUrl)}`), {
      code: 'MODULE_NOT_FOUND',
    });
  return load();
}
