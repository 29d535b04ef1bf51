/** Runs a node child (a built script: test-children.ts, built-tole.ts) and collects how it ended. */
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './repo-root';

export interface ChildRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface SpawnOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Killed (SIGKILL) after this long: a hung child fails its test instead of hanging it. */
  readonly timeoutMs?: number;
}

export interface StartedChild {
  readonly child: ChildProcess;
  readonly done: Promise<ChildRun>;
}

/**
 * An environment of the test's making, with the test file's TMPDIR unless it names one
 * (test/support/tmpdir-per-file.ts): a child killed before it could clean up leaves its temp
 * files there, and they go with the file.
 */
function withTmpdir(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const tmp = process.env['TMPDIR'];
  return tmp === undefined || 'TMPDIR' in env ? env : { ...env, TMPDIR: tmp };
}

/** `node <script> ...args` with stdin closed, the child at hand (to signal it) while it runs. */
export function startNode(script: string, args: readonly string[], options: SpawnOptions = {}): StartedChild {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env === undefined ? process.env : withTmpdir(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = new Promise<ChildRun>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}
