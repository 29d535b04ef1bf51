/**
 * A watchman daemon of a test's own: its socket, state, log and pid files in a directory of the
 * test's, never the user's watchman (whose socket is elsewhere: the tests' WATCHMAN_SOCK names a
 * path that does not exist, vitest.config.ts). Stopped when the test ends (shutdown-server, then
 * the pid waited for), so no daemon outlives the suite.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterTheTest } from './after-the-test';

/** Why watchman cannot run here, or null. */
export const WATCHMAN_MISSING: string | null =
  spawnSync('watchman', ['--version'], { stdio: 'ignore' }).status === 0
    ? null
    : 'watchman is not installed (scripts/install-system-deps.sh installs it)';

export interface OwnWatchman {
  readonly sockname: string;
  /** Stops the daemon and waits until its process is gone. */
  stop(): void;
  /** Starts it again at the same socket (a new instance: clocks of the old one mean nothing to it). */
  start(): void;
}

export function ownWatchman(dir: string): OwnWatchman {
  const sockname = join(dir, 'sock');
  const pidfile = join(dir, 'pid');
  const files = [
    `--sockname=${sockname}`,
    `--statefile=${join(dir, 'state')}`,
    `--logfile=${join(dir, 'log')}`,
    `--pidfile=${pidfile}`,
    '--no-save-state',
  ];
  const client = (...args: string[]) =>
    spawnSync('watchman', [...files, ...args], { encoding: 'utf8', timeout: 20_000 });
  // Every daemon started, by pid (read when it started: a test may remove its pid file).
  const pids: number[] = [];
  const stop = (): void => {
    client('--no-spawn', 'shutdown-server');
    // Until it no longer answers (it may still take a question while it shuts down), a bounded number of looks.
    for (let i = 0; i < 500 && client('--no-spawn', 'get-pid').status === 0; i++) spawnSync('sleep', ['0.01']);
    // One whose socket is gone cannot be asked to stop.
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  };
  const start = (): void => {
    const started = client('get-sockname');
    if (started.status !== 0) throw new Error(`watchman did not start: ${started.stderr}`);
    pids.push(Number(readFileSync(pidfile, 'utf8').trim()));
  };
  afterTheTest(stop);
  start();
  return { sockname, stop, start };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
