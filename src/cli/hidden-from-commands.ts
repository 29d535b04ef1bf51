/**
 * What a confined command may not even read (SandboxPolicy.hidden): tole's home (the index key,
 * the checkpoints and every project's sessions), the sessions folder when the config moves it,
 * the user's tole config folder (the config and the trust store), and the folder every tole makes
 * its session temp directories in (another tole's confined commands write there). The rest of the
 * machine stays readable (SPEC 10: "the rest read-only"): commands need the user's toolchains and
 * their settings, and which of the user's own files are secret is not tole's to know.
 */
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { userConfigPath } from './config';
import { toleHome } from './tole-home';

/** The real path of `target`, or its resolved path when it does not exist (yet). */
function real(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return resolve(target);
  }
}

export function hiddenFromCommands(
  env: NodeJS.ProcessEnv,
  sessionsDir: string | undefined,
  tempParent: string = tmpdir(),
): string[] {
  const paths = [
    toleHome(env),
    // sessionsDirectory's rule (session-files.ts, which imports the wiring: a cycle from here).
    sessionsDir
      ? resolve(sessionsDir.replace(/^~(?=$|\/)/, env['HOME'] || homedir()))
      : join(toleHome(env), 'sessions'),
    dirname(userConfigPath(env)),
    // The parent of makeSessionTempDir's folders (session-temp-dir.ts); tole's git shims too.
    tempParent,
  ].map(real);
  return [...new Set(paths)];
}
