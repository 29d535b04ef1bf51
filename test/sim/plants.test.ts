/**
 * The simulator's mutation list (plants.ts): with each bug planted, some seed of a small range
 * fails, and that seed replays the same failure, and passes without the plant.
 */
import { describe, expect, it } from 'vitest';
import { PLANTS, type PlantName } from './plants';
import { firstFailing } from './run-schedules';
import { runSchedule, type SimResult } from './simulate';

/** Every plant so far is caught within the first 200 seeds (sync-cursor-alone at 166); the range leaves room. */
const PLANT_SEEDS = 400;

/**
 * The first seed that caught each plant when last measured: a plant costs three schedules instead
 * of a search from seed 1 (sync-cursor-alone's took 166). When a change to the schedules moves it,
 * the test searches seeds 1..PLANT_SEEDS and fails with the seed to write here, so that the file's
 * speed does not erode unseen.
 */
const CAUGHT_BY: Record<PlantName, number> = {
  'skip-fdatasync': 1,
  'skip-one-fdatasync': 6,
  'fsync-eio-ignored': 1,
  'dir-fsync-skipped': 1,
  'compaction-dir-fsync-skipped': 1,
  'create-dir-fsync-skipped': 1,
  'open-name-not-made-durable': 5,
  'crc-not-checked': 48,
  'lock-holder-taken-for-dead': 2,
  'lock-inode-not-checked': 31,
  'session-file-change-unchecked': 11,
  'sync-cursor-alone': 166,
  'effect-before-intent': 1,
  'edit-guard-whole-file': 109,
  'write-guard-two-states': 14,
  'ref-swap-without-cas': 1,
  'new-child-on-resume': 13,
  'restore-writes-nothing': 4,
};

/** What the recorded seed of `name` says now: it catches the plant, or which seed does, or none of 1..PLANT_SEEDS. */
async function catching(name: PlantName): Promise<SimResult> {
  const known = await runSchedule(CAUGHT_BY[name], { planted: name });
  if (known.problems.length > 0) return known;
  const found = await firstFailing(1, PLANT_SEEDS, { planted: name });
  if (found === null) throw new Error(`${name} went unnoticed over seeds 1..${PLANT_SEEDS}`);
  throw new Error(
    `${name}: seed ${CAUGHT_BY[name]} no longer catches it, seed ${found.seed} does: write ${found.seed} in CAUGHT_BY (${found.problems[0]})`,
  );
}

describe('the fault simulator catches every planted bug', () => {
  for (const name of Object.keys(PLANTS) as PlantName[]) {
    it(`${name}: ${PLANTS[name].bug}`, async () => {
      expect(CAUGHT_BY[name]).toBeLessThanOrEqual(PLANT_SEEDS);
      const caught = await catching(name);
      console.log(`plant ${name}: caught by seed ${caught.seed}: ${caught.problems[0]}`);
      const replayed = await runSchedule(caught.seed, { planted: name });
      expect(replayed.problems).toEqual(caught.problems);
      expect((await runSchedule(caught.seed)).problems).toEqual([]);
    }, 120_000);
  }

  it('names the known plants when asked for an unknown one', async () => {
    await expect(runSchedule(1, { planted: 'no-such-bug' as PlantName })).rejects.toThrow(
      /no plant named "no-such-bug"; known plants: skip-fdatasync, /,
    );
  });
});
