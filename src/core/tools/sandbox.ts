/**
 * The OS sandbox shell commands run in when no keypress approved them: bubblewrap (`bwrap`) on
 * Linux, `sandbox-exec` on macOS. tole writes no sandbox of its own; it only builds the command
 * line that asks the OS for one: the workspace writable (but for git's metadata and tole's own
 * files in it), a private temp directory at /tmp, the user's home out of sight but for what
 * sandbox-home.ts shows again, everything else read-only, no Unix socket, no network unless the
 * user's config allows it, no view of other processes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { arch } from 'node:os';
import path from 'node:path';
import { isWithin } from './path-outside-workspace';
import { hideableHomes, homeMounts, type Mount, shownInHomes } from './sandbox-home';
import { protectedPaths } from './sandbox-protected-paths';
import { unixSocketFilter } from './unix-socket-filter';

type SandboxKind = 'bwrap' | 'sandbox-exec';

/** A sandbox found (and tried) on this machine. */
export interface Sandbox {
  readonly kind: SandboxKind;
  /** The program's absolute path. */
  readonly program: string;
}

export interface SandboxPolicy {
  /** Writable: the workspace root (symlink-resolved). */
  readonly workspaceRoot: string;
  /**
   * Writable: the session's own temp directory (symlink-resolved), which bubblewrap shows at /tmp
   * and /var/tmp (`TMPDIR=/tmp`), so that the host's /tmp (the user's tmux socket, other users'
   * files) is out of sight.
   */
  readonly tempDir: string;
  /** Whether commands may reach the network (default: no network at all, loopback included). */
  readonly network: boolean;
  /**
   * Out of a confined command's sight (symlink-resolved): tole's own folders (its home with the
   * index key and every project's sessions, the user's config and trust store) and the folder the
   * session temp directories of every tole are made in. A command reads nothing there, not even
   * where the workspace holds one of them; the workspace itself stays in sight when it lies inside.
   */
  readonly hidden?: readonly string[];
  /**
   * The user's home folders (`$HOME` and the one the password database names): their contents are
   * out of a confined command's sight (credentials live there under names no list can enumerate)
   * but for the workspace, the folders tole vouches for and `readable` (sandbox-home.ts).
   */
  readonly homes?: readonly string[];
  /** Absolute paths inside a home shown again read-only: the user's own config's `sandbox.readable`. */
  readonly readable?: readonly string[];
}

/** The program and arguments that run a command confined, and the seccomp filter to hand it on `seccompFd`. */
interface ConfinedCommand {
  readonly program: string;
  readonly args: string[];
  /** Bytes the child must read on the descriptor named in `args` (`--seccomp FD`); null: none. */
  readonly seccomp: Buffer | null;
  /** The descriptor the sandbox names its first process on (`--info-fd`, sandbox-end.ts); null: none. */
  readonly infoFd: number | null;
}

/** The descriptor the seccomp filter is handed on by default: the first after stdin, stdout, stderr. */
const SECCOMP_FD = 3;
/** Where the sandbox shows something else than the host has: a private /tmp, empty /run and /dev/shm. */
const HIDDEN_DIRS = ['/tmp', '/var/tmp', '/run', '/dev/shm'];

/**
 * Run first inside the sandbox: closes every descriptor but stdin, stdout and stderr, then execs
 * the command. Whatever tole inherited from what started it (node and libuv close none they did
 * not open) would pass through bubblewrap: a folder's descriptor leads past every mount
 * (`/proc/self/fd/N/…` writes the host), a file's writes it.
 */
const CLOSE_INHERITED =
  'for fd in /proc/self/fd/*; do fd=${fd##*/}; if [[ $fd =~ ^[0-9]+$ ]] && (( fd > 2 )); then eval "exec $fd>&-"; fi; done; exec "$@"';

/** Architectures the seccomp filter knows (`process.arch` names). */
const FILTERED_ARCHES = ['x64', 'arm64'];

