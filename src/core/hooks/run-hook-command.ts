import { spawn, type ChildProcess } from 'node:child_process';

/** Output kept per stream of one hook run; the rest is counted and dropped. */
export const HOOK_OUTPUT_MAX_BYTES = 64 * 1024;
/** After the hook's shell exits, how long children may keep its output open before the group is stopped. */
export const HOOK_LINGER_MS = 500;

export interface CommandSpec {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: string;
  readonly timeoutMs: number;
  readonly lingerMs?: number;
  readonly signal?: AbortSignal;
}

/** How one command ended. `exitCode` is null when it never ran or a signal ended it. */
export interface CommandEnd {
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  readonly stoppedBy: 'timeout' | 'abort' | null;
  readonly spawnError: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `bash -c command` in its own process group (detached), the payload on stdin. On timeout
 * or abort the whole group is killed with SIGKILL, so that a child left in the background dies
 * with it. Never rejects.
 */
export function runHookCommand(spec: CommandSpec): Promise<CommandEnd> {
  if (spec.signal?.aborted) {
    return Promise.resolve({ exitCode: null, exitSignal: null, stoppedBy: 'abort', spawnError: null, stdout: '', stderr: '' });
  }
  return new Promise((resolve) => {
    const out = new BoundedText(HOOK_OUTPUT_MAX_BYTES);
    const err = new BoundedText(HOOK_OUTPUT_MAX_BYTES);
    let child: ChildProcess;
    try {
      child = spawn('bash', ['-c', spec.command], { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ exitCode: null, exitSignal: null, stoppedBy: null, spawnError: (error as Error).message, stdout: '', stderr: '' });
      return;
    }
    const timers: NodeJS.Timeout[] = [];
    let stoppedBy: CommandEnd['stoppedBy'] = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const finish = (spawnError: string | null): void => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      spec.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode: exit?.code ?? null, exitSignal: exit?.signal ?? null, stoppedBy, spawnError, stdout: out.text(), stderr: err.text() });
    };
    const stop = (reason: 'timeout' | 'abort' | null): void => {
      if (settled) return;
      if (reason !== null && stoppedBy === null && exit === null) stoppedBy = reason;
      killGroup(child, 'SIGKILL');
      // A process that left the group can hold the pipes open: stop reading soon after.
      timers.push(setTimeout(() => abandon(child, finish), 1_000));
    };
    const onAbort = (): void => stop('abort');
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    timers.push(setTimeout(() => stop('timeout'), spec.timeoutMs));
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdin?.on('error', () => {}); // EPIPE: the hook did not read its payload, which is its right
    child.stdin?.end(spec.stdin);
    child.on('error', (error) => finish(error.message));
    child.on('exit', (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      timers.push(setTimeout(() => stop(null), spec.lingerMs ?? HOOK_LINGER_MS));
    });
    child.on('close', () => finish(null));
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function abandon(child: ChildProcess, finish: (spawnError: string | null) => void): void {
  child.stdout?.destroy();
  child.stderr?.destroy();
  finish(null);
}

/** The first `limitBytes` of a stream as UTF-8 text, with a note of how much was dropped. */
class BoundedText {
  private readonly parts: Buffer[] = [];
  private keptBytes = 0;
  private droppedBytes = 0;

  constructor(private readonly limitBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.limitBytes - this.keptBytes;
    if (room > 0) {
      const kept = chunk.subarray(0, room);
      this.parts.push(kept);
      this.keptBytes += kept.length;
    }
    this.droppedBytes += Math.max(0, chunk.length - Math.max(room, 0));
  }

  text(): string {
    const text = Buffer.concat(this.parts).toString('utf8');
    return this.droppedBytes > 0 ? `${text}\n[... ${this.droppedBytes} more bytes dropped]` : text;
  }
}
