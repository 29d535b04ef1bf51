/**
 * When the provider retries, as data plus one pure function. Waiting goes through an injected
 * `Sleep` so tests can record the waits instead of spending them.
 */
import { abortError } from '../abort';
import type { Random } from '../clock';
import type { ProviderErrorKind } from './errors';

type Jitter = 'full' | 'equal' | 'none';

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  /** Ceiling of the exponential backoff. */
  readonly maxDelayMs: number;
  /** Ceiling of a wait the server asks for with Retry-After. */
  readonly maxRetryAfterMs: number;
  readonly jitter: Jitter;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  jitter: 'full',
};

/** Hard limit whatever the configuration says. */
const maxAttemptsLimit = 20;

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy = { ...defaultRetryPolicy, ...overrides };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1 || policy.maxAttempts > maxAttemptsLimit) {
    throw new RangeError(
      `retry maxAttempts must be an integer from 1 to ${maxAttemptsLimit}, got ${policy.maxAttempts}`,
    );
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) {
      throw new RangeError(`retry ${key} must be a number >= 0, got ${policy[key]}`);
    }
  }
  return policy;
}

/** The kinds the provider retries itself. context_overflow is the turn loop's: it compacts first. */
export function isRetriedByProvider(kind: ProviderErrorKind): boolean {
  return kind === 'rate_limit' || kind === 'transient' || kind === 'stream_dropped';
}

interface RetryableFailure {
  readonly kind: ProviderErrorKind;
  readonly retryAfterMs?: number;
}

/**
 * How long to wait after attempt `attempt` (1-based) failed with `failure`, or undefined when
 * there is no next attempt (the kind is not retried, or the attempts are used up).
 */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  failure: RetryableFailure,
  random: Random,
): number | undefined {
  if (attempt >= policy.maxAttempts || !isRetriedByProvider(failure.kind)) return undefined;
  if (failure.kind === 'rate_limit' && failure.retryAfterMs !== undefined) {
    return Math.min(Math.max(0, Math.round(failure.retryAfterMs)), policy.maxRetryAfterMs);
  }
  return backoffMs(policy, attempt, random);
}

/** Exponential backoff for attempt `attempt` (1-based): base * 2^(attempt-1), capped, jittered. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: Random): number {
  const exponent = Math.min(Math.max(0, attempt - 1), 30);
  const ceilingMs = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  switch (policy.jitter) {
    case 'none':
      return Math.round(ceilingMs);
    case 'full':
      return Math.floor(random.float() * ceilingMs);
    case 'equal':
      return Math.floor(ceilingMs / 2 + random.float() * (ceilingMs / 2));
  }
}

/** Waits `ms`, or rejects at once with an `AbortError` when `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError('the wait was cancelled'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError('the wait was cancelled'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