/** Where to look for the sandbox program; PATH first, then the usual places. */
function findProgram(name: string, pathEnv: string | undefined): string | null {
  const dirs = [...(pathEnv ?? '').split(':').filter((dir) => dir !== ''), '/usr/bin', '/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (path.isAbsolute(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** The sandbox program found on this machine and the command that must succeed inside it, or null. */
function sandboxProbe(
  platform: NodeJS.Platform,
  pathEnv: string | undefined,
): { sandbox: Sandbox; probe: ConfinedCommand } | null {
  const kind: SandboxKind | null = platform === 'linux' ? 'bwrap' : platform === 'darwin' ? 'sandbox-exec' : null;
  if (kind === null) return null;
  // Without the seccomp filter bubblewrap would let Unix sockets through: no sandbox then.
  if (kind === 'bwrap' && !FILTERED_ARCHES.includes(arch())) return null;
  const program = findProgram(kind, pathEnv);
  if (program === null) return null;
  const sandbox: Sandbox = { kind, program };
  // The filter goes in on stdin here: spawnSync can write no other descriptor. The try changes
  // nothing, so nothing is kept read-only in it: looking for what to keep in a workspace of /
  // (nested repositories, 1,000 folders) took 200-300 ms of CPU before every first frame.
  const probe = confinedCommand(
    sandbox,
    { workspaceRoot: '/', tempDir: '/tmp', network: false },
    ['/bin/sh', '-c', 'exit 0'],
    0,
    [],
  );
  return { sandbox, probe };
}

/**
 * The sandbox this machine offers, tried once with a command that must succeed inside it (a
 * kernel without user namespaces refuses bwrap even when it is installed); null when none works.
 */
export function detectSandbox(platform: NodeJS.Platform, pathEnv: string | undefined): Sandbox | null {
  const found = sandboxProbe(platform, pathEnv);
  if (found === null) return null;
  const run = spawnSync(found.probe.program, found.probe.args, {
    stdio: ['pipe', 'ignore', 'ignore'],
    ...(found.probe.seccomp ? { input: found.probe.seccomp } : {}),
    timeout: 5_000,
  });
  return run.status === 0 ? found.sandbox : null;
}

/** `detectSandbox` without blocking: the try runs while the caller goes on (tole loads its screen meanwhile). */
export function detectSandboxSoon(platform: NodeJS.Platform, pathEnv: string | undefined): Promise<Sandbox | null> {
  const found = sandboxProbe(platform, pathEnv);
  if (found === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(found.probe.program, found.probe.args, { stdio: ['pipe', 'ignore', 'ignore'], timeout: 5_000 });
    } catch {
      // Node throws at once, not as an `error` event, for some failures (ETXTBSY, or EISDIR when
      // /dev/null is not the device): the try failed, as detectSandbox's spawnSync reports it.
      resolve(null);
      return;
    }
    child.on('error', () => resolve(null));
    child.stdin?.on('error', () => {}); // EPIPE: a bwrap that fails before reading; its exit code says so
    child.stdin?.end(found.probe.seccomp ?? Buffer.alloc(0));
    child.on('close', (code) => resolve(code === 0 ? found.sandbox : null));
  });
}

/**
 * The program and arguments that run `argv` confined by `policy`. With bubblewrap the caller
 * hands `seccomp` to the child on descriptor `seccompFd` (a pipe it writes and closes).
 * `keptReadOnly`: the paths inside the workspace the command may not change (by default, what
 * `protectedPaths` finds there).
 */
