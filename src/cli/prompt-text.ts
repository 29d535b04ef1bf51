import { DEFAULT_HOOK_TIMEOUT_MS } from '../core/hooks/hook-config';
import { runHookCommand } from '../core/hooks/run-hook-command';

/** A `systemPrompt` or `prompt` value: text as it is, or shell commands whose stdout is joined. */
export type PromptSpec = string | readonly string[];

export class PromptCommandError extends Error {
  override readonly name = 'PromptCommandError';
}

interface PromptRun {
  /** Where the prompt was set, for errors: `config /path/to/config.json: field "prompt"`. */
  readonly origin: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The hook runner's limit (`hooks.timeoutMs`). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Repository git config keys the user vouched for (`trustedGitKeys`). */
  readonly trustedGitKeys?: readonly string[];
}

/**
 * The text of a prompt. Commands run one after another with `bash -c` in their own process
 * group, under the hook runner's timeout; one that fails (a non-zero exit, a signal, the timeout)
 * fails the whole prompt with an error naming it and its stderr. Only trusted config reaches here.
 */
export async function promptText(spec: PromptSpec, run: PromptRun): Promise<string> {
  if (typeof spec === 'string') return spec;
  const env = Object.fromEntries(
    Object.entries(run.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const timeoutMs = run.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const parts: string[] = [];
  for (const command of spec) {
    const end = await runHookCommand({
      command,
      cwd: run.cwd,
      env,
      stdin: '',
      timeoutMs,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.trustedGitKeys ? { trustedGitKeys: run.trustedGitKeys } : {}),
    });
    const how =
      end.spawnError !== null
        ? `could not start: ${end.spawnError}`
        : end.stoppedBy === 'timeout'
          ? `took longer than ${timeoutMs} ms and was stopped`
          : end.stoppedBy === 'abort'
            ? 'was cancelled'
            : end.exitCode !== 0
              ? end.exitCode === null
                ? `was ended by ${end.exitSignal ?? 'a signal'}`
                : `exited with ${end.exitCode}`
              : null;
    if (how !== null) {
      const stderr = end.stderr.trim();
      throw new PromptCommandError(
        `${run.origin}: command "${command}" ${how}${stderr ? `: ${stderr.split('\n').slice(-5).join(' / ')}` : ''}`,
      );
    }
    parts.push(end.stdout);
  }
  return parts.join('');
}
