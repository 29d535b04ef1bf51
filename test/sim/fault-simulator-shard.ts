/**
 * The seeded fault simulator in the suite: seeds 1..CI_SEEDS (sim-settings.ts; `npm run sim --
 * --seeds N` runs more), cut into SIM_SHARDS ranges, one test file each
 * (fault-simulator-N.test.ts), so that the process tier's workers run them beside each other
 * and beside the other files instead of one worker running all of them last. Its mutation list is
 * checked in plants.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FAULT_POINTS } from '../../src/core/session/agent-deps';
import { CI_SEEDS, SIM_SHARDS } from './sim-settings';
import { runSchedules } from './run-schedules';
import { scheduleWeight } from './simulate';

/**
 * Seeds first..last of shard `shard` (1..SIM_SHARDS); the shards cover 1..CI_SEEDS once, cut
 * where the seeds' summed weight (what their schedules cost: scheduleWeight) reaches each
 * shard's share, so that the shards take about as long as each other.
 */
export function shardSeeds(
  shard: number,
  shards = SIM_SHARDS,
  seeds = CI_SEEDS,
  weight: (seed: number) => number = scheduleWeight,
): { first: number; last: number } {
  const weights = Array.from({ length: seeds }, (_, i) => weight(i + 1));
  const total = weights.reduce((sum, w) => sum + w, 0);
  /** The first seed of shard k (shards + 1: one past the last seed). */
  const firstOf = (k: number): number => {
    let sum = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      if (sum * shards >= total * (k - 1)) return seed;
      sum += weights[seed - 1]!;
    }
    return seeds + 1;
  };
  return { first: firstOf(shard), last: firstOf(shard + 1) - 1 };
}

export function simulatorShard(shard: number): void {
  const { first, last } = shardSeeds(shard);
  const count = last - first + 1;
  describe(`the fault simulator, shard ${shard} of ${SIM_SHARDS}`, () => {
    it(`holds every invariant over seeds ${first}..${last}`, async () => {
      const failed: string[] = [];
      const totals = {
        crashes: 0,
        commits: 0,
        corruptions: 0,
        refusedOpeners: 0,
        locksTaken: 0,
        changesRefused: 0,
        restores: 0,
        indexedOpens: 0,
        indexesRefused: 0,
        syncs: 0,
        syncsCut: 0,
        childFiles: 0,
        childAnswers: 0,
      };
      const faultPoints = new Set<string>();
      const started = performance.now();
      for (const result of await runSchedules(first, last)) {
        const { seed } = result;
        totals.crashes += result.crashes;
        totals.commits += result.commits;
        totals.corruptions += result.corruptions;
        totals.refusedOpeners += result.refusedOpeners;
        totals.locksTaken += result.locksTaken;
        totals.changesRefused += result.changesRefused;
        totals.indexedOpens += result.indexedOpens;
        totals.indexesRefused += result.indexesRefused;
        totals.syncs += result.syncs;
        totals.syncsCut += result.syncsCut;
        totals.restores += result.restores;
        totals.childFiles += result.childFiles;
        totals.childAnswers += result.childAnswers;
        for (const point of Object.keys(result.faultPoints)) faultPoints.add(point);
        if (result.problems.length > 0)
          failed.push(`seed ${seed} (replay: npm run sim -- --seed ${seed}):\n${result.problems.join('\n')}`);
      }
      const seconds = (performance.now() - started) / 1000;
      console.log(`${count} schedules in ${seconds.toFixed(1)} s: ${(count / seconds).toFixed(0)} schedules/s`);
      expect(failed).toEqual([]);
      // The schedules did crash, commit, rot bytes, restore, meet second openers and lose their locks, save and refuse indexes, and lose their sync's connection: a simulator that never faults proves nothing.
      expect(totals.crashes).toBeGreaterThan(count / 4);
      expect(totals.commits).toBeGreaterThan(count * 10);
      expect(totals.corruptions).toBeGreaterThan(count / 20);
      expect(totals.refusedOpeners).toBeGreaterThan(count / 20);
      expect(totals.restores).toBeGreaterThan(count / 20);
      expect(totals.locksTaken).toBeGreaterThan(count / 100);
      // Another program changed the session file behind its writer, which refused to commit, saying so.
      expect(totals.changesRefused).toBeGreaterThan(count / 50);
      expect(totals.indexedOpens).toBeGreaterThan(count / 50);
      expect(totals.indexesRefused).toBeGreaterThan(count / 50);
      expect(totals.syncsCut).toBeGreaterThan(count / 50);
      // Sub-agents ran (in a quarter of the schedules) and their parents' calls settled with their answers.
      expect(totals.childFiles).toBeGreaterThan(count / 5);
      expect(totals.childAnswers).toBeGreaterThan(count / 5);
      // Every fault point fired in each shard (the checkpoint and restore ones too).
      expect([...faultPoints].sort()).toEqual([...FAULT_POINTS].sort());
    }, 300_000);
  });
}
