import type { ChildProcess } from 'node:child_process';
import { abortError } from '../abort';

/**
 * What stops the gits of a checkpoint (and of a restore's plan, a restore, a repack check): the
 * caller's signal (the user's Esc) or the time limit, whichever comes first. A stopped git is
 * killed with its process group (it runs as a group leader: a wrapper's or a hook's children go
 * with it), the work fails with a GitStopped, and a git that keeps running (git-pipe.ts) is
 * started again by the next request.
 */

/**
 * How long one checkpoint's gits may run, all told. Generous: it only bounds a failure (a git
 * hung on a stalled mount or a lock of its own, a stopped process, a wrapper that waits); a first
 * scan of a very large workspace takes seconds to a minute. `checkpoints.timeLimitSeconds` in the
 * config sets it.
 */
export const DEFAULT_TIME_LIMIT_MS = 5 * 60_000;

/**
 * How long a git run that blocks tole's thread may take (the `--version` probe, `git init`, the
 * check for setpriv): these take milliseconds, and nothing can interrupt them meanwhile.
 */
export const PROBE_LIMIT_MS = 10_000;

/** Calls `fire` once `ms` have passed, unless the returned cancel runs first. Tests fire it themselves. */
export type StartTimer = (ms: number, fire: () => void) => () => void;

export const realTimer: StartTimer = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  // A pending limit alone does not keep tole running: the gits it bounds do.
  timer.unref();
  return () => clearTimeout(timer);
};

export class GitStopped extends Error {
  override readonly name = 'GitStopped';
  constructor(
    args: readonly string[],
    readonly why: unknown,
  ) {
    super(`git ${commandOf(args)} was stopped: ${(why as Error)?.message ?? String(why)}`);
  }
}

/** The git command `args` run (`update-index` of `-c core.splitIndex=true update-index ...`), for messages. */
export function commandOf(args: readonly string[]): string {
  let i = 0;
  while (args[i] === '-c') i += 2;
  return args[i] ?? '';
}

/** Whether `error` says the caller's signal stopped the work (not the time limit, not git). */
export function stoppedByCaller(error: unknown): boolean {
  return error instanceof GitStopped && (error.why as Error)?.name === 'AbortError';
}

interface Stop {
  readonly signal: AbortSignal;
  /** Ends the timer and stops listening to the caller's signal. */
  release(): void;
}

/** The signal one piece of work's gits stop on: `caller` aborting or `limitMs` passing. */
export function stopSignal(caller: AbortSignal | undefined, limitMs: number, timer: StartTimer): Stop {
  const controller = new AbortController();
  const byCaller = (): void => controller.abort(abortError('interrupted by the user'));
  const cancel = timer(limitMs, () =>
    controller.abort(
      new Error(
        `it ran past the checkpoint time limit of ${Math.round(limitMs / 1000)} s (checkpoints.timeLimitSeconds in the config)`,
      ),
    ),
  );
  if (caller?.aborted) byCaller();
  else caller?.addEventListener('abort', byCaller, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      cancel();
      caller?.removeEventListener('abort', byCaller);
    },
  };
}

/** SIGKILLs the child's process group (the child leads it: spawned `detached`), else the child alone. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Waits `ms`, or rejects with a GitStopped as soon as `signal` aborts. */
export function waitUnlessStopped(ms: number, signal: AbortSignal, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new GitStopped(args, signal.reason));
    const stopped = (): void => {
      clearTimeout(timer);
      reject(new GitStopped(args, signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stopped);
      resolve();
    }, ms);
    signal.addEventListener('abort', stopped, { once: true });
  });
}