export function confinedCommand(
  sandbox: Sandbox,
  policy: SandboxPolicy,
  argv: readonly string[],
  seccompFd: number = SECCOMP_FD,
  keptReadOnly: readonly string[] = protectedPaths(policy.workspaceRoot, [policy.workspaceRoot]),
  /** A descriptor the caller opens for bwrap to name its first process on (sandbox-end.ts); null: none. */
  infoFd: number | null = null,
): ConfinedCommand {
  switch (sandbox.kind) {
    case 'bwrap':
      return {
        program: sandbox.program,
        args: [
          ...bwrapArgs(policy, keptReadOnly),
          '--seccomp',
          String(seccompFd),
          ...(infoFd === null ? [] : ['--info-fd', String(infoFd)]),
          '--',
          ...['bash', '--norc', '-c', CLOSE_INHERITED, 'bash'],
          ...argv,
        ],
        seccomp: unixSocketFilter(),
        infoFd,
      };
    case 'sandbox-exec':
      return {
        program: sandbox.program,
        args: ['-p', seatbeltProfile(policy, keptReadOnly), '--', ...argv],
        seccomp: null,
        infoFd: null,
      };
  }
}

const depth = (target: string): number => target.split(path.sep).filter((part) => part !== '').length;

/**
 * The hidden paths worth a mount: existing, never / itself, and none that the private /tmp, /run
 * and /dev/shm already hide (a second mount on /tmp would hide the session's own temp directory)
 * unless the workspace, bound over them, shows it again.
 */
function hiddenPaths(policy: SandboxPolicy): string[] {
  const shownAgain = (target: string): boolean => isWithin(target, policy.workspaceRoot);
  return (policy.hidden ?? []).filter(
    (target) =>
      path.isAbsolute(target) &&
      depth(target) > 0 &&
      existsSync(target) &&
      (shownAgain(target) || !HIDDEN_DIRS.some((dir) => isWithin(target, dir))),
  );
}

/** An empty folder over a hidden folder, /dev/null over a hidden file. */
function hideMount(target: string): Mount {
  let folder = true;
  try {
    folder = statSync(target).isDirectory();
  } catch {}
  return { target, args: folder ? ['--tmpfs', target] : ['--ro-bind', '/dev/null', target] };
}

/** The homes to hide: none the private /tmp, /run or /dev/shm hide already (a mount there would make its folders in the session's temp directory). */
function homesToHide(policy: SandboxPolicy): string[] {
  return hideableHomes(policy.homes ?? []).filter((home) => !HIDDEN_DIRS.some((dir) => isWithin(home, dir)));
}

/** A home's dot entries (a workspace at the home: see sandbox-home.ts); none when it cannot be listed. */
function dotEntries(home: string): string[] {
  try {
    return readdirSync(home).filter((name) => name.startsWith('.'));
  } catch {
    return [];
  }
}

function bwrapArgs(policy: SandboxPolicy, keptReadOnly: readonly string[]): string[] {
  const hidden = hiddenPaths(policy);
  const homes = homesToHide(policy);
  const mounts: Mount[] = [];
  // The homes before the workspace at the same depth (a workspace at the home stays in sight), the
  // entries shown again and tole's hidden folders below them.
  const shown = shownInHomes(homes, policy.readable ?? [], policy.workspaceRoot, hidden);
  mounts.push(...homeMounts(homes, shown, policy.workspaceRoot, dotEntries));
  // Sockets of local daemons (docker, PostgreSQL, D-Bus, tmux, X) live in these; a daemon acts
  // outside the sandbox. The session's own temp directory stands in for /tmp and /var/tmp.
  if (existsSync('/run')) mounts.push({ target: '/run', args: ['--tmpfs', '/run'] });
  mounts.push({ target: '/dev/shm', args: ['--tmpfs', '/dev/shm'] });
  mounts.push({ target: '/tmp', args: ['--bind', policy.tempDir, '/tmp'] });
  if (existsSync('/var/tmp')) mounts.push({ target: '/var/tmp', args: ['--bind', policy.tempDir, '/var/tmp'] });
  // Hidden before the workspace at the same depth: a workspace that is one of them stays in sight.
  mounts.push(...hidden.map(hideMount));
  mounts.push({ target: policy.workspaceRoot, args: ['--bind', policy.workspaceRoot, policy.workspaceRoot] });
  // A path kept read-only is bound from the host's tree: inside a hidden one it would show it again.
  for (const target of keptReadOnly) {
    if (!hidden.some((dir) => isWithin(target, dir))) mounts.push({ target, args: ['--ro-bind', target, target] });
  }
  // Parents before children: a workspace in /tmp is mounted after the private /tmp, or it would be
  // hidden with the rest; a hidden folder inside the workspace after the workspace. (The sort keeps
  // the order above among equals.)
  mounts.sort((a, b) => depth(a.target) - depth(b.target));
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--setenv', 'TMPDIR', '/tmp'];
  for (const mount of mounts) args.push(...mount.args);
  // A new pid namespace hides tole's own process (and its environment) and ends every process
  // the command left behind when it exits; --new-session keeps it off the terminal.
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!policy.network) args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--chdir', policy.workspaceRoot);
  return args;
}

