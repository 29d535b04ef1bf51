import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { diesWithTole, gitEnv, type GitTarget } from './git-command';
import { GitStopped, killGroup } from './git-stop';
import { fifoMessage, watchForFifo } from '../fifo-watch';
import { markIdle } from './idle-gits';

/**
 * One git that keeps running and answers request after request on its stdin and stdout
 * (`cat-file --batch`, `hash-object --stdin-paths`, `mktree --batch`, `update-ref --stdin`):
 * a known-path checkpoint asks git a handful of questions, and starting a git for each would
 * cost more than the whole checkpoint may. It runs as every checkpoint git does (git-command.ts:
 * an environment built from nothing, dying with tole), and does not keep tole alive while idle.
 * When it ends (a failed compare-and-swap ends `update-ref`) every waiting request fails with
 * git's message, and the next request starts a new one. A request whose signal aborts (the
 * checkpoint's time limit, the user's Esc) kills the git with its process group: every waiting
 * request fails with a GitStopped, and the next request starts a new git.
 */

/** Reads one answer from the front of what git printed: the answer and the bytes it took, or null until more comes. */
type AnswerReader<T> = (out: Buffer) => { readonly value: T; readonly used: number } | null;

interface Waiting {
  readonly read: AnswerReader<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

export class GitPipe {
  private child: ChildProcessWithoutNullStreams | null = null;
  private out: Buffer = Buffer.alloc(0);
  private err = '';
  private waiting: Waiting[] = [];
  /** Ends the look for a FIFO wait (fifo-watch.ts), which runs while a request waits. */
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly target: GitTarget,
    private readonly args: readonly string[],
    private readonly env: NodeJS.ProcessEnv = {},
  ) {}

  /** Writes `request` and resolves with the answer `read` finds in git's output, unless `signal` stops the git first. */
  ask<T>(request: Buffer | string, read: AnswerReader<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(new GitStopped(this.args, signal.reason));
    const child = this.child ?? this.start();
    return new Promise<T>((resolve, reject) => {
      const stop = (): void => this.stop(child, new GitStopped(this.args, signal.reason));
      signal.addEventListener('abort', stop, { once: true });
      this.waiting.push({
        read,
        resolve: (value) => {
          signal.removeEventListener('abort', stop);
          resolve(value as T);
        },
        reject: (error) => {
          signal.removeEventListener('abort', stop);
          reject(error);
        },
      });
      // Waited for, the git keeps tole running until it answers or ends.
      markIdle(child.pid, false);
      this.unwatch ??= watchForFifo(child.pid, (fifo) => {
        this.unwatch = null;
        this.stop(child, new GitStopped(this.args, new Error(fifoMessage(fifo))));
      });
      child.ref();
      socket(child.stdout).ref();
      child.stdin.write(request);
    });
  }

  /** Ends the git (its requests fail); the next request starts another. */
  close(): void {
    if (this.child) this.stop(this.child, new Error(`git ${this.args[0]} was closed`));
  }

  /** Kills `child` with its group, if it is still this pipe's git, and fails its waiting requests with `error`. */
  private stop(child: ChildProcessWithoutNullStreams, error: Error): void {
    if (this.child !== child) return;
    child.stdin.end();
    killGroup(child);
    this.ended(error);
  }

  private start(): ChildProcessWithoutNullStreams {
    const [command, ...argv] = diesWithTole(this.target, this.args);
    const child = spawn(command!, argv, {
      cwd: this.target.workTree,
      env: { ...gitEnv(this.target), ...this.env },
      // Its own process group, so that a stop kills whatever it started too.
      detached: true,
    });
    this.child = child;
    this.out = Buffer.alloc(0);
    this.err = '';
    child.unref();
    socket(child.stdin).unref();
    child.stdin.on('error', () => {});
    // A git stopped or closed may still print what it had buffered: only this pipe's git is heard.
    child.stdout.on('data', (chunk: Buffer) => {
      if (this.child === child) this.heard(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (this.child === child) this.err += chunk.toString('utf8');
    });
    socket(child.stderr).unref();
    child.on('error', (error) => {
      if (this.child === child) this.ended(error);
    });
    child.on('close', (code) => {
      if (this.child !== child) return;
      const message = this.err.trim().replace(/\s*\n\s*/g, ' ') || 'no message';
      this.ended(new Error(`git ${this.args[0]} ended (exit ${code ?? 'by a signal'}): ${message}`));
    });
    return child;
  }

  private heard(chunk: Buffer): void {
    this.out = this.out.length === 0 ? chunk : Buffer.concat([this.out, chunk]);
    for (let next = this.waiting[0]; next !== undefined; next = this.waiting[0]) {
      const answer = next.read(this.out);
      if (answer === null) break;
      this.out = this.out.subarray(answer.used);
      this.waiting.shift();
      next.resolve(answer.value);
    }
    // Idle, the pipe does not keep tole running (a headless run ends when its work does).
    if (this.waiting.length === 0 && this.child) {
      this.endWatch();
      markIdle(this.child.pid, true);
      this.child.unref();
      socket(this.child.stdout).unref();
    }
  }

  private endWatch(): void {
    this.unwatch?.();
    this.unwatch = null;
  }

  private ended(error: Error): void {
    this.endWatch();
    markIdle(this.child?.pid, false);
    this.child = null;
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w.reject(error);
  }
}

/** A child's pipe is a socket (node's `stdio: 'pipe'`), which can stop keeping the process alive. */
function socket(stream: NodeJS.ReadableStream | NodeJS.WritableStream): Socket {
  return stream as unknown as Socket;
}

/** An answer of one line (without its `\n`). */
export const oneLine: AnswerReader<string> = (out) => {
  const end = out.indexOf(0x0a);
  return end < 0 ? null : { value: out.subarray(0, end).toString('latin1'), used: end + 1 };
};

/** `count` lines. */
export function lines(count: number): AnswerReader<string[]> {
  return (out) => {
    const found: string[] = [];
    let used = 0;
    for (let i = 0; i < count; i++) {
      const end = out.indexOf(0x0a, used);
      if (end < 0) return null;
      found.push(out.subarray(used, end).toString('latin1'));
      used = end + 1;
    }
    return { value: found, used };
  };
}

/** `count` NUL-terminated fields. */
export function nulFields(count: number): AnswerReader<Buffer[]> {
  return (out) => {
    const found: Buffer[] = [];
    let used = 0;
    for (let i = 0; i < count; i++) {
      const end = out.indexOf(0, used);
      if (end < 0) return null;
      found.push(Buffer.from(out.subarray(used, end)));
      used = end + 1;
    }
    return { value: found, used };
  };
}

/** `cat-file --batch`'s answer: `<id> <type> <size>\n<bytes>\n`, or null for `<name> missing\n`. */
export const catFileObject: AnswerReader<{ type: string; body: Buffer } | null> = (out) => {
  const end = out.indexOf(0x0a);
  if (end < 0) return null;
  const header = out.subarray(0, end).toString('latin1').split(' ');
  if (header.length !== 3) return { value: null, used: end + 1 };
  const size = Number(header[2]);
  if (out.length < end + 1 + size + 1) return null;
  return {
    value: { type: header[1]!, body: Buffer.from(out.subarray(end + 1, end + 1 + size)) },
    used: end + size + 2,
  };
};
