/**
 * The full-screen tole's background sync: `tole sync` in a child process, run by a SyncLoop a
 * moment after commits and retried with backoff. The child reads the session files on its own,
 * so shipping never takes the screen's event loop or a turn's time; its failure is a line in the
 * status bar. On the way out one last `tole sync` is left running detached, so the server learns
 * the last commits and that this tole no longer holds the session.
 */
import { spawn } from 'node:child_process';
import type { SessionStore } from '../core/storage/session-store';
import { SyncLoop } from '../core/sync/sync-loop';
import type { Config } from './config';

interface BackgroundSyncInput {
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** `--config FILE` as given, passed on to the child. */
  readonly configFlag?: string;
  readonly store: SessionStore;
  /** The tole to run (default: this one, `process.argv[1]`). */
  readonly script?: string;
}

export interface BackgroundSync {
  readonly loop: SyncLoop;
  /** Stops the loop and leaves one final sync running detached. */
  finish(): void;
}

/** How long one child sync may take before it is killed and counted as failed. */
const CHILD_TIMEOUT_MS = 120_000;

function childArgs(input: BackgroundSyncInput): { command: string; args: string[]; env: NodeJS.ProcessEnv } | null {
  const url = input.env['TOLE_SYNC_URL'] || input.config.sync?.url;
  const script = input.script ?? process.argv[1];
  if (!url || !script) return null;
  return {
    command: process.execPath,
    args: [script, 'sync', ...(input.configFlag ? ['--config', input.configFlag] : [])],
    // The URL goes by environment, not argv: a password in it is not shown by ps.
    env: { ...input.env, TOLE_SYNC_URL: url },
  };
}

/** Runs one `tole sync`; rejects with its last line of stderr. */
export function runChildSync(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve();
      const last =
        stderr
          .trim()
          .split('\n')
          .pop()
          ?.replace(/^tole: /, '') ?? '';
      reject(new Error(last || (signal ? `stopped by ${signal}` : `exit ${code}`)));
    });
  });
}

/** Null when the config has no sync section (or background sync is off). */
export function startBackgroundSync(input: BackgroundSyncInput): BackgroundSync | null {
  if (input.config.sync?.background === false) return null;
  const child = childArgs(input);
  if (child === null) return null;
  const loop = new SyncLoop({
    run: () => runChildSync(child.command, child.args, child.env, input.cwd),
    delayMs: input.config.sync?.intervalMs ?? 2000,
  });
  const unsubscribe = input.store.onCommit(() => loop.poke());
  loop.poke();
  return {
    loop,
    finish(): void {
      unsubscribe();
      loop.stop();
      try {
        spawn(child.command, child.args, { cwd: input.cwd, env: child.env, stdio: 'ignore', detached: true }).unref();
      } catch {
        // Nothing to tell once the screen is gone; the next sync ships it.
      }
    },
  };
}
