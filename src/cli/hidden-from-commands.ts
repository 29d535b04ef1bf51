/**
 * What a confined command may not even read (SandboxPolicy.hidden): tole's home (the index key,
 * the checkpoints and every project's sessions), the sessions folder when the config moves it,
 * the user's tole config folder (the config and the trust store), and the folder every tole makes
 * its session temp directories in (another tole's confined commands write there). Also the user's
 * home, but for the workspace and what sandbox-home.ts shows again (SandboxPolicy.homes): which of
 * the user's own files there are secret is not tole's to know, so none is shown unless tole vouches
 * for it or the user's own config lists it (`sandbox.readable`). The rest of the machine stays
 * readable (SPEC 10: "the rest read-only").
 */
import { realpathSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
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

/** The password database's home of the user tole runs as, or null when it names none. */
function passwdHome(): string | null {
  try {
    return userInfo().homedir || null;
  } catch {
    return null;
  }
}

/**
 * The user's homes, whose contents confined commands do not see: `$HOME` and the home the password
 * database names, which differ when HOME is moved, unset or odd (the credentials stay in the real
 * one). sandbox.ts leaves out `/` and system folders.
 */
export function homesHiddenFromCommands(env: NodeJS.ProcessEnv, fromPasswd: string | null = passwdHome()): string[] {
  const homes = [env['HOME'], fromPasswd].filter(
    (home): home is string => home !== undefined && home !== null && isAbsolute(home),
  );
  return [...new Set(homes.map((home) => resolve(home)))];
}

/** The user's `sandbox.readable` as absolute paths: `~` and `~/…` in their home, relative ones dropped. */
export function readableForCommands(listed: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const home = env['HOME'] || homedir();
  return listed
    .map((entry) => entry.replace(/^~(?=$|\/)/, home))
    .filter((entry) => isAbsolute(entry))
    .map((entry) => resolve(entry));
}
