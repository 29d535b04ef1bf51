import { statSync } from 'node:fs';
import { ASIDE_MIN_BYTES } from '../core/storage/aside-bounds';
import { readTailPreview } from '../core/storage/tail-preview';
import { drawProvisional, type ProvisionalInput } from '../tui/run-provisional';

/** The screen the provisional frame took, to give back when the checked screen never comes. */
export interface ProvisionalFrame {
  /** Gives the terminal back (the open refused the file, or anything before the screen threw). */
  restore(): void;
  /** The checked screen takes the terminal, and its signals, over from here. */
  handOver(): void;
}

/**
 * Signals that end tole while the frame stands. Without a listener the process ended at once and
 * left the terminal on the alternate screen, in raw mode, the cursor hidden; with one, the
 * terminal is given back first, then the signal is raised again with nothing listening, so tole
 * ends by it as before. (The open itself holds the event loop: the listener runs when it ends.)
 */
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];

export interface ProvisionalRequest extends Omit<ProvisionalInput, 'preview'> {
  /** The session file the screen is about to open (null: a new session, nothing to draw). */
  readonly path: string | null;
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  /** Files this large or larger get the frame: the size from which the open checks on a worker. */
  readonly minBytes?: number;
  /** Raises a signal that ended tole again once the terminal is given back (tests give their own). */
  readonly raise?: (signal: NodeJS.Signals) => void;
}

/**
 * Before a large session file is opened (a synchronous open that checks every line before the
 * screen can show it), draws a frame from its last bytes (`checking session…` wherever it needs
 * the whole file), so that the screen is up in the time a small session takes. Nothing when the
 * file is small, not a file, or its tail does not hold together, or stdout is not a terminal;
 * never throws: the open then runs as it always did.
 */
export function drawProvisionalFrame(request: ProvisionalRequest): ProvisionalFrame | null {
  const { path, stdout, stdin } = request;
  if (path === null || !stdout.isTTY || !stdin.isTTY) return null;
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size < (request.minBytes ?? ASIDE_MIN_BYTES)) return null;
    const preview = readTailPreview(path);
    if (preview === null) return null;
    const screen = drawProvisional({ ...request, preview }, stdout, stdin);
    return givenBackOnSignals(screen, request.raise ?? ((signal) => process.kill(process.pid, signal)));
  } catch {
    return null;
  }
}

function givenBackOnSignals(screen: { restore(): void }, raise: (signal: NodeJS.Signals) => void): ProvisionalFrame {
  const listeners = ENDING_SIGNALS.map((signal) => {
    const listener = (): void => {
      release();
      screen.restore();
      raise(signal);
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  const release = (): void => {
    for (const [signal, listener] of listeners) process.removeListener(signal, listener);
  };
  return {
    restore: () => {
      release();
      screen.restore();
    },
    handOver: release,
  };
}
