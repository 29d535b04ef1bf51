import { childEnv } from '../child-env';
import { systemClock, type Clock } from '../clock';
import type { Risk } from '../approval/risk';
import type { EntryPayloads } from '../tree/entry-types';
import { commandsFor, DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENTS, type HookEvent, type HooksConfig } from './hook-config';
import { hookEnv, type HookPayload } from './hook-payload';
import { runHookCommand, type CommandEnd } from './run-hook-command';
import type { Sandbox, SandboxPolicy } from '../tools/sandbox';

/** A hook never approves: it lets the action go on, warns, or blocks it. */
type HookVerdict = 'ok' | 'warn' | 'block';

/** The exit code that blocks the action. */
const HOOK_BLOCK_EXIT = 2;
/** The most of a hook's stdout that goes into the model's context. */
const HOOK_CONTEXT_MAX_CHARS = 8 * 1024;
/** The most of a hook's output a notice quotes when it only reports. */
const SHORT_OUTPUT_CHARS = 400;
const SHORT_COMMAND_CHARS = 120;

interface HookRunReport {
  readonly event: HookEvent;
  readonly command: string;
  readonly verdict: HookVerdict;
  readonly exitCode: number | null;
  /** Why it did not end on its own: "timed out after 60000 ms", "was killed by SIGKILL", ... */
  readonly failure: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

export interface HookOutcome {
  readonly event: HookEvent;
  /** `block` when a command blocked (the later ones did not run), else the worst verdict. */
  readonly verdict: HookVerdict;
  /** The blocking command's words (stderr, else stdout, else what happened to it). */
  readonly blockReason: string | null;
  readonly runs: readonly HookRunReport[];
}

export interface HookRunOptions {
  /** A hook that crashes or times out blocks instead of warning: preToolUse of Write and Destructive calls. */
  readonly failClosed: boolean;
  readonly signal?: AbortSignal;
}

interface HookRunnerOptions {
  readonly config: HooksConfig;
  /** Where the commands run: the workspace root. */
  readonly cwd: string;
  /** The environment hooks inherit, without secrets (default: this process's, through `childEnv`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly clock?: Clock;
  /** How long children may hold the output open after the hook's shell exits. */
  readonly lingerMs?: number;
  /** Repository git config keys the user vouched for (`trustedGitKeys`). */
  readonly trustedGitKeys?: readonly string[];
  /**
   * Events whose commands came from a project's config (trusted, yet the repository's words),
   * run confined by this sandbox; the user's own hooks run as written. Null: no sandbox here.
   */
  readonly confine?: {
    readonly events: ReadonlySet<HookEvent>;
    readonly sandbox: Sandbox;
    readonly policy: SandboxPolicy;
  } | null;
}

/** Runs the shell commands the config names for each lifecycle event. */
export class HookRunner {
  private constructor(
    private readonly options: HookRunnerOptions,
    private readonly timeoutMs: number,
  ) {}

  /** Throws RangeError for a config no zod schema should have let through (a bad timeout, too many commands). */
  static create(options: HookRunnerOptions): HookRunner {
    const timeoutMs = options.config.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
      throw new RangeError(`hooks.timeoutMs must be a positive integer, not ${String(timeoutMs)}`);
    for (const event of HOOK_EVENTS) commandsFor(options.config, event);
    return new HookRunner(options, timeoutMs);
  }

  /** The sandbox a project's hook for `event` runs in; null for the user's own hooks. */
  private confinedFor(event: HookEvent): { sandbox: Sandbox; policy: SandboxPolicy } | null {
    const confine = this.options.confine;
    return confine?.events.has(event) ? { sandbox: confine.sandbox, policy: confine.policy } : null;
  }

  has(event: HookEvent): boolean {
    return commandsFor(this.options.config, event).length > 0;
  }

