import { afterEach, describe, expect, it, vi } from 'vitest';
import { seededRandom, type Random } from '../../../src/core/clock';
import {
  backoffMs,
  defaultRetryPolicy,
  isRetriedByProvider,
  retryDelayMs,
  retryPolicy,
  timerSleep,
} from '../../../src/core/provider/retry';

const fixed = (value: number): Random => ({ float: () => value, bytes: (n) => new Uint8Array(n) });

describe('retry policy', () => {
  it('has the documented defaults', () => {
    expect(defaultRetryPolicy).toMatchObject({ maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 });
  });

  it('backs off exponentially up to the ceiling', () => {
    const policy = retryPolicy({ jitter: 'none' });
    const waits = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => backoffMs(policy, attempt, fixed(0)));
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  });

  it('draws full jitter from zero to the ceiling and equal jitter from half of it', () => {
    expect(backoffMs(retryPolicy({ jitter: 'full' }), 3, fixed(0))).toBe(0);
    expect(backoffMs(retryPolicy({ jitter: 'full' }), 3, fixed(0.5))).toBe(1000);
    expect(backoffMs(retryPolicy({ jitter: 'equal' }), 3, fixed(0))).toBe(1000);
    expect(backoffMs(retryPolicy({ jitter: 'equal' }), 3, fixed(0.999))).toBe(1999);
    const random = seededRandom(3);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const waitMs = backoffMs(retryPolicy({ jitter: 'full' }), attempt, random);
      expect(waitMs).toBeGreaterThanOrEqual(0);
      expect(waitMs).toBeLessThan(Math.min(30_000, 500 * 2 ** (attempt - 1)));
    }
  });

  it('honours Retry-After for a rate limit, capped', () => {
    const policy = retryPolicy({ maxRetryAfterMs: 60_000 });
    expect(retryDelayMs(policy, 1, { kind: 'rate_limit', retryAfterMs: 4200 }, fixed(0.5))).toBe(4200);
    expect(retryDelayMs(policy, 1, { kind: 'rate_limit', retryAfterMs: 3_600_000 }, fixed(0.5))).toBe(60_000);
    expect(retryDelayMs(policy, 2, { kind: 'rate_limit' }, fixed(0.5))).toBe(500);
  });

  it('retries only rate limits, transient failures and dropped streams', () => {
    const policy = retryPolicy();
    for (const kind of ['rate_limit', 'transient', 'stream_dropped'] as const) {
      expect(isRetriedByProvider(kind)).toBe(true);
      expect(retryDelayMs(policy, 1, { kind }, fixed(0.5))).toBeTypeOf('number');
    }
    for (const kind of [
      'context_overflow',
      'tool_unsupported',
      'auth',
      'bad_request',
      'not_found',
      'aborted',
    ] as const) {
      expect(isRetriedByProvider(kind)).toBe(false);
      expect(retryDelayMs(policy, 1, { kind }, fixed(0.5))).toBeUndefined();
    }
  });

  it('stops when the attempts are used up', () => {
    const policy = retryPolicy({ maxAttempts: 3 });
    expect(retryDelayMs(policy, 2, { kind: 'transient' }, fixed(0.5))).toBeTypeOf('number');
    expect(retryDelayMs(policy, 3, { kind: 'transient' }, fixed(0.5))).toBeUndefined();
  });

  it('refuses limits that make no sense', () => {
    expect(() => retryPolicy({ maxAttempts: 0 })).toThrow(RangeError);
    expect(() => retryPolicy({ maxAttempts: 1000 })).toThrow(RangeError);
    expect(() => retryPolicy({ baseDelayMs: -1 })).toThrow(RangeError);
  });
});

describe('timerSleep', () => {
  afterEach(() => vi.useRealTimers());

  it('resolves when its time has passed, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let slept = false;
    const sleeping = timerSleep(30, new AbortController().signal).then(() => (slept = true));
    await vi.advanceTimersByTimeAsync(29);
    expect(slept).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(slept).toBe(true);
  });

  it('rejects on abort without its time passing, and at once when already aborted', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const sleeping = timerSleep(10_000, controller.signal);
    controller.abort();
    // No timer is advanced: only the abort can settle it.
    await expect(sleeping).rejects.toMatchObject({ name: 'AbortError' });
    expect(vi.getTimerCount()).toBe(0);
    await expect(timerSleep(10, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
