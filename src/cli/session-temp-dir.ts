/**
 * The session's own temp directory: what a sandboxed command sees at /tmp and /var/tmp. Made
 * fresh (mode 0700, mkdtemp) for each session and removed when tole exits, so that nothing of
 * the host's /tmp (the user's tmux socket, other users' files) is in a confined command's reach
 * and nothing a command left there outlives the session.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made = new Set<string>();
let removeOnExit = false;

function removeAll(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

/** A new private temp directory, removed at exit (or earlier by `removeSessionTempDir`). */
export function makeSessionTempDir(parent: string = tmpdir()): string {
  const dir = realpathSync(mkdtempSync(path.join(parent, 'tole-session-')));
  made.add(dir);
  if (!removeOnExit) {
    removeOnExit = true;
    process.on('exit', removeAll);
  }
  return dir;
}

export function removeSessionTempDir(dir: string): void {
  made.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}
