/**
 * The CI seeds' schedules spread as their draws intend: a schedule's first draw, its faulted
 * lifetimes (2..5), comes out about evenly over 1..CI_SEEDS. Seeded directly, xorshift's first
 * number from a small seed is small, and seeds 1..4095 all drew two.
 */
import { describe, expect, it } from 'vitest';
import { CI_SEEDS } from './sim-settings';
import { mixedSeed } from './sim-random';
import { scheduleWeight } from './simulate';

describe('the CI seeds’ schedules', () => {
  it('run 2, 3, 4 and 5 faulted lifetimes about as often as each other', () => {
    const counts = new Map<number, number>();
    for (let seed = 1; seed <= CI_SEEDS; seed++) {
      const faulted = scheduleWeight(seed) - 1;
      counts.set(faulted, (counts.get(faulted) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([2, 3, 4, 5]);
    for (const count of counts.values()) expect(count).toBeGreaterThan(CI_SEEDS / 5);
  });

  it('start neighbouring seeds, streams and lifetimes far apart', () => {
    const seeds = new Set<number>();
    for (let seed = 1; seed <= 200; seed++)
      for (let stream = 1; stream <= 6; stream++)
        for (let life = 0; life < 6; life++) seeds.add(mixedSeed(seed, stream, life));
    expect(seeds.size).toBe(200 * 6 * 6);
    // A small seed's mixed seed is as often above 2^31 as below it.
    const high = Array.from({ length: 1000 }, (_, i) => mixedSeed(i + 1, 1)).filter((s) => s >= 2 ** 31).length;
    expect(high).toBeGreaterThan(400);
    expect(high).toBeLessThan(600);
  });
});
