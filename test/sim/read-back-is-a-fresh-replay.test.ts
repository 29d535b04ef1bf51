/**
 * After each lifetime the simulator replays the session file once (checkAfter) and hands what it
 * read to the children's check and the team table's check, which used to replay the same bytes
 * again (simulate.ts's ReadBack). With crossCheckReadBack they replay it again too, and what they
 * took must be what their own replay reads: over seeds whose schedules start sub-agents, sync,
 * crash, compact and open from an index (which shares nothing). The children's checks keep their
 * last replay of each child file while the disk holds its bytes unchanged (sim-children.ts); each
 * kept replay is compared with a fresh one too.
 */
import { describe, expect, it } from 'vitest';
import { runSchedules } from './run-schedules';

/** Seeds 1..SEEDS hold every kind of schedule above (checked below): sub-agents in six, an index in two. */
const SEEDS = 24;

describe('what checkAfter read back', () => {
  it('is what a fresh replay of the same file reads, wherever a later check takes it', async () => {
    const results = await runSchedules(1, SEEDS, { crossCheckReadBack: true });
    expect(results.flatMap((result) => result.problems.map((problem) => `seed ${result.seed}: ${problem}`))).toEqual(
      [],
    );
    const sum = (pick: (result: (typeof results)[number]) => number): number =>
      results.reduce((n, result) => n + pick(result), 0);
    // Taken by both later checks, across crashes and compactions; and not where the file was opened from an index.
    expect(sum((result) => result.readBacksTaken)).toBeGreaterThan(SEEDS / 2);
    expect(sum((result) => result.childFiles)).toBeGreaterThan(0);
    // The children's checks kept replays of unchanged child files, each compared with a fresh one.
    expect(sum((result) => result.childReplaysKept)).toBeGreaterThan(0);
    expect(sum((result) => result.syncs)).toBeGreaterThan(SEEDS / 2);
    expect(sum((result) => result.crashes)).toBeGreaterThan(SEEDS / 2);
    expect(sum((result) => result.indexedOpens)).toBeGreaterThan(0);
  }, 120_000);
});
