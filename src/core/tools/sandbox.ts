/**
 * The OS sandbox shell commands run in when no keypress approved them: bubblewrap (`bwrap`) on
 * Linux, `sandbox-exec` on macOS. tole writes no sandbox of its own; it only builds the command
 * line that asks the OS for one: the workspace and the temp directory writable, everything else
 * read-only, no network unless the user's config allows it, no view of other processes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export type SandboxKind = 'bwrap' | 'sandbox-exec';

/** A sandbox found (and tried) on this machine. */
export interface Sandbox {
  readonly kind: SandboxKind;
  /** The program's absolute path. */
  readonly program: string;
}

export interface SandboxPolicy {
  /** Writable: the workspace root (symlink-resolved). */
  readonly workspaceRoot: string;
  /** Writable: the temp directory (symlink-resolved). */
  readonly tempDir: string;
  /** Whether commands may reach the network (default: no network at all, loopback included). */
  readonly network: boolean;
}

/** Inside the workspace, yet kept read-only: files another program runs later, outside any sandbox. */
const PROTECTED_IN_WORKSPACE = ['.git/hooks', '.git/config'] as const;

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
): { sandbox: Sandbox; probe: { program: string; args: string[] } } | null {
  const kind: SandboxKind | null = platform === 'linux' ? 'bwrap' : platform === 'darwin' ? 'sandbox-exec' : null;
  if (kind === null) return null;
  const program = findProgram(kind, pathEnv);
  if (program === null) return null;
  const sandbox: Sandbox = { kind, program };
  const probe = confinedCommand(sandbox, { workspaceRoot: '/', tempDir: '/tmp', network: false }, [
    '/bin/sh',
    '-c',
    'exit 0',
  ]);
  return { sandbox, probe };
}

/**
 * The sandbox this machine offers, tried once with a command that must succeed inside it (a
 * kernel without user namespaces refuses bwrap even when it is installed); null when none works.
 */
export function detectSandbox(platform: NodeJS.Platform, pathEnv: string | undefined): Sandbox | null {
  const found = sandboxProbe(platform, pathEnv);
  if (found === null) return null;
  const run = spawnSync(found.probe.program, found.probe.args, { stdio: 'ignore', timeout: 5_000 });
  return run.status === 0 ? found.sandbox : null;
}

/** `detectSandbox` without blocking: the try runs while the caller goes on (tole loads its screen meanwhile). */
export function detectSandboxSoon(platform: NodeJS.Platform, pathEnv: string | undefined): Promise<Sandbox | null> {
  const found = sandboxProbe(platform, pathEnv);
  if (found === null) return Promise.resolve(null);
  return new Promise((resolve) => {
    const child = spawn(found.probe.program, found.probe.args, { stdio: 'ignore', timeout: 5_000 });
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code === 0 ? found.sandbox : null));
  });
}

/** The program and arguments that run `argv` confined by `policy`. */
export function confinedCommand(
  sandbox: Sandbox,
  policy: SandboxPolicy,
  argv: readonly string[],
): { program: string; args: string[] } {
  switch (sandbox.kind) {
    case 'bwrap':
      return { program: sandbox.program, args: [...bwrapArgs(policy), '--', ...argv] };
    case 'sandbox-exec':
      return { program: sandbox.program, args: ['-p', seatbeltProfile(policy), '--', ...argv] };
  }
}

function bwrapArgs(policy: SandboxPolicy): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // Sockets of local daemons (docker, PostgreSQL, D-Bus) can be connected to through a read-only
  // mount, and a daemon acts outside the sandbox: hide them.
  if (existsSync('/run')) args.push('--tmpfs', '/run');
  for (const dir of new Set([policy.tempDir, policy.workspaceRoot])) args.push('--bind', dir, dir);
  for (const inside of PROTECTED_IN_WORKSPACE) {
    const target = path.join(policy.workspaceRoot, inside);
    if (existsSync(target)) args.push('--ro-bind', target, target);
  }
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

function seatbeltProfile(policy: SandboxPolicy): string {
  const writable = [policy.workspaceRoot, policy.tempDir, '/private/tmp', '/private/var/folders'].map(
    (dir) => `(subpath ${sbString(dir)})`,
  );
  const protectedPaths = PROTECTED_IN_WORKSPACE.map(
    (inside) => `(subpath ${sbString(path.join(policy.workspaceRoot, inside))})`,
  );
  return [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${writable.join(' ')} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
    `(deny file-write* ${protectedPaths.join(' ')})`,
    ...(policy.network ? [] : ['(deny network*)', '(allow network* (local unix))']),
  ].join('\n');
}

/** Words in a failed command's output that say the sandbox may have stopped it. */
const SANDBOX_FAILURE =
  /Read-only file system|EROFS|Operation not permitted|EPERM|Permission denied|EACCES|Could not resolve|Temporary failure in name resolution|Name or service not known|getaddrinfo|ENOTFOUND|Network is unreachable|ENETUNREACH|Connection refused|ECONNREFUSED|No address associated/;

export function mayBeSandboxFailure(output: string): boolean {
  return SANDBOX_FAILURE.test(output);
}
