/**
 * The built `dist/tole.js`, run as a child process the way a user runs it. `ensureBuilt()` builds
 * it when it is missing or older than anything under src/ (one build at a time across test files,
 * by a lock directory), so that `npx vitest run test/cli` tests what the source says.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import './shared-code-cache';
import { REPO_ROOT } from './repo-root';
import { startNode, type ChildRun, type SpawnOptions, type StartedChild } from './spawn-node';

export const TOLE_JS = join(REPO_ROOT, 'dist', 'tole.js');
const BUILD_LOCK = join(REPO_ROOT, 'dist', '.build-lock');

function newestMtimeMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, name)));
  return newest;
}

function isFresh(): boolean {
  if (!existsSync(TOLE_JS)) return false;
  const sources = Math.max(
    newestMtimeMs(join(REPO_ROOT, 'src')),
    newestMtimeMs(join(REPO_ROOT, 'package.json')),
    newestMtimeMs(join(REPO_ROOT, 'scripts')),
  );
  return statSync(TOLE_JS).mtimeMs >= sources;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds dist/tole.js unless it is newer than the sources. */
export function ensureBuilt(): void {
  if (isFresh()) return;
  mkdirSync(join(REPO_ROOT, 'dist'), { recursive: true });
  for (let waited = 0; ; waited += 50) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      // Another test file is building; a lock older than two minutes was left by a killed run.
      if (waited > 120_000) rmdirSync(BUILD_LOCK);
      sleepSync(50);
    }
  }
  try {
    if (!isFresh()) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT, stdio: 'inherit' });
  } finally {
    rmdirSync(BUILD_LOCK);
  }
}

/** `node dist/tole.js ...args`, with stdin closed; resolves with how it ended. */
export function runBuiltTole(args: readonly string[], options: SpawnOptions = {}): Promise<ChildRun> {
  return startBuiltTole(args, options).done;
}

/**
 * Like `runBuiltTole`, with the child at hand (to signal it) while it runs. Killed after 60 s
 * unless told otherwise: the bound only ends a hung child, so it is far above a loaded machine's time.
 */
export function startBuiltTole(args: readonly string[], options: SpawnOptions = {}): StartedChild {
  const env = withSharedCodeCache(options.env ?? process.env);
  return startNode(TOLE_JS, args, { ...options, env, timeoutMs: options.timeoutMs ?? 60_000 });
}

/**
 * `env` with the run's code cache (test/support/shared-code-cache.ts) as XDG_CACHE_HOME, unless it
 * names one: a tole in a fresh home compiled its `tole -p` script from source and wrote a cache
 * that no later start read. Outside the process tier (no such folder) `env` as it is.
 */
function withSharedCodeCache(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if ('XDG_CACHE_HOME' in env) return env;
  let shared: string | undefined;
  try {
    shared = inject('toleCodeCacheHome');
  } catch {
    // Not in a vitest worker: no shared cache.
  }
  return shared === undefined ? env : { ...env, XDG_CACHE_HOME: shared };
}
