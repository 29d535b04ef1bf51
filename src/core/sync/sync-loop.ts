/**
 * When the full-screen tole ships: a while after commits (so a turn's commits go together), one
 * run at a time, and after a failure again with exponential backoff. It only schedules `run`
 * (which does its work elsewhere, in a child process) and tells listeners how it went: it never
 * sits in a turn's way.
 */

export type SyncState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running' }
  | { readonly kind: 'ok'; readonly atMs: number }
  | { readonly kind: 'failed'; readonly error: string; readonly failures: number; readonly retryAtMs: number };

export interface SyncTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
  nowMs(): number;
}

interface SyncLoopOptions {
  /** Ships; rejects with an Error whose message says why it failed. */
  readonly run: () => Promise<void>;
  /** Wait after a commit before shipping (ms). */
  readonly delayMs: number;
  /** First retry after this long; doubled per failure up to `maxBackoffMs`. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly timers?: SyncTimers;
}

const realTimers: SyncTimers = {
  set: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
  nowMs: () => Date.now(),
};

export function backoffDelay(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
}

export class SyncLoop {
  private state: SyncState = { kind: 'idle' };
  private readonly listeners = new Set<(state: SyncState) => void>();
  private timer: unknown = null;
  private running = false;
  /** Commits came while a run was going: run again after it. */
  private again = false;
  private failures = 0;
  private stopped = false;
  private readonly timers: SyncTimers;

  constructor(private readonly options: SyncLoopOptions) {
    this.timers = options.timers ?? realTimers;
  }

  get current(): SyncState {
    return this.state;
  }

  subscribe(listener: (state: SyncState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Something was committed: ship it soon (a failed sync keeps its backoff). */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer !== null) return;
    this.schedule(this.options.delayMs);
  }

  /** Stops scheduling; a run under way finishes on its own. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    this.timer = this.timers.set(() => {
      this.timer = null;
      void this.runOnce();
    }, ms);
  }

  private set(state: SyncState): void {
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }

  private async runOnce(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = true;
    this.again = false;
    if (this.state.kind !== 'failed') this.set({ kind: 'running' });
    try {
      await this.options.run();
      this.failures = 0;
      this.set({ kind: 'ok', atMs: this.timers.nowMs() });
      this.running = false;
      if (this.again && !this.stopped) this.schedule(this.options.delayMs);
    } catch (error) {
      this.failures++;
      const wait = backoffDelay(this.failures, this.options.backoffMs ?? 1000, this.options.maxBackoffMs ?? 60_000);
      this.set({
        kind: 'failed',
        error: (error as Error)?.message ?? String(error),
        failures: this.failures,
        retryAtMs: this.timers.nowMs() + wait,
      });
      this.running = false;
      if (!this.stopped) this.schedule(wait);
    }
  }
}
