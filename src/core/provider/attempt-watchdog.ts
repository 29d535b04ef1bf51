/**
 * One attempt's abort signal, the same for every API kind: the caller's signal, silence in the
 * stream beyond the limit that applies (first token, then idle), or the end of the call's time;
 * and the errors that say which of them ended the attempt.
 */
import { ABORTED, abortError, raceAbort } from '../abort';
import { abortedError, ProviderError, streamDroppedError } from './errors';

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

interface WatchdogLimits {
  /** Silence allowed from the stream's opening to its first output. */
  readonly firstTokenMs: number;
  /** Silence allowed once output has started. */
  readonly idleMs: number;
  /** `performance.now()` by which the whole model call must be over. */
  readonly deadline: number;
}

export class AttemptWatchdog {
  private readonly controller = new AbortController();
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly deadlineTimer: ReturnType<typeof setTimeout>;
  private readonly onCallerAbort = (): void => this.controller.abort();
  private lastActivityMs = 0;
  private limitMs: number;
  private outputStarted = false;
  fired: 'first-token' | 'idle' | 'deadline' | null = null;

  constructor(
    private readonly callerSignal: AbortSignal,
    private readonly limits: WatchdogLimits,
  ) {
    this.limitMs = limits.firstTokenMs;
    if (callerSignal.aborted) this.controller.abort();
    else callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
    this.deadlineTimer = setTimeout(() => this.fire('deadline'), Math.max(0, limits.deadline - performance.now()));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The stream opened: silence counts from now, up to the first-token limit. */
  open(): void {
    this.activity();
  }

  /** Output arrived: from now on the (shorter) idle limit applies. */
  output(): void {
    if (this.outputStarted) return;
    this.outputStarted = true;
    this.limitMs = this.limits.idleMs;
    // The timer was set for the first-token limit: restart it for the idle limit.
    if (this.silenceTimer !== undefined) clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(this.onSilenceTimer, this.limitMs);
  }

  /**
   * Hands on the events one wire event brought (counting them as output), until one of them ends
   * the attempt: a caller that aborts from inside an event gets none of the rest.
   */
  handOn<T>(events: readonly T[], onEvent: (event: T) => void): void {
    if (events.length > 0) this.output();
    for (const event of events) {
      if (this.controller.signal.aborted) return;
      onEvent(event);
    }
  }

  /**
   * A chunk arrived. Per chunk this only notes the time; the one timer, when it fires, re-arms
   * itself for what is left of the limit.
   */
  activity(): void {
    this.lastActivityMs = performance.now();
    if (this.silenceTimer === undefined) this.silenceTimer = setTimeout(this.onSilenceTimer, this.limitMs);
  }

  private readonly onSilenceTimer = (): void => {
    const silentForMs = performance.now() - this.lastActivityMs;
    if (silentForMs < this.limitMs) {
      this.silenceTimer = setTimeout(this.onSilenceTimer, this.limitMs - silentForMs);
      return;
    }
    this.fire(this.outputStarted ? 'idle' : 'first-token');
  };

  private fire(why: 'first-token' | 'idle' | 'deadline'): void {
    if (this.fired !== null || this.controller.signal.aborted) return;
    this.fired = why;
    this.controller.abort();
  }

  /** Stops the timers and closes the connection if it is still open. */
  dispose(): void {
    if (this.silenceTimer !== undefined) clearTimeout(this.silenceTimer);
    clearTimeout(this.deadlineTimer);
    this.callerSignal.removeEventListener('abort', this.onCallerAbort);
    this.controller.abort();
  }
}

/** The limits of a call, in the words its errors use. */
export interface CallLimits {
  readonly baseURL: string;
  readonly firstTokenTimeoutMs: number;
  readonly streamIdleTimeoutMs: number;
  readonly callTimeoutMs: number;
}

/** An attempt's watchdog under its call's limits, whichever API kind makes the attempt. */
export function watchdogFor(signal: AbortSignal, limits: CallLimits, deadline: number): AttemptWatchdog {
  return new AttemptWatchdog(signal, {
    firstTokenMs: limits.firstTokenTimeoutMs,
    idleMs: limits.streamIdleTimeoutMs,
    deadline,
  });
}

/**
 * Why an attempt ended when the caller or the watchdog ended it: the caller's abort (kept as it
 * came when it already is one) or the limit that fired; null when neither did, and the failure is
 * the kind's own to read.
 */
export function stoppedAttemptError(
  err: unknown,
  signal: AbortSignal,
  watchdog: AttemptWatchdog,
  limits: CallLimits,
): ProviderError | null {
  if (signal.aborted) return err instanceof ProviderError && err.kind === 'aborted' ? err : abortedError(err);
  if (watchdog.fired !== null) return watchdogError(watchdog.fired, limits);
  return null;
}

/** Which limit ended the attempt, as a dropped stream. */
export function watchdogError(fired: AttemptWatchdog['fired'], limits: CallLimits): ProviderError {
  switch (fired) {
    case 'first-token':
      return streamDroppedError(
        limits.baseURL,
        `no answer for ${formatSeconds(limits.firstTokenTimeoutMs)} after the stream opened (limits.firstTokenTimeoutMs)`,
      );
    case 'deadline':
      return outOfTimeError(streamDroppedError(limits.baseURL, 'the model call ran out of time'), limits);
    default:
      return streamDroppedError(
        limits.baseURL,
        `no data for ${formatSeconds(limits.streamIdleTimeoutMs)} (limits.streamIdleTimeoutMs)`,
      );
  }
}

/** The call's time (all attempts and waits) is used up: the last failure, and what bounds it. */
export function outOfTimeError(last: ProviderError, limits: CallLimits): ProviderError {
  return new ProviderError({
    kind: last.kind,
    ...(last.status === undefined ? {} : { status: last.status }),
    message: `${last.message}; gave up: the model call may take ${formatSeconds(limits.callTimeoutMs)} in all (limits.modelCallTimeoutMs)`,
    hint: `${last.hint}; raise limits.modelCallTimeoutMs to wait longer`,
    cause: last,
  });
}

/** Settles as `promise` does, or rejects the moment `signal` aborts. */
export async function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => undefined);
  const settled = await raceAbort(promise, signal);
  if (settled === ABORTED) throw abortError('aborted');
  return settled;
}
