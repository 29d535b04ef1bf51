import { withGitGuard } from '../git-guard-env';
import { unconfinedCommandRefusal } from '../approval/unconfined-vetting';
import { type RepositoryGitConfig, repositoryGitConfig } from '../git-repo-drivers';
import { gitShimFor, pathWithShim } from '../tools/git-shim';
import { runInProcessGroup } from '../tools/process-group';
import { confinedCommand, type Sandbox, type SandboxPolicy } from '../tools/sandbox';

/** Output kept per stream of one hook run; the rest is counted and dropped. */
export const HOOK_OUTPUT_MAX_BYTES = 64 * 1024;
/** After the hook's shell exits, how long children may keep its output open before the group is stopped. */
const HOOK_LINGER_MS = 500;

interface CommandSpec {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: string;
  readonly timeoutMs: number;
  readonly lingerMs?: number;
  readonly signal?: AbortSignal;
  /** Run confined by the OS sandbox (a project's hooks): the workspace writable, the rest read-only. */
  readonly confined?: { readonly sandbox: Sandbox; readonly policy: SandboxPolicy } | null;
  /** Repository git config keys the user vouched for (`trustedGitKeys`). */
  readonly trustedGitKeys?: readonly string[];
}

/** How one command ended. `exitCode` is null when it never ran or a signal ended it. */
export interface CommandEnd {
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  readonly stoppedBy: 'timeout' | 'abort' | null;
  readonly spawnError: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `bash --norc -c command` in its own process group (detached), the payload on stdin. On timeout
 * or abort the whole group is killed with SIGKILL, so that a child left in the background dies
 * with it. Never rejects.
 */
export async function runHookCommand(spec: CommandSpec): Promise<CommandEnd> {
  if (spec.signal?.aborted) {
    return { exitCode: null, exitSignal: null, stoppedBy: 'abort', spawnError: null, stdout: '', stderr: '' };
  }
  const out = new BoundedText(HOOK_OUTPUT_MAX_BYTES);
  const err = new BoundedText(HOOK_OUTPUT_MAX_BYTES);
  // --norc: bash -c reads ~/.bashrc when its stdin is a socket (the payload comes on one) and
  // SHLVL is unset, and a .bashrc that puts `.` first would find the repository's git before tole's.
  const bashArgs = ['--norc', '-c', spec.command];
  const { program, args, seccomp } = spec.confined
    ? confinedCommand(spec.confined.sandbox, spec.confined.policy, ['bash', ...bashArgs])
    : { program: 'bash', args: bashArgs, seccomp: null };
  let config: RepositoryGitConfig;
  try {
    config = await repositoryGitConfig(spec.cwd, withGitGuard(spec.env), spec.command, spec.trustedGitKeys);
  } catch (error) {
    const spawnError = (error as Error).message;
    return { exitCode: null, exitSignal: null, stoppedBy: null, spawnError, stdout: '', stderr: '' };
  }
  // What tole cannot vouch for in the repository's config may run only confined.
  if (!spec.confined && config.unvouched.length > 0) {
    const spawnError = unconfinedCommandRefusal(config.unvouched);
    return { exitCode: null, exitSignal: null, stoppedBy: null, spawnError, stdout: '', stderr: '' };
  }
  // Hooks and prompt commands run git as the model's commands do: no repository-supplied code.
  const env = withGitGuard(spec.env, config.settings);
  // Unconfined, every git the command starts passes tole's git, which vets the repository it
  // finds then (one the command made, or a guard a child dropped); no run without it.
  if (!spec.confined) {
    try {
      const shim = await gitShimFor(spec.cwd, spec.env, spec.trustedGitKeys ?? []);
      if (shim !== null) env['PATH'] = pathWithShim(shim, spec.env);
    } catch (error) {
      const spawnError = `tole could not set up its git check, so the command was not run: ${(error as Error).message}`;
      return { exitCode: null, exitSignal: null, stoppedBy: null, spawnError, stdout: '', stderr: '' };
    }
  }
  const end = await runInProcessGroup({
    program,
    args,
    fd3: seccomp,
    cwd: spec.cwd,
    env,
    stdin: spec.stdin,
    timeoutMs: spec.timeoutMs,
    lingerMs: spec.lingerMs ?? HOOK_LINGER_MS,
    killGraceMs: 0,
    ...(spec.signal ? { signal: spec.signal } : {}),
    onOutput: (chunk, stream) => (stream === 'stdout' ? out : err).push(chunk),
  });
  // A stop after the hook's shell exited (its children lingering) does not change how the hook ended.
  const stoppedBy = end.stoppedBy === 'lingering' || end.stoppedAfterExit ? null : end.stoppedBy;
  return {
    exitCode: end.exitCode,
    exitSignal: end.exitSignal,
    stoppedBy,
    spawnError: end.spawnError,
    stdout: out.text(),
    stderr: err.text(),
  };
}

/** The first `limitBytes` of a stream as UTF-8 text, with a note of how much was dropped. */
class BoundedText {
  private readonly parts: Buffer[] = [];
  private keptBytes = 0;
  private droppedBytes = 0;

  constructor(private readonly limitBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.limitBytes - this.keptBytes;
    if (room > 0) {
      const kept = chunk.subarray(0, room);
      this.parts.push(kept);
      this.keptBytes += kept.length;
    }
    this.droppedBytes += Math.max(0, chunk.length - Math.max(room, 0));
  }

  text(): string {
    const text = Buffer.concat(this.parts).toString('utf8');
    return this.droppedBytes > 0 ? `${text}\n[... ${this.droppedBytes} more bytes dropped]` : text;
  }
}
