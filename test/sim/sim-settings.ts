/**
 * The simulator's settings that CI and `npm run sim` share: how many seeds the suite runs, and the
 * faults held back until the fix they find is on main.
 */

/**
 * Seeds the suite runs (test/sim/fault-simulator-shard.ts), 1..CI_SEEDS. Each schedule's
 * generators start from its seed mixed (sim-random.ts), so these seeds run 2..5 faulted
 * lifetimes about evenly (schedules-spread.test.ts); seeded directly, 1..5000 ran only 2 or 3.
 * A schedule now costs about 1.4 times what one of those did (its lifetimes: 4.5 on average,
 * against 3.2), so the suite runs fewer of them in no more time: 3200 seeds, 11,164 faulted
 * lifetimes, against 10,905 in 5000 seeds seeded directly.
 */
export const CI_SEEDS = 3200;

/** The ranges CI_SEEDS is cut into, one test file each (fault-simulator-1..SIM_SHARDS.test.ts). */
export const SIM_SHARDS = 4;

/**
 * Whether an fsync of a directory can fail with EIO (as one of a file can; in a lifetime whose
 * fsyncs fail, a directory's fails at 0.3: DIR_SYNC_FAILURE in simulate.ts). After a rewrite
 * (compaction) whose directory fsync failed, a writable open that did not fsync the directory
 * itself acknowledged commits in a file whose name was not durable, and a crash lost them (issue
 * 27, item 6). On since a writable open fsyncs the session's directory before its first commit;
 * false holds the fault back (a flag for a regression that must not block CI while it is fixed).
 * The plant open-name-not-made-durable (plants.ts) takes that fsync out: 17 of seeds 1..300 catch
 * it (seed 5 first); with makeNameDurable taken out of JsonlStorage.open itself, 20 do
 * (`npm run sim -- --seeds 300 --from 1 --keep-going` lists them).
 */
export const DIRECTORY_FSYNC_FAILURES = true;
