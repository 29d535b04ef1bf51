/**
 * The wall clock stepped back or forward between sessions and between entries (NTP correcting a
 * clock that ran ahead, a VM resumed from a snapshot, a user's `date -s`). The machine's clock is
 * never changed here: every clock is injected. What orders by time must not go back: session ids
 * (the newest is what `tole --continue` goes on with; sub-agents are listed in the order of
 * theirs), and a session's lock is judged by its holder, never by its age.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type Clock, monotonicNs, seededRandom, systemClock } from '../../../src/core/clock';
import { SessionStore } from '../../../src/core/storage/session-store';
import { listSessionFiles, newestSessionIn } from '../../../src/cli/session-files';
import { caughtStorageError } from '../../support/storage-errors';
import { entryCommit, tempDir } from '../../support/storage-fixtures';

const dir = tempDir('tole-clock-steps-');
afterAll(() => dir.remove());

const HOUR_MS = 3_600_000;
const YEAR_MS = 365 * 24 * HOUR_MS;

/** A clock standing at `ms` (moving a millisecond a reading): what the wall clock says at that moment. */
function clockAt(ms: number): Clock {
  let now = ms;
  return { nowMs: () => now++, nowNs: () => BigInt(now++) * 1_000_000n };
}

let seed = 1;
function sessionAt(folder: string, ms: number, text: string): SessionStore {
  const store = SessionStore.create(folder, { clock: clockAt(ms), random: seededRandom(seed++), cwd: '/work/project' });
  store.commit(entryCommit(store, null, text));
  return store;
}

describe('a clock stepped back', () => {
  it('between two sessions: the later one still sorts newest, and is the one --continue goes on with', () => {
    const folder = tempDir('tole-clock-sessions-').path;
    const t = 1_800_000_000_000;
    const first = sessionAt(folder, t, 'first');
    first.close();
    // Stepped back an hour, then a year, before the next sessions are made.
    const second = sessionAt(folder, t - HOUR_MS, 'second');
    second.close();
    const third = sessionAt(folder, t - YEAR_MS, 'third');
    third.close();
    expect(second.header.id > first.header.id).toBe(true);
    expect(third.header.id > second.header.id).toBe(true);
    expect(listSessionFiles(folder).map((s) => s.path)).toEqual([third.path, second.path, first.path]);
    expect(newestSessionIn(folder, '/work/project')).toBe(third.path);
    // The id keeps its own random suffix: only its time moved.
    expect(second.header.id.split('-')[1]).toMatch(/^[0-9a-f]{6}$/);
  });

  it('a clock stepped forward then back again goes on from the furthest time seen', () => {
    const folder = tempDir('tole-clock-forward-').path;
    const t = 1_800_000_000_000;
    const ahead = sessionAt(folder, t + YEAR_MS, 'ahead');
    ahead.close();
    const back = sessionAt(folder, t, 'back');
    back.close();
    expect(back.header.id > ahead.header.id).toBe(true);
    expect(newestSessionIn(folder, '/work/project')).toBe(back.path);
  });

  it('within one process: ids of the system clock never go back, nor repeat within a millisecond', () => {
    const steps = [10n, 5n, 5n, 20n, 19n, 21n];
    const read = monotonicNs(() => steps.shift()!);
    expect(Array.from({ length: 6 }, read)).toEqual([10n, 11n, 12n, 20n, 21n, 22n]);
    // The system clock's ids: many made at once (sub-agents started together) come out in order.
    const ids = Array.from({ length: 2000 }, () => systemClock.nowNs());
    expect(ids.findIndex((id, i) => i > 0 && id <= ids[i - 1]!)).toBe(-1);
  });

  it("does not make a running tole's lock look stale: a second writer a year ahead or behind is refused", () => {
    const store = sessionAt(dir.path, 1_800_000_000_000, 'held');
    try {
      for (const ms of [1_800_000_000_000 + YEAR_MS, 1_800_000_000_000 - YEAR_MS]) {
        const error = caughtStorageError(() =>
          SessionStore.open(store.path, { clock: clockAt(ms), random: seededRandom(seed++) }),
        );
        expect(error.kind).toBe('locked');
      }
      // The holder goes on committing with its clock stepped back.
      store.commit(entryCommit(store, 'e_1', 'after the step'));
    } finally {
      store.close();
    }
    const reopened = SessionStore.open(store.path, { clock: clockAt(0), random: seededRandom(seed++) });
    expect([...reopened.tree.all()].map((e) => e.payload)).toEqual([{ text: 'held' }, { text: 'after the step' }]);
    reopened.close();
  });
});
