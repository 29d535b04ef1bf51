/**
 * The order the suite's files run in (the sequencer in vitest.config.ts): each project's files
 * together, in vitest's order of projects; within a project the longest first by the measured
 * table (file-costs.ts), the same order in a clean clone as in a worktree with vitest's results
 * cache; except that the fault simulator's shards run after every other file of their project. A
 * shard leaves ~180 MB resident in the fork it ran in, and Node starts a child with fork(), whose
 * system time grows with the parent's resident memory (about 2.5 ms per child per 100 MB,
 * bench/RESULTS.md "Where the whole run's time goes"): run first, as a cached order put them, the
 * shards made every child the tier's forks started after them dearer (the process tier's system
 * time 128.7 s, against 81.4 s in the clean clone's order, which ran them last).
 */

/** The simulator's shards: no process of their own, much memory left behind. */
export const LEAVES_MEMORY_BEHIND = /[\\/]test[\\/]sim[\\/]fault-simulator-\d+\.test\.ts$/;

interface OrderedFile {
  readonly project: { readonly name: string };
  readonly moduleId: string;
}

/** Within each run of one project's files, the costliest first; files of equal cost keep their order. */
export function longestFirstInTheirProject<T extends OrderedFile>(
  files: readonly T[],
  costOf: (file: T) => number,
): T[] {
  return runsOfOneProject(files).flatMap((run) =>
    run
      .map((file, at) => ({ file, at, cost: costOf(file) }))
      .sort((a, b) => b.cost - a.cost || a.at - b.at)
      .map(({ file }) => file),
  );
}

/** `files` cut where the project changes. */
function runsOfOneProject<T extends OrderedFile>(files: readonly T[]): T[][] {
  const runs: T[][] = [];
  for (const file of files) {
    const run = runs.at(-1);
    if (run !== undefined && run[0]!.project.name === file.project.name) run.push(file);
    else runs.push([file]);
  }
  return runs;
}

/**
 * `files` in their order, except that within each run of one project's files those matching `last`
 * come after the others, each part in its order.
 */
export function lastInTheirProject<T extends OrderedFile>(files: readonly T[], last: RegExp): T[] {
  return runsOfOneProject(files).flatMap((run) => [
    ...run.filter((file) => !last.test(file.moduleId)),
    ...run.filter((file) => last.test(file.moduleId)),
  ]);
}
