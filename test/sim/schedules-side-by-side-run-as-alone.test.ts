/**
 * The suite runs a few schedules at once (run-schedules.ts). Each must come out as it does alone,
 * so that a failing seed replays with `npm run sim -- --seed S`: nothing of one schedule (its
 * workspace files above all, which tole's file tools change) may reach another.
 */
import { describe, expect, it } from 'vitest';
import { firstFailing, runSchedules } from './run-schedules';
import { runSchedule, type SimResult } from './simulate';

/** Enough seeds that edits, writes, crashes and restores overlap between the schedules in flight. */
const SEEDS = 12;

describe('schedules run side by side', () => {
  it('come out as each does alone', async () => {
    const alone: SimResult[] = [];
    for (let seed = 1; seed <= SEEDS; seed++) alone.push(await runSchedule(seed));
    const together = await runSchedules(1, SEEDS, {}, 3);
    expect(together.map((result) => result.seed)).toEqual(alone.map((result) => result.seed));
    expect(together).toEqual(alone);
    // The schedules did change files: a run that never edited would prove nothing about sharing.
    expect(alone.reduce((sum, result) => sum + result.commits, 0)).toBeGreaterThan(SEEDS * 10);
  });

  it('find the first failing seed a run one by one stops at', async () => {
    const planted = { planted: 'restore-writes-nothing' as const };
    let alone: SimResult | null = null;
    for (let seed = 1; alone === null; seed++) {
      const result = await runSchedule(seed, planted);
      if (result.problems.length > 0) alone = result;
    }
    expect(await firstFailing(1, alone.seed + 5, planted, 3)).toEqual(alone);
    // With every fdatasync skipped, seed 1 fails, and seed 2 (run beside it) throws in the
    // simulator's own checks of a child's file: a run one by one never gets to seed 2.
    expect((await firstFailing(1, 4, { planted: 'skip-fdatasync' }, 2))?.seed).toBe(1);
  });
});
