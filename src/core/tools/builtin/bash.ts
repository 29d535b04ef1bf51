import { existsSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import { classifyCommand } from '../../approval/command-risk';
import { childEnv } from '../../child-env';
import { withGitGuard } from '../../git-guard-env';
import { gitSnapshot, leftBehindWords, vetGitLeftBehind } from '../../git-left-behind';
import { type CommandGitConfig, repositoryGitConfig } from '../../git-repo-drivers';
import {
  confinedOnlyWords,
  isReachDrop,
  keyMayAccept,
  refusedAtRunWords,
  vettingWords,
} from '../../approval/unconfined-vetting';
import type { RiskAssessment } from '../../approval/risk';
import { guardDrops } from '../../git-guard-drops';
import { gitReachSign } from '../../git-reach-signs';
import { capClippedOutput, formatBytes } from '../cap-output';
import { type GitShim, gitShimFor, pathWithShim } from '../git-shim';
import { runInProcessGroup, type GroupStopReason } from '../process-group';
import { leavesWorkspace } from '../leaves-workspace';
import { isWithin, pathOutsideWorkspace, realOrResolved } from '../path-outside-workspace';
import { confinedCommand, mayBeSandboxFailure, type Sandbox, type SandboxPolicy } from '../sandbox';
import { sandboxChildPid, sandboxEnded } from '../sandbox-end';
import type { Preflight, PreflightContext, Tool, ToolContext, ToolOutput } from '../tool';
import { OutputCapture } from './output-capture';

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
/** Output kept in memory while a command runs; the model then reads at most 32 KiB of it. */
const BASH_CAPTURE_MAX_BYTES = 8 * 1024 * 1024;
/** Between SIGTERM and SIGKILL to the command's process group. */
const BASH_KILL_GRACE_MS = 2_000;
/** After bash exits, how long background processes may keep its output open before they are stopped. */
const BASH_LINGER_MS = 1_000;
/** Where bwrap names the sandbox's first process (process-group.ts opens it as descriptor 4). */
const INFO_FD = 4;

const inputSchema = lazySchema((z) =>
  z.strictObject({
    command: z.string().min(1).describe('Command line, run with `bash -c` in the workspace root.'),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(BASH_MAX_TIMEOUT_MS)
      .optional()
      .describe(
        `Milliseconds before the command is killed (default ${BASH_DEFAULT_TIMEOUT_MS}, at most ${BASH_MAX_TIMEOUT_MS}).`,
      ),
    outside_sandbox: z
      .boolean()
      .optional()
      .describe(
        'Ask to run outside the sandbox (only after the sandbox stopped the command): the user must approve it with a key.',
      ),
  }),
);

type BashInput = z.infer<ReturnType<typeof inputSchema>>;

export interface BashToolOptions {
  /** The workspace root: where commands run, and what relative paths in a command line refer to. */
  readonly workspaceRoot: string;
  /** The commands' environment, without the user's secrets (`childEnv`); default: this process's, scrubbed. */
  readonly env?: Readonly<Record<string, string>>;
  /** The OS sandbox that confines a call run without a keypress, and what it lets through; none: unconfined. */
  readonly sandbox?: { readonly sandbox: Sandbox; readonly policy: SandboxPolicy } | null;
  /** Repository git config keys the user vouched for (`trustedGitKeys` in their config). */
  readonly trustedGitKeys?: readonly string[];
  /**
   * The user's home folders: with no sandbox, a workspace that is one or holds one has the user's
   * credentials inside, so no command there reads without a key.
   */
  readonly homes?: readonly string[];
  readonly killGraceMs?: number;
  readonly lingerMs?: number;
}

interface CommandRun {
  readonly exitCode: number | null;
  readonly exitSignal: NodeJS.Signals | null;
  readonly stoppedBy: GroupStopReason | null;
  readonly spawnError: string | null;
  readonly output: string;
  readonly outputBytes: number;
  /** What the sandbox wrote on its info descriptor (sandbox-end.ts). */
  readonly info: string;
}

interface RunLimits {
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly lingerMs: number;
}

/** `bash`: risk classified per command line; never replayed after a crash (its outcome is unknown). */
export function createBashTool(options: BashToolOptions): Tool<BashInput> {
  const exists = (candidate: string): boolean => existsSync(path.resolve(options.workspaceRoot, candidate));
  const leaves = (candidate: string, glob: boolean): boolean => leavesWorkspace(options.workspaceRoot, candidate, glob);
  // tole's git for unconfined runs, written at the first such run and again when not intact.
  const gitShim = (): Promise<GitShim | null> =>
    gitShimFor(options.workspaceRoot, baseEnv(options), options.trustedGitKeys ?? []);
  return {
    name: 'bash',
    description:
      'Run a shell command with `bash -c` in the workspace root; stdin is closed. Returns stdout and stderr ' +
      `interleaved, then the exit code. Default timeout ${BASH_DEFAULT_TIMEOUT_MS / 1000} s (timeout_ms up to ` +
      `${BASH_MAX_TIMEOUT_MS}); on timeout the command and every process it started are killed. Long output keeps ` +
      'its head and tail. To leave a server running, redirect its output: `cmd > log 2>&1 &`.',
    get inputSchema() {
      return inputSchema();
    },
    replay: 'never',
    tier: 'warm',
    declaredRisk: 'per-call',
    assess: (input) => ({
      ...withGitSign(
        beyondReach(classifyCommand(input.command, { exists, leaves }), input.command, options),
        input.command,
      ),
      ...(input.outside_sandbox && options.sandbox ? { outsideSandbox: true } : {}),
    }),
    subject: (input) => input.command,
    withSubject: (input, command) => ({ ...input, command }),
    preflight: (input, ctx) => vetBeforeAsking(input, ctx, options),
    execute: (input, ctx) => runBash(input, ctx, options, gitShim),
  };
}

/**
 * With no sandbox, a command that goes where tole's git does not reach (a login shell, ssh, a
 * container, sudo: isReachDrop) runs only on a person's key at the box, which shows that: it is
 * code tole cannot see into, never ReadOnly (a ReadOnly call runs without asking, where its
 * findings would refuse it).
 */
function beyondReach(assessment: RiskAssessment, command: string, options: BashToolOptions): RiskAssessment {
  if (options.sandbox) return assessment;
  const home = (options.homes ?? []).find((dir) => isWithin(realOrResolved(dir), options.workspaceRoot));
  if (assessment.risk === 'ReadOnly' && home !== undefined)
    return {
      risk: 'Write',
      reason: `${assessment.reason}; but the workspace holds your home directory (${home}), where your keys and tokens live, and no sandbox hides them here`,
    };
  // The user's credentials live outside the workspace; in the sandbox they are out of sight.
  if (assessment.risk === 'ReadOnly' && assessment.readsOutside !== undefined)
    return {
      risk: 'Write',
      reason: `${assessment.reason}; but ${assessment.readsOutside}, where your keys and tokens live, and no sandbox hides them here`,
    };
  if (assessment.risk === 'ReadOnly' && assessment.unvettedReader !== undefined)
    return {
      risk: 'Write',
      reason: `${assessment.reason}; but \`${assessment.unvettedReader}\` may load a file of the workspace as code or settings, and no sandbox confines it here`,
      opaque: true,
    };
  const reach = guardDrops(command).find(isReachDrop);
  if (reach === undefined) return assessment;
  if (assessment.risk !== 'ReadOnly') return assessment.opaque ? assessment : { ...assessment, opaque: true };
  return { risk: 'Write', reason: `${assessment.reason}; but ${reach}`, opaque: true };
}

/**
 * The assessment with what in the line may run a git other than tole's (git-reach-signs.ts) said
 * after its reason: the approval box shows it where a key would run the call unconfined.
 */
function withGitSign(assessment: RiskAssessment, command: string): RiskAssessment {
  const sign = gitReachSign(command);
  return sign === null ? assessment : { ...assessment, reason: `${assessment.reason}; and ${sign}` };
}

/** The environment a command runs with, before the repository's settings are added. */
function baseEnv(options: BashToolOptions): Record<string, string> {
  const env: Record<string, string> = { ...(options.env ?? childEnv(process.env)), PAGER: 'cat', GIT_PAGER: 'cat' };
  if (env['PATH'] !== undefined) env['PATH'] = pathOutsideWorkspace(env['PATH'], options.workspaceRoot);
  return env;
}

/** What runBash would refuse to run unconfined, read the same way before the user is asked. */
async function vetBeforeAsking(input: BashInput, ctx: PreflightContext, options: BashToolOptions): Promise<Preflight> {
  try {
    const env = withGitGuard(baseEnv(options));
    const config = await repositoryGitConfig(ctx.workspaceRoot, env, input.command, options.trustedGitKeys);
    return { unvouched: config.unvouched };
  } catch {
    // A config that cannot be read fails the run whether confined or not; the run says why.
    return { unvouched: [] };
  }
}

async function runBash(
  input: BashInput,
  ctx: ToolContext,
  options: BashToolOptions,
  gitShim: () => Promise<GitShim | null>,
): Promise<ToolOutput> {
  if (ctx.signal.aborted)
    return { ok: false, content: 'Not run: the call was interrupted before the command started.' };
  const limits: RunLimits = {
    timeoutMs: input.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS,
    killGraceMs: options.killGraceMs ?? BASH_KILL_GRACE_MS,
    lingerMs: options.lingerMs ?? BASH_LINGER_MS,
  };
  const base = baseEnv(options);
  let config: CommandGitConfig;
  try {
    config = await repositoryGitConfig(ctx.workspaceRoot, withGitGuard(base), input.command, options.trustedGitKeys);
  } catch (error) {
    return { ok: false, content: (error as Error).message };
  }
  // Only a call the user approved with a key runs unconfined.
  const confined = ctx.keypress === true ? null : (options.sandbox ?? null);
  // What tole cannot vouch for in the repository's config may run only confined. Checked again
  // here, whatever the approval box said: the config may have changed since. With no sandbox, a
  // warning the key accepted runs, when what is found now is all in it.
  if (confined === null && config.unvouched.length > 0 && !acceptedByKey(config, ctx, options))
    return { ok: false, content: refusedUnconfined(config.unvouched, options) };
  const env = withGitGuard(base, config.settings);
  // Unconfined, every git the command starts passes tole's git, which vets the repository it finds
  // then (one the command made included). Confined, the sandbox holds what git runs; no shim there.
  if (confined === null) {
    let found: GitShim | null;
    try {
      found = await gitShim();
    } catch (error) {
      return {
        ok: false,
        content: `tole could not set up its git check, so the command was not run: ${(error as Error).message}`,
      };
    }
    if (found !== null) env['PATH'] = pathWithShim(found, base);
  }
  // Confined, a command may leave a .git whose config runs a program at the user's next git,
  // outside the sandbox: what is new or changed after the run is vetted (git-left-behind.ts).
  const before = confined === null ? null : gitSnapshot(ctx.workspaceRoot);
  const run = await runCommand(input.command, ctx.workspaceRoot, env, limits, ctx.signal, confined);
  const output = present(run, limits, confined?.policy ?? null, config.unvouched);
  if (before === null) return output;
  // bwrap exits with the command; a process left in the background may outlive it for a moment.
  const firstPid = sandboxChildPid(run.info);
  if (firstPid !== null) await sandboxEnded(firstPid);
  const left = leftBehindWords(
    await vetGitLeftBehind(ctx.workspaceRoot, before, base['PATH'] ?? ''),
    ctx.workspaceRoot,
  );
  return left === null ? output : { ok: false, content: `${left}\n${output.content}` };
}

/**
 * Whether a person's key accepted every finding of the run (ToolContext.accepted): only where
 * there is no sandbox, and only findings that say the command goes where tole's git does not reach.
 */
function acceptedByKey(config: CommandGitConfig, ctx: ToolContext, options: BashToolOptions): boolean {
  const { unvouched, fromCommand } = config;
  if (options.sandbox || ctx.keypress !== true || !keyMayAccept(unvouched)) return false;
  const accepted = new Set(ctx.accepted ?? []);
  // Each from the command's own text, never a line of the repository's that happens to read like one.
  const drops = new Set(fromCommand);
  return unvouched.every((line) => accepted.has(line) && drops.has(line));
}

/**
 * What the model reads when the run refuses to go unconfined: with no sandbox, the words of a
 * call refused before anyone was asked (no key runs it); with one, that a key runs it there.
 */
function refusedUnconfined(unvouched: readonly string[], options: BashToolOptions): string {
  return options.sandbox ? refusedAtRunWords(unvouched) : vettingWords({ unvouched, outcome: 'refused' });
}

/** Spawns `bash -c` in its own process group and settles once its output is closed. Never rejects. */
async function runCommand(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  limits: RunLimits,
  signal: AbortSignal,
  confined: BashToolOptions['sandbox'],
): Promise<CommandRun> {
  const capture = OutputCapture.create(BASH_CAPTURE_MAX_BYTES);
  // The outer bash points stderr at stdout and becomes `bash -c command` (same pid, same group),
  // so the two streams interleave in the order they were written, as in a terminal.
  // --norc: bash -c reads ~/.bashrc when SSH_CLIENT is set and SHLVL is not (Debian's build), and
  // a .bashrc that puts `.` first would undo the command's PATH (path-outside-workspace.ts).
  const bashArgs = ['--norc', '-c', 'exec bash --norc -c "$1" 2>&1', 'bash', command];
  const { program, args, seccomp, infoFd } = confined
    ? confinedCommand(confined.sandbox, confined.policy, ['bash', ...bashArgs], undefined, undefined, INFO_FD)
    : { program: 'bash', args: bashArgs, seccomp: null, infoFd: null };
  const end = await runInProcessGroup({
    program,
    args,
    fd3: seccomp,
    fd4: infoFd !== null,
    cwd,
    env,
    stdin: null,
    timeoutMs: limits.timeoutMs,
    lingerMs: limits.lingerMs,
    killGraceMs: limits.killGraceMs,
    signal,
    onOutput: (chunk) => capture.push(chunk),
  });
  const output = capClippedOutput(capture.result());
  return {
    exitCode: end.exitCode,
    exitSignal: end.exitSignal,
    stoppedBy: end.stoppedBy,
    spawnError: end.spawnError,
    output,
    outputBytes: capture.totalBytes,
    info: end.info,
  };
}

function present(
  run: CommandRun,
  limits: RunLimits,
  sandbox: SandboxPolicy | null,
  unvouched: readonly string[],
): ToolOutput {
  if (run.spawnError !== null) return { ok: false, content: `Could not start bash: ${run.spawnError}` };
  const body = run.outputBytes === 0 ? '(no output)' : run.output.replace(/\n$/, '');
  const status = statusLine(run, limits);
  const ok = run.exitCode === 0 && (run.stoppedBy === null || run.stoppedBy === 'lingering');
  const note = !ok && sandbox && mayBeSandboxFailure(run.output) ? `\n${sandboxNote(sandbox, unvouched)}` : '';
  return { ok, content: `${body}\n${status}${note}` };
}

/**
 * Said when a confined command failed in a way the sandbox may have caused, so the model asks
 * instead of retrying; where the call cannot run unconfined (`unvouched`), asking would only run
 * it in the sandbox again, and the note says that instead.
 */
function sandboxNote(sandbox: SandboxPolicy, unvouched: readonly string[]): string {
  const then =
    unvouched.length > 0
      ? confinedOnlyWords(unvouched)
      : 'If it failed because of that, do not retry it as it is: call bash again with "outside_sandbox": true, which the user must approve with a key.';
  return (
    `[This command ran in tole's sandbox: only ${sandbox.workspaceRoot} (but for .git, tole.config.json and .tole) ` +
    'and a private /tmp are writable, Unix sockets are refused, ' +
    `${sandbox.network ? 'the network is open' : 'there is no network'}, and background processes end with it. ${then}]`
  );
}

function statusLine(run: CommandRun, limits: RunLimits): string {
  const exit = run.exitCode !== null ? `exit code ${run.exitCode}` : `killed by ${run.exitSignal ?? 'a signal'}`;
  const partial = `Output above is partial (${formatBytes(run.outputBytes)} captured).`;
  switch (run.stoppedBy) {
    case 'timeout':
      return (
        `[timed out after ${limits.timeoutMs} ms: the command and every process it started were killed ` +
        `(SIGTERM, then SIGKILL after ${limits.killGraceMs} ms). ${partial} For long jobs pass a larger timeout_ms ` +
        `(at most ${BASH_MAX_TIMEOUT_MS}) or run them in the background with output to a file.]`
      );
    case 'abort':
      return `[interrupted by the user: the command and every process it started were killed. ${partial}]`;
    case 'lingering':
      return (
        `[${exit}. Background processes kept the output open after bash exited and were stopped; ` +
        'to leave a process running, redirect its output: `cmd > log 2>&1 &`.]'
      );
    case null:
      return `[${exit}]`;
  }
}