  /** Runs the event's commands in order; the first that blocks stops the rest. Never rejects. */
  async run(payload: HookPayload, options: HookRunOptions): Promise<HookOutcome> {
    const { event } = payload;
    const runs: HookRunReport[] = [];
    const env = hookEnv(this.options.env ?? childEnv(process.env), payload);
    const stdin = JSON.stringify(payload);
    const clock = this.options.clock ?? systemClock;
    for (const command of commandsFor(this.options.config, event)) {
      if (options.signal?.aborted) break;
      const startedMs = clock.nowMs();
      const end = await runHookCommand({
        command,
        cwd: this.options.cwd,
        env,
        stdin,
        timeoutMs: this.timeoutMs,
        ...(this.options.lingerMs === undefined ? {} : { lingerMs: this.options.lingerMs }),
        ...(options.signal ? { signal: options.signal } : {}),
        confined: this.confinedFor(event),
        ...(this.options.trustedGitKeys ? { trustedGitKeys: this.options.trustedGitKeys } : {}),
      });
      const report = reportOf(event, command, end, options.failClosed, this.timeoutMs, clock.nowMs() - startedMs);
      runs.push(report);
      if (report.verdict === 'block') return { event, verdict: 'block', blockReason: blockReason(report), runs };
    }
    return { event, verdict: runs.some((r) => r.verdict === 'warn') ? 'warn' : 'ok', blockReason: null, runs };
  }
}

/** preToolUse fails closed for calls that change something. */
export function failsClosed(risk: Risk): boolean {
  return risk !== 'ReadOnly';
}

function reportOf(
  event: HookEvent,
  command: string,
  end: CommandEnd,
  failClosed: boolean,
  timeoutMs: number,
  durationMs: number,
): HookRunReport {
  const failure = failureOf(end, timeoutMs);
  const verdict: HookVerdict =
    failure !== null
      ? failClosed
        ? 'block'
        : 'warn'
      : end.exitCode === 0
        ? 'ok'
        : end.exitCode === HOOK_BLOCK_EXIT
          ? 'block'
          : 'warn';
  return {
    event,
    command,
    verdict,
    exitCode: end.exitCode,
    failure,
    stdout: end.stdout,
    stderr: end.stderr,
    durationMs,
  };
}

function failureOf(end: CommandEnd, timeoutMs: number): string | null {
  if (end.spawnError !== null) return `could not start: ${end.spawnError}`;
  if (end.stoppedBy === 'timeout') return `timed out after ${timeoutMs} ms and was killed`;
  if (end.stoppedBy === 'abort') return 'was stopped: the turn was interrupted';
  if (end.exitCode === null) return `was killed by ${end.exitSignal ?? 'a signal'}`;
  return null;
}

function blockReason(report: HookRunReport): string {
  if (report.failure !== null) return `the hook ${report.failure}`;
  const words = report.stderr.trim() || report.stdout.trim();
  return words === '' ? `the hook exited ${HOOK_BLOCK_EXIT} without saying why` : clip(words, HOOK_CONTEXT_MAX_CHARS);
}

/** The stdout of a hook that exited 0, as the model will read it; null when it printed nothing. */
function hookContext(report: HookRunReport): string | null {
  if (report.verdict !== 'ok') return null;
  const text = report.stdout.trim();
  return text === '' ? null : clip(text, HOOK_CONTEXT_MAX_CHARS);
}

/** The transcript's record of one hook run: event, command, exit, short output. */
export function hookNotice(report: HookRunReport): EntryPayloads['notice'] {
  const head = `hook ${report.event} \`${clip(report.command, SHORT_COMMAND_CHARS)}\``;
  const context = hookContext(report);
  if (context !== null)
    return { level: 'info', source: 'hook', text: `${head} (exit 0) adds:\n${context}`, toModel: true };
  if (report.verdict === 'ok') return { level: 'info', source: 'hook', text: `${head}: exit 0` };
  const how = report.failure ?? `exit ${String(report.exitCode)}`;
  const said = clip(report.stderr.trim() || report.stdout.trim(), SHORT_OUTPUT_CHARS);
  const effect = report.verdict === 'block' ? 'blocked' : 'warning';
  return { level: 'warn', source: 'hook', text: `${head} ${effect}: ${how}${said === '' ? '' : `: ${said}`}` };
}

export function hookNotices(outcome: HookOutcome): EntryPayloads['notice'][] {
  return outcome.runs.map(hookNotice);
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)} [... ${text.length - maxChars} more characters]`;
}
