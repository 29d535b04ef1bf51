/**
 * What a confined command sees of the user's home: nothing, but the workspace, the folders tole
 * vouches for and the paths the user's own config lists (`sandbox.readable`). The home is where
 * credentials live (ssh keys, cloud, registry and cluster tokens, git's stored passwords, the
 * shell's history, keyrings), under names no list can enumerate, so it is hidden whole (an empty
 * tmpfs) and what commands need is shown again read-only: fail closed, a credential in a place
 * tole does not know stays hidden. One mount per shown entry; no listing of the home.
 *
 * Vouched: folders of programs, toolchains and caches of published packages, which their tools
 * fill with code and write no credential into. Not vouched, though tools read them: `~/.gitconfig`
 * and `~/.config` (`http.extraHeader`, a token in `url.…insteadOf`, gh's `hosts.yml`), `~/.npmrc`,
 * `~/.cargo` itself (`credentials.toml`, a token in `config.toml`), `~/.cache` and `~/.local/share`
 * (keyrings). A user who wants one seen lists it in their own config.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from './path-outside-workspace';

/** Inside each home, shown read-only to confined commands. */
export const VOUCHED_IN_HOME = [
  'bin',
  '.local/bin',
  '.local/lib',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.rustup',
  '.nvm',
  '.volta',
  '.pyenv',
  '.rbenv',
  '.sdkman/candidates',
  'go/bin',
  'go/pkg/mod',
] as const;

/**
 * Folders never hidden as a home (a system user's home: `bin`'s is /bin, `daemon`'s /usr/sbin):
 * hiding them would hide the programs every command runs.
 */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/dev', '/proc', '/sys'];

/** One mount bubblewrap makes below /, at `target`. */
export interface Mount {
  readonly target: string;
  readonly args: readonly string[];
}

/** The real path of `target`, or null when it does not exist. */
function real(target: string): string | null {
  try {
    return realpathSync(target);
  } catch {
    return null;
  }
}

/**
 * The homes to hide, as real paths: each existing absolute one but `/`, a system folder or a
 * folder inside one. `/` and system folders hold the machine, not a user's credentials.
 */
export function hideableHomes(homes: readonly string[]): string[] {
  const found: string[] = [];
  for (const home of homes) {
    if (!path.isAbsolute(home)) continue;
    const at = real(home);
    if (at === null || at === '/' || SYSTEM.some((dir) => isWithin(at, dir))) continue;
    if (!statSync(at).isDirectory() || found.includes(at)) continue;
    found.push(at);
  }
  return found;
}

/** What is shown again inside a hidden home: a path (where the command finds it) and its real source. */
export interface ShownEntry {
  readonly target: string;
  readonly source: string;
}

/**
 * The entries shown again read-only in the hidden `homes`: the vouched ones in each, and the
 * user's `readable` paths inside one. An entry is left out when it does not exist, when the
 * workspace shows it already (writable: the workspace lies in the home and holds the entry; in a
 * workspace that is the home, only what lies in a dot entry is hidden, see `homeWorkspaceMounts`),
 * when it lies in a `hidden` path, when its real place is a home or holds one (a `~/.nvm` that
 * links to `~` would show the whole home again), or when it links to a place holding a hidden
 * path (the hiding mount is made at the real place, which the link's mount would show again).
 */
export function shownInHomes(
  homes: readonly string[],
  readable: readonly string[],
  workspaceRoot: string,
  hidden: readonly string[],
): ShownEntry[] {
  const wanted = [
    ...homes.flatMap((home) => VOUCHED_IN_HOME.map((entry) => path.join(home, entry))),
    ...readable.filter((entry) => path.isAbsolute(entry)).map((entry) => path.resolve(entry)),
  ];
  const shown: ShownEntry[] = [];
  for (const target of wanted) {
    const home = homes.find((dir) => isWithin(target, dir) && target !== dir);
    if (home === undefined || seenInWorkspace(target, home, workspaceRoot)) continue;
    if (hidden.some((dir) => isWithin(target, dir))) continue;
    const source = real(target);
    if (source === null || homes.some((dir) => isWithin(dir, source))) continue;
    if (hidden.some((dir) => isWithin(source, dir) || (source !== target && isWithin(dir, source)))) continue;
    if (shown.some((entry) => entry.target === target)) continue;
    shown.push({ target, source });
  }
  return shown;
}

/** The workspace shows `target` (in `home`) already: it holds it, lies in the home, and hides none of it. */
function seenInWorkspace(target: string, home: string, workspaceRoot: string): boolean {
  if (!isWithin(target, workspaceRoot) || !isWithin(workspaceRoot, home)) return false;
  if (workspaceRoot !== home) return true;
  return !path.relative(home, target).startsWith('.');
}

/**
 * bubblewrap's mounts for the homes: an empty tmpfs over each (one that is the workspace, or holds
 * it, is hidden below it: see `homeWorkspaceMounts`), then each shown entry bound read-only from
 * its real place.
 */
export function homeMounts(
  homes: readonly string[],
  shown: readonly ShownEntry[],
  workspaceRoot: string,
  dotEntries: (home: string) => readonly string[],
): Mount[] {
  const mounts: Mount[] = [];
  for (const home of homes) {
    if (home === workspaceRoot) mounts.push(...homeWorkspaceMounts(home, shown, dotEntries(home)));
    else mounts.push({ target: home, args: ['--tmpfs', home] });
  }
  for (const entry of shown) mounts.push({ target: entry.target, args: ['--ro-bind', entry.source, entry.target] });
  return mounts;
}

/**
 * A workspace that is the home itself (tole asks a key for every change there, and says so at
 * start): the home cannot be hidden under the workspace it is, so each of its dot entries (where
 * tools keep their settings and credentials) is hidden instead, but for those a shown entry lies
 * in (which are hidden as a whole below the shown entries, so `~/.cargo` hides
 * `credentials.toml` and shows `~/.cargo/bin`). The home's other files stay in sight: there they
 * are the workspace.
 */
function homeWorkspaceMounts(home: string, shown: readonly ShownEntry[], dots: readonly string[]): Mount[] {
  const mounts: Mount[] = [];
  for (const name of dots) {
    const target = path.join(home, name);
    if (shown.some((entry) => entry.target === target)) continue;
    let folder = true;
    try {
      folder = statSync(target).isDirectory();
    } catch {
      continue;
    }
    mounts.push({ target, args: folder ? ['--tmpfs', target] : ['--ro-bind', '/dev/null', target] });
  }
  return mounts;
}
