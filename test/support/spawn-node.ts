/** Runs a TypeScript entry point in a child `node --import tsx` and collects how it ended. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
/** tsx's loader by absolute URL, so that a child may run in any directory. */
export const TSX_LOADER = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

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

/** `node --import tsx <script> ...args`, resolved against the repository root. */
export function runTs(script: string, args: readonly string[], options: SpawnOptions = {}): Promise<ChildRun> {
  return startTs(script, args, options).done;
}

/** Like `runTs`, with the child at hand (to signal it) while it runs. */
export function startTs(script: string, args: readonly string[], options: SpawnOptions = {}): StartedChild {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, `${REPO_ROOT}/${script}`, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
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

/** The tole CLI run from source (`src/cli/main.ts` through tsx). */
export function runTole(args: readonly string[], options: SpawnOptions = {}): Promise<ChildRun> {
  return runTs('src/cli/main.ts', args, options);
}

export function startTole(args: readonly string[], options: SpawnOptions = {}): StartedChild {
  return startTs('src/cli/main.ts', args, options);
}
