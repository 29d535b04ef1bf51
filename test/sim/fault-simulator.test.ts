/**
 * The seeded fault simulator in the suite: seeds 1..CI_SEEDS (sim-settings.ts; `npm run sim --
 * --seeds N` runs more). Its mutation list is checked in plants.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FAULT_POINTS } from '../../src/core/session/agent-deps';
import { CI_SEEDS } from './sim-settings';
import { runSchedule } from './simulate';

describe('the fault simulator', () => {
  it(`holds every invariant over seeds 1..${CI_SEEDS}`, async () => {
    const failed: string[] = [];
    const totals = {
      crashes: 0,
      commits: 0,
      corruptions: 0,
      refusedOpeners: 0,
      locksTaken: 0,
      restores: 0,
      indexedOpens: 0,
      indexesRefused: 0,
    };
    const faultPoints = new Set<string>();
    const started = performance.now();
    for (let seed = 1; seed <= CI_SEEDS; seed++) {
      const result = await runSchedule(seed);
      totals.crashes += result.crashes;
      totals.commits += result.commits;
      totals.corruptions += result.corruptions;
      totals.refusedOpeners += result.refusedOpeners;
      totals.locksTaken += result.locksTaken;
      totals.indexedOpens += result.indexedOpens;
      totals.indexesRefused += result.indexesRefused;
      totals.restores += result.restores;
      for (const point of Object.keys(result.faultPoints)) faultPoints.add(point);
      if (result.problems.length > 0)
        failed.push(`seed ${seed} (replay: npm run sim -- --seed ${seed}):\n${result.problems.join('\n')}`);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`${CI_SEEDS} schedules in ${seconds.toFixed(1)} s: ${(CI_SEEDS / seconds).toFixed(0)} schedules/s`);
    expect(failed).toEqual([]);
    // The schedules did crash, commit, rot bytes, restore, meet second openers and lose their locks: a simulator that never faults proves nothing.
    expect(totals.crashes).toBeGreaterThan(CI_SEEDS / 4);
    expect(totals.commits).toBeGreaterThan(CI_SEEDS * 10);
    expect(totals.corruptions).toBeGreaterThan(CI_SEEDS / 20);
    expect(totals.refusedOpeners).toBeGreaterThan(CI_SEEDS / 20);
    expect(totals.restores).toBeGreaterThan(CI_SEEDS / 20);
    expect(totals.locksTaken).toBeGreaterThan(CI_SEEDS / 100);
    expect(totals.indexedOpens).toBeGreaterThan(CI_SEEDS / 20);
    expect(totals.indexesRefused).toBeGreaterThan(CI_SEEDS / 20);
    // Every fault point fired (the checkpoint and restore ones too).
    expect([...faultPoints].sort()).toEqual([...FAULT_POINTS].sort());
  }, 300_000);
});
