/**
 * The seeded fault simulator in the suite: a fixed range of seeds (about 20 s on a loaded 2-core
 * machine; `npm run sim -- --seeds N` runs more), and its self-test: with one fdatasync planted
 * as skipped, it finds a lost acknowledged commit, and the seed it names replays exactly.
 */
import { describe, expect, it } from 'vitest';
import { runSchedule } from './simulate';

const SEEDS = 200;

describe('the fault simulator', () => {
  it(`holds every invariant over seeds 1..${SEEDS}`, async () => {
    const failed: string[] = [];
    const totals = { crashes: 0, commits: 0 };
    for (let seed = 1; seed <= SEEDS; seed++) {
      const result = await runSchedule(seed);
      totals.crashes += result.crashes;
      totals.commits += result.commits;
      if (result.problems.length > 0)
        failed.push(`seed ${seed} (replay: npm run sim -- --seed ${seed}):\n${result.problems.join('\n')}`);
    }
    expect(failed).toEqual([]);
    // The schedules did crash and commit: a simulator that never faults proves nothing.
    expect(totals.crashes).toBeGreaterThan(SEEDS / 4);
    expect(totals.commits).toBeGreaterThan(SEEDS * 10);
  }, 120_000);

  it('finds a planted skipped fdatasync as a lost acknowledged commit, and its seed replays the same failure', async () => {
    let found: Awaited<ReturnType<typeof runSchedule>> | null = null;
    for (let seed = 1; seed <= SEEDS && found === null; seed++) {
      const result = await runSchedule(seed, { planted: 'skip-one-fdatasync' });
      if (result.problems.length > 0) found = result;
    }
    expect(found, 'the planted bug went unnoticed').not.toBeNull();
    expect(found!.problems.join('\n')).toMatch(/acknowledged .* is missing|below the acknowledged/);
    const replayed = await runSchedule(found!.seed, { planted: 'skip-one-fdatasync' });
    expect(replayed.problems).toEqual(found!.problems);
    expect((await runSchedule(found!.seed)).problems).toEqual([]);
  }, 120_000);
});
