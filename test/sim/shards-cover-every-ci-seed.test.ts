/** The simulator's shards (fault-simulator-shard.ts) run every CI seed once, one test file per shard. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shardSeeds } from './fault-simulator-shard';
import { CI_SEEDS, SIM_SHARDS } from './sim-settings';
import { scheduleWeight } from './simulate';

describe('the simulator’s shards', () => {
  it('cover seeds 1..CI_SEEDS once, in order, whatever the count', () => {
    for (const [shards, seeds] of [
      [SIM_SHARDS, CI_SEEDS],
      [3, 10],
      [4, 5],
      [1, 7],
    ] as const) {
      const covered: number[] = [];
      for (let shard = 1; shard <= shards; shard++) {
        const { first, last } = shardSeeds(shard, shards, seeds);
        for (let seed = first; seed <= last; seed++) covered.push(seed);
      }
      expect(covered).toEqual(Array.from({ length: seeds }, (_, i) => i + 1));
    }
  });

  it('cost about the same: their seeds’ weights differ by less than two seeds’ at most', () => {
    const weights: number[] = [];
    for (let shard = 1; shard <= SIM_SHARDS; shard++) {
      const { first, last } = shardSeeds(shard);
      let sum = 0;
      for (let seed = first; seed <= last; seed++) sum += scheduleWeight(seed);
      weights.push(sum);
    }
    const heaviest = Math.max(...Array.from({ length: CI_SEEDS }, (_, i) => scheduleWeight(i + 1)));
    expect(Math.max(...weights) - Math.min(...weights)).toBeLessThan(2 * heaviest);
  });

  it('each have their test file', () => {
    for (let shard = 1; shard <= SIM_SHARDS; shard++) {
      const file = readFileSync(join(import.meta.dirname, `fault-simulator-${shard}.test.ts`), 'utf8');
      expect(file).toContain(`simulatorShard(${shard});`);
    }
  });
});
