import { statSync } from 'node:fs';
import { ASIDE_MIN_BYTES } from '../core/storage/aside-bounds';
import { readTailPreview } from '../core/storage/tail-preview';
import { drawProvisional, type ProvisionalInput } from '../tui/run-provisional';

/** The screen the provisional frame took, to give back when the checked screen never comes. */
export interface ProvisionalFrame {
  restore(): void;
}

export interface ProvisionalRequest extends Omit<ProvisionalInput, 'preview'> {
  /** The session file the screen is about to open (null: a new session, nothing to draw). */
  readonly path: string | null;
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  /** Files this large or larger get the frame: the size from which the open checks on a worker. */
  readonly minBytes?: number;
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
    return drawProvisional({ ...request, preview }, stdout, stdin);
  } catch {
    return null;
  }
}
