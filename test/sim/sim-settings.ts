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
 * Whether an fsync of a directory can fail with EIO (as one of a file can). After a rewrite
 * (compaction) whose directory fsync failed, a writable open that did not fsync the directory
 * itself acknowledged commits in a file whose name was not durable, and a crash lost them
 * (issue 27, item 6: seeds 3946, 4243 and 4659 of 1..5000 before the fix, numbers from before the
 * seeds were mixed, which name other schedules now). On since a writable open fsyncs the
 * session's directory before its first commit; false holds the fault back (a flag for a
 * regression that must not block CI while it is fixed). To find the seeds that catch it now,
 * take that fsync (makeNameDurable in JsonlStorage.open) out and run
 * `npm run sim -- --seeds 3200 --from 1 --keep-going`: it lists every failing seed (13 of them
 * when the seeds were first mixed: 154, 186, 1170, 1378, 1408, 1631, 1919, 1929, 2071, 2620,
 * 2675, 2768 and 2906).
 */
export const DIRECTORY_FSYNC_FAILURES = true;
