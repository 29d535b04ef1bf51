import type { SessionEvent } from '../core/session/events';

const SIGNALS = [
  { name: 'SIGINT', key: 'Ctrl-C', exitCode: 130 },
  { name: 'SIGTERM', key: 'SIGTERM', exitCode: 143 },
] as const;

/**
 * Ctrl-C (SIGINT) and SIGTERM do to `tole restore` what Esc does in the screen, while it listens
 * (around the work that may write files): before the files are written they stop the restore
 * (nothing written, and it says so); once they are being written (the restore's `restore-writing`
 * event, followed through `emit`) the restore goes on to its end, and the line printed at once
 * says so. Outside those spans a signal ends tole as usual: nothing is being written then.
 */
export class RestoreStop {
  private readonly controller = new AbortController();
  private writing = false;
  private listening: (readonly [NodeJS.Signals, () => void])[] = [];
  /** The signal that stopped the restore (its exit code is the shell's: 128 + its number), or null. */
  stoppedBy: (typeof SIGNALS)[number] | null = null;

  constructor(private readonly stderr: NodeJS.WritableStream) {}

  /** Aborts (with the key's name as its reason: the session's notice names it) at the first signal. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  readonly emit = (event: SessionEvent): void => {
    if (event.type === 'restore-writing') this.writing = true;
  };

  listen(): void {
    this.release();
    this.listening = SIGNALS.map((stop) => {
      const handler = (): void => this.stop(stop);
      process.on(stop.name, handler);
      return [stop.name, handler] as const;
    });
  }

  release(): void {
    for (const [name, handler] of this.listening) process.off(name, handler);
    this.listening = [];
    this.writing = false;
  }

  private stop(stop: (typeof SIGNALS)[number]): void {
    if (this.stoppedBy !== null) return;
    this.stoppedBy = stop;
    this.stderr.write(
      this.writing
        ? `tole: ${stop.key}: the restore writes its files to its end rather than leave some restored and others not; its result follows\n`
        : `tole: ${stop.key}: stopping the restore before any file is written\n`,
    );
    this.controller.abort(stop.key);
  }
}
