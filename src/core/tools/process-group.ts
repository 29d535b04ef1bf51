import { spawn, type ChildProcess } from 'node:child_process';

/** Why a group was stopped: its time ran out, the caller aborted, or children held its output open after it exited. */
export type GroupStopReason = 'timeout' | 'abort' | 'lingering';

interface GroupSpec {
  /** The program run (default `bash`): a sandbox program that then runs bash. */
  readonly program?: string;
  /** Arguments to the program. */
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to the command's stdin, then closed; null: stdin is closed from the start. */
  readonly stdin: string | null;
  /** Written to a pipe at descriptor 3, then closed (the sandbox's seccomp filter); absent: no descriptor 3. */
  readonly fd3?: Buffer | null;
  /** Read what the program writes on descriptor 4 (the sandbox's info, sandbox-end.ts) into GroupEnd.info. */
  readonly fd4?: boolean;
  readonly timeoutMs: number;
  /** After bash exits, how long children may keep its output open before the group is stopped. */
  readonly lingerMs: number;
  /** Between SIGTERM and SIGKILL; 0 sends SIGKILL at once. */
  readonly killGraceMs: number;
  readonly signal?: AbortSignal;
  /** Each chunk of stdout and stderr, as it arrives. */
  readonly onOutput: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
}

/** How the group ended. `exitCode` is null when it never ran or a signal ended it. */
interface GroupEnd {
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  /** The first reason the group was stopped, if it was. */
  readonly stoppedBy: GroupStopReason | null;
  /** Whether bash had exited before the group was stopped (the stop only reached its children). */
  readonly stoppedAfterExit: boolean;
  readonly spawnError: string | null;
  /** What the program wrote on descriptor 4 (empty without `fd4`). */
  readonly info: string;
}

/**
 * Spawns `bash ...args` in its own process group (detached) and settles once its output is
 * closed. On timeout, abort or lingering output the whole group is stopped (SIGTERM, then SIGKILL
 * after the grace), so that a child left in the background dies with it. Never rejects.
 */
export function runInProcessGroup(spec: GroupSpec): Promise<GroupEnd> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(spec.program ?? 'bash', [...spec.args], {
        cwd: spec.cwd,
        env: spec.env,
        detached: true,
        stdio: [
          spec.stdin === null ? 'ignore' : 'pipe',
          'pipe',
          'pipe',
          ...(spec.fd3 || spec.fd4 ? [spec.fd3 ? ('pipe' as const) : ('ignore' as const)] : []),
          ...(spec.fd4 ? ['pipe' as const] : []),
        ],
      });
    } catch (error) {
      resolve({
        exitCode: null,
        exitSignal: null,
        stoppedBy: null,
        stoppedAfterExit: false,
        spawnError: (error as Error).message,
        info: '',
      });
      return;
    }
    const timers: NodeJS.Timeout[] = [];
    let stoppedBy: GroupStopReason | null = null;
    let stoppedAfterExit = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    let info = '';
    const finish = (spawnError: string | null): void => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      spec.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode: exit?.code ?? null,
        exitSignal: exit?.signal ?? null,
        stoppedBy,
        stoppedAfterExit,
        spawnError,
        info,
      });
    };
    const stop = (reason: GroupStopReason): void => {
      if (stoppedBy !== null || settled) return;
      stoppedBy = reason;
      stoppedAfterExit = exit !== null;
      if (spec.killGraceMs > 0) {
        killGroup(child, 'SIGTERM');
        timers.push(setTimeout(() => killGroup(child, 'SIGKILL'), spec.killGraceMs));
      } else {
        killGroup(child, 'SIGKILL');
      }
      // A process that left the group can hold the pipes open forever: stop reading after a while.
      timers.push(setTimeout(() => abandon(child, finish), spec.killGraceMs + 1_000));
    };
    const onAbort = (): void => stop('abort');
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    // An abort that came while the command was being set up fired no event here: stop it now.
    if (spec.signal?.aborted) stop('abort');
    timers.push(setTimeout(() => stop('timeout'), spec.timeoutMs));
    child.stdout?.on('data', (chunk: Buffer) => spec.onOutput(chunk, 'stdout'));
    child.stderr?.on('data', (chunk: Buffer) => spec.onOutput(chunk, 'stderr'));
    if (spec.stdin !== null) {
      child.stdin?.on('error', () => {}); // EPIPE: the command did not read its stdin, which is its right
      child.stdin?.end(spec.stdin);
    }
    if (spec.fd3) {
      const fd3 = child.stdio[3] as NodeJS.WritableStream & { on(event: 'error', listener: () => void): void };
      fd3.on('error', () => {}); // EPIPE: the program failed before reading it, and its exit says so
      fd3.end(spec.fd3);
    }
    if (spec.fd4)
      (child.stdio[4] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => (info += chunk.toString('utf8')));
    child.on('error', (error) => finish(error.message));
    child.on('exit', (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      timers.push(setTimeout(() => stop('lingering'), spec.lingerMs));
    });
    child.on('close', () => finish(null));
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the whole group is already gone.
  }
}

function abandon(child: ChildProcess, finish: (spawnError: string | null) => void): void {
  child.stdout?.destroy();
  child.stderr?.destroy();
  finish(null);
}
