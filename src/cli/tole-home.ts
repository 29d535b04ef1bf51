import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** tole's home: `$TOLE_HOME`, else `~/.tole`. */
export function toleHome(env: NodeJS.ProcessEnv): string {
  return env['TOLE_HOME'] || join(env['HOME'] || homedir(), '.tole');
}

/**
 * The real paths of what tole itself writes under its home (sessions, checkpoints): when a
 * workspace's `.tole` is tole's home (a session in `$HOME`), these are tole's state, not the
 * project's, and trust leaves them out.
 */
export function ownStateDirs(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  for (const name of ['sessions', 'checkpoints']) {
    try {
      out.push(realpathSync(join(toleHome(env), name)));
    } catch {
      // Not made yet: nothing to leave out.
    }
  }
  return out;
}