/** A string literal of the sandbox profile language. */
function sbString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The homes' reads denied (a workspace at the home: its dot entries), the entries shown again
 * allowed at their real places, then tole's hidden paths denied, then the workspace and the
 * session temp directory allowed again where they lie inside one, parents before children (the
 * later rule wins), as bubblewrap's mounts do it.
 */
function seatbeltHidden(policy: SandboxPolicy): string[] {
  const hidden = (policy.hidden ?? []).filter((target) => path.isAbsolute(target) && depth(target) > 0);
  const homes = hideableHomes(policy.homes ?? []);
  const shown = shownInHomes(homes, policy.readable ?? [], policy.workspaceRoot, hidden);
  const rules = homes.map((home) => ({
    target: home,
    rule:
      home === policy.workspaceRoot
        ? `(deny file-read* file-write* (regex ${sbRegex(`^${escapeRegex(home)}/\\.`)}))`
        : `(deny file-read* file-write* (subpath ${sbString(home)}))`,
  }));
  for (const entry of shown)
    rules.push({ target: entry.target, rule: `(allow file-read* (subpath ${sbString(entry.source)}))` });
  rules.push(
    ...hidden.map((target) => ({
      target,
      rule: `(deny file-read* file-write* (subpath ${sbString(target)}))`,
    })),
  );
  for (const target of [policy.tempDir, policy.workspaceRoot]) {
    if (hidden.some((dir) => isWithin(target, dir)) || homes.some((dir) => isWithin(target, dir) && target !== dir))
      rules.push({ target, rule: `(allow file-read* file-write* (subpath ${sbString(target)}))` });
  }
  return rules.sort((a, b) => depth(a.target) - depth(b.target)).map((entry) => entry.rule);
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regex literal of the sandbox profile language. */
function sbRegex(pattern: string): string {
  return `#"${pattern.replace(/"/g, '\\"')}"`;
}

function seatbeltProfile(policy: SandboxPolicy, kept: readonly string[]): string {
  const writable = [policy.workspaceRoot, policy.tempDir, '/private/tmp', '/private/var/folders'].map(
    (dir) => `(subpath ${sbString(dir)})`,
  );
  const keptReadOnly = kept.map((target) => `(subpath ${sbString(target)})`);
  return [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${writable.join(' ')} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
    ...seatbeltHidden(policy),
    ...(keptReadOnly.length > 0 ? [`(deny file-write* ${keptReadOnly.join(' ')})`] : []),
    ...(policy.network ? [] : ['(deny network*)', '(allow network* (local unix))']),
  ].join('\n');
}

/** Words in a failed command's output that say the sandbox may have stopped it. */
const SANDBOX_FAILURE =
  /Read-only file system|EROFS|Device or resource busy|EBUSY|Operation not permitted|EPERM|Permission denied|EACCES|Could not resolve|Temporary failure in name resolution|Name or service not known|getaddrinfo|ENOTFOUND|Network is unreachable|ENETUNREACH|Connection refused|ECONNREFUSED|No address associated/;

export function mayBeSandboxFailure(output: string): boolean {
  return SANDBOX_FAILURE.test(output);
}
