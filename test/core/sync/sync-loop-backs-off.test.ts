import { describe, expect, it } from 'vitest';
import { backoffDelay, SyncLoop, type SyncState, type SyncTimers } from '../../../src/core/sync/sync-loop';

/** Timers the test moves by hand. */
function manualTimers(): SyncTimers & { advance(ms: number): Promise<void>; pending(): number[] } {
  let now = 0;
  let next = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    set: (fn, ms) => {
      const id = next++;
      due.set(id, { at: now + ms, fn });
      return id;
    },
    clear: (id) => void due.delete(id as number),
    nowMs: () => now,
    pending: () => [...due.values()].map((d) => d.at - now),
    async advance(ms) {
      now += ms;
      for (const [id, d] of [...due]) {
        if (d.at > now) continue;
        due.delete(id);
        d.fn();
      }
      // Let the run's promise settle.
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

describe('the background sync schedule', () => {
  it('doubles the wait after each failure up to the cap', () => {
    expect([1, 2, 3, 4, 8, 20].map((n) => backoffDelay(n, 1000, 60_000))).toEqual([
      1000, 2000, 4000, 8000, 60_000, 60_000,
    ]);
  });

  it('ships a moment after a commit, retries a failure with backoff, and clears the failure once it works', async () => {
    const timers = manualTimers();
    const outcomes = [new Error('cannot reach PostgreSQL'), new Error('cannot reach PostgreSQL'), null];
    let runs = 0;
    const loop = new SyncLoop({
      timers,
      delayMs: 500,
      backoffMs: 1000,
      run: async () => {
        const outcome = outcomes[runs++];
        if (outcome) throw outcome;
      },
    });
    const states: SyncState['kind'][] = [];
    loop.subscribe((s) => states.push(s.kind));
    loop.poke();
    loop.poke();
    expect(timers.pending()).toEqual([500]);
    await timers.advance(500);
    expect(runs).toBe(1);
    expect(loop.current).toMatchObject({
      kind: 'failed',
      error: 'cannot reach PostgreSQL',
      failures: 1,
      retryAtMs: 1500,
    });
    // A commit during the backoff does not cut it short.
    loop.poke();
    expect(timers.pending()).toEqual([1000]);
    await timers.advance(1000);
    expect(loop.current).toMatchObject({ kind: 'failed', failures: 2, retryAtMs: 3500 });
    await timers.advance(2000);
    expect(runs).toBe(3);
    expect(loop.current.kind).toBe('ok');
    expect(states).toEqual(['running', 'failed', 'failed', 'ok']);
    loop.stop();
    loop.poke();
    expect(timers.pending()).toEqual([]);
  });

  it('runs once more when commits came while a run was under way', async () => {
    const timers = manualTimers();
    let release!: () => void;
    let runs = 0;
    const loop = new SyncLoop({ timers, delayMs: 100, run: () => new Promise<void>((r) => ((release = r), runs++)) });
    loop.poke();
    await timers.advance(100);
    expect(runs).toBe(1);
    loop.poke();
    expect(timers.pending()).toEqual([]);
    release();
    await timers.advance(0);
    expect(timers.pending()).toEqual([100]);
    await timers.advance(100);
    expect(runs).toBe(2);
  });
});
