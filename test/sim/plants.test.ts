/**
 * The simulator's mutation list (plants.ts): with each bug planted, some seed of a small range
 * fails, and that seed replays the same failure, and passes without the plant.
 */
import { describe, expect, it } from 'vitest';
import { PLANTS, type PlantName } from './plants';
import { firstFailing } from './run-schedules';
import { runSchedule } from './simulate';

/** Every plant so far is caught within the first 200 seeds (sync-cursor-alone at 166); the range leaves room. */
const PLANT_SEEDS = 400;

describe('the fault simulator catches every planted bug', () => {
  for (const name of Object.keys(PLANTS) as PlantName[]) {
    it(`${name}: ${PLANTS[name].bug}`, async () => {
      const caught = await firstFailing(1, PLANT_SEEDS, { planted: name });
      expect(caught, `${name} went unnoticed over seeds 1..${PLANT_SEEDS}`).not.toBeNull();
      console.log(`plant ${name}: caught by seed ${caught!.seed}: ${caught!.problems[0]}`);
      const replayed = await runSchedule(caught!.seed, { planted: name });
      expect(replayed.problems).toEqual(caught!.problems);
      expect((await runSchedule(caught!.seed)).problems).toEqual([]);
    }, 120_000);
  }

  it('names the known plants when asked for an unknown one', async () => {
    await expect(runSchedule(1, { planted: 'no-such-bug' as PlantName })).rejects.toThrow(
      /no plant named "no-such-bug"; known plants: skip-fdatasync, /,
    );
  });
});
