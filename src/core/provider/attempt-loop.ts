/**
 * One model call as attempts, the same for every API kind: each attempt is run by the kind,
 * reported (failed ones too) through an `attempt` event before any wait, and retried as the
 * shared policy says within the call's time. When an attempt fails after some output, a
 * `discard` comes first (its partial output is void; not sent for a cancel, whose partial output
 * the caller may still want to show).
 */
import type { Clock, Random } from '../clock';
import { type CallLimits, outOfTimeError } from './attempt-watchdog';
import { abortedError, ProviderError } from './errors';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  type ProviderOptions,
} from './provider-options';
import type { AttemptReport, CompletionEvent, CompletionRequest, CompletionResult, TokenUsage } from './provider';
import { type RetryPolicy, retryDelayMs, retryPolicy, type Sleep, timerSleep } from './retry';

export type AttemptOutcomeData =
  | { readonly ok: true; readonly result: CompletionResult }
  | {
      readonly ok: false;
      readonly error: ProviderError;
      readonly usage: TokenUsage | null;
      readonly emittedOutput: boolean;
    };

/** A kind's options with every default filled in. */
export interface CallSettings extends CallLimits {
  readonly policy: RetryPolicy;
  readonly sleep: Sleep;
  readonly clock: Clock;
  readonly random: Random;
  /** Limit on waiting for the response headers of one attempt. */
  readonly timeoutMs: number;
}

export function callSettings(options: ProviderOptions): CallSettings {
  const streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  return {
    baseURL: options.baseURL,
    policy: retryPolicy(options.retry),
    sleep: options.sleep ?? timerSleep,
    clock: options.clock,
    random: options.random,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    streamIdleTimeoutMs,
    firstTokenTimeoutMs: Math.max(options.firstTokenTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS, streamIdleTimeoutMs),
    callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
  };
}

/** The model a request goes to, or the error that says how to name one. */
export function requestModel(request: CompletionRequest, options: ProviderOptions): string {
  const model = request.model || options.defaultModel || '';
  if (model === '') {
    // A failure of the call, like any other: the turn settles it as an error entry.
    throw new ProviderError({
      kind: 'bad_request',
      message: `no model named for ${options.baseURL}`,
      hint: 'name one with --model NAME or the config field "model"',
    });
  }
  return model;
}

/**
 * Runs attempts until one succeeds or the policy gives up; `finalError` may reword the error that
 * ends the call (a kind naming the setting a server refused).
 */
export async function runAttempts(
  settings: CallSettings,
  request: CompletionRequest,
  model: string,
  onEvent: (event: CompletionEvent) => void,
  runAttempt: (deadline: number) => Promise<AttemptOutcomeData>,
  finalError: (error: ProviderError) => ProviderError = (error) => error,
): Promise<CompletionResult> {
  const deadline = performance.now() + settings.callTimeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    const startMs = settings.clock.nowMs();
    const outcome = await runAttempt(deadline);
    const latencyMs = Math.max(0, settings.clock.nowMs() - startMs);
    if (outcome.ok) {
      onEvent(attemptEvent({ model, attempt, outcome: 'ok', usage: outcome.result.usage, latencyMs }));
      return outcome.result;
    }
    const { error } = outcome;
    const delayMs =
      error.kind === 'aborted' ? undefined : retryDelayMs(settings.policy, attempt, error, settings.random);
    // No retry that could not start before the call's time is up.
    const retryInMs = delayMs !== undefined && performance.now() + delayMs < deadline ? delayMs : undefined;
    if (outcome.emittedOutput && error.kind !== 'aborted') onEvent({ type: 'discard' });
    onEvent(
      attemptEvent({
        model,
        attempt,
        outcome: error.kind,
        usage: outcome.usage,
        latencyMs,
        error: error.message,
        ...(retryInMs === undefined ? {} : { retryInMs }),
      }),
    );
    if (retryInMs === undefined)
      throw withAttempts(finalError(delayMs === undefined ? error : outOfTimeError(error, settings)), attempt);
    await waitBeforeRetry(settings.sleep, retryInMs, request.signal, attempt);
  }
}

async function waitBeforeRetry(sleep: Sleep, waitMs: number, signal: AbortSignal, attempt: number): Promise<void> {
  try {
    await sleep(waitMs, signal);
  } catch (err) {
    throw withAttempts(abortedError(err), attempt);
  }
  if (signal.aborted) throw withAttempts(abortedError(), attempt);
}

function attemptEvent(report: AttemptReport): CompletionEvent {
  return { type: 'attempt', report };
}

function withAttempts(error: ProviderError, attempts: number): ProviderError {
  error.attempts = attempts;
  return error;
}
