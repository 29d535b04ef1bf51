/**
 * One code cache (src/cli/code-cache.ts) for the full-screen toles a process-tier run starts in a
 * terminal: a tole in a fresh home compiled its screen script from source at every start, about
 * 0.3 s of CPU in each of a start's 1.0 s (measured with time(1) on this machine), and wrote a cache
 * no later start read. The global setup makes the folder and hands it to the tests
 * (`toleCodeCacheHome`); the terminal driver gives it to tole as XDG_CACHE_HOME unless the test
 * names one (the tests of the cache itself and of what a first start loads name their own).
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The XDG_CACHE_HOME of the full-screen toles of this run (test/support/shared-code-cache.ts). */
    toleCodeCacheHome: string;
  }
}

export interface SharedCodeCache {
  readonly dir: string;
  remove(): void;
}

/** A new folder for the run's code cache, removed by `remove` when the run ends. */
export function sharedCodeCache(): SharedCodeCache {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tole-test-code-cache-')));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
