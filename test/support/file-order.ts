/**
 * The order the suite's files run in (the sequencer in vitest.config.ts): vitest's own (each
 * project's files together; without a results cache, as in a clean clone, the largest first;
 * with one, the slowest first), except that the fault simulator's shards run after every other
 * file of their project. A shard leaves ~180 MB resident in the fork it ran in, and Node starts a
 * child with fork(), whose system time grows with the parent's resident memory (about 2.5 ms per
 * child per 100 MB, bench/RESULTS.md "Where the whole run's time goes"): run first, as a cached
 * order put them, the shards made every child the tier's forks started after them dearer (the
 * process tier's system time 128.7 s, against 81.4 s in the clean clone's order, which ran them last).
 */

/** The simulator's shards: no process of their own, much memory left behind. */
export const LEAVES_MEMORY_BEHIND = /[\\/]test[\\/]sim[\\/]fault-simulator-\d+\.test\.ts$/;

interface OrderedFile {
  readonly project: { readonly name: string };
  readonly moduleId: string;
}

/**
 * `files` in their order, except that within each run of one project's files those matching `last`
 * come after the others, each part in its order.
 */
export function lastInTheirProject<T extends OrderedFile>(files: readonly T[], last: RegExp): T[] {
  const ordered: T[] = [];
  for (let start = 0; start < files.length; ) {
    let end = start;
    while (end < files.length && files[end]!.project.name === files[start]!.project.name) end++;
    const run = files.slice(start, end);
    ordered.push(...run.filter((file) => !last.test(file.moduleId)), ...run.filter((file) => last.test(file.moduleId)));
    start = end;
  }
  return ordered;
}
