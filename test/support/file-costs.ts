/**
 * What each test file costs a worker, measured: the table in file-costs.json (seconds of wall time
 * from the file's first hook to its last, path relative to the repository), which the sequencer in
 * vitest.config.ts reads to start each project's longest files first. Vitest's own order needs its
 * results cache, which a clean clone (CI) does not have: it then runs the largest files first, and
 * the two attack corpora, small files of 22-32 s each, ran near the end of the process tier.
 * `npm run test:costs -- LOG...` writes the table again from TOLE_FILE_CPU_LOG logs
 * (test/support/file-cpu-log.ts); a file the table lacks is estimated from its size.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Seconds per file, by path relative to the repository's root. */
export type FileCosts = Readonly<Record<string, number>>;

export const FILE_COSTS_TABLE = 'test/support/file-costs.json';

/** The table committed in `root`; empty if there is none. */
export function readFileCosts(root: string): FileCosts {
  const path = join(root, FILE_COSTS_TABLE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as FileCosts) : {};
}

/** One line of a TOLE_FILE_CPU_LOG log, the fields read here. */
interface LoggedFile {
  readonly file: string;
  readonly wall0: number;
  readonly wall1: number;
}

/**
 * `absolute` relative to the repository it was run in: the part from a `test/` after which the rest
 * names a file that `exists` (the log was written in another clone, whose path may hold `test/` too).
 */
function repoRelative(absolute: string, exists: (relative: string) => boolean): string | null {
  for (let at = absolute.indexOf('/test/'); at !== -1; at = absolute.indexOf('/test/', at + 1)) {
    const relative = absolute.slice(at + 1);
    if (exists(relative)) return relative;
  }
  return null;
}

const round = (seconds: number): number => Math.round(seconds * 10) / 10;

/**
 * The table from the text of one or more logs: each file's mean wall time over the logs that hold
 * it; a file no log holds keeps its figure in `earlier` if it still `exists`; a file that no longer
 * exists is left out. Keys sorted, so that a refresh's diff shows only what changed.
 */
export function costsFromLogs(
  logs: readonly string[],
  earlier: FileCosts,
  exists: (relative: string) => boolean,
): Record<string, number> {
  const spans = new Map<string, number[]>();
  for (const log of logs) {
    for (const line of log.split('\n')) {
      if (line.trim() === '') continue;
      const logged = JSON.parse(line) as LoggedFile;
      const relative = repoRelative(logged.file, exists);
      if (relative === null || !(logged.wall1 >= logged.wall0)) continue;
      spans.set(relative, [...(spans.get(relative) ?? []), (logged.wall1 - logged.wall0) / 1000]);
    }
  }
  const costs: Record<string, number> = {};
  for (const [path, seconds] of Object.entries(earlier)) if (exists(path)) costs[path] = seconds;
  for (const [path, seconds] of spans) costs[path] = round(seconds.reduce((a, b) => a + b, 0) / seconds.length);
  return Object.fromEntries(Object.entries(costs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Each file's cost: its figure in `costs`, or else its size times the seconds per byte of the
 * measured files of its own group (its vitest project; all measured files if its group has none).
 * Sizes are poor predictors (the attack corpora are among the smallest files and the longest), but
 * a file is only unmeasured until the next refresh.
 */
export function costEstimator(
  costs: FileCosts,
  groups: Readonly<Record<string, readonly string[]>>,
  sizeOf: (relative: string) => number,
): (relative: string) => number {
  const perByte = (files: readonly string[]): number | null => {
    let seconds = 0;
    let bytes = 0;
    for (const file of files) {
      const cost = costs[file];
      if (cost === undefined) continue;
      seconds += cost;
      bytes += sizeOf(file);
    }
    return bytes > 0 ? seconds / bytes : null;
  };
  const overall = perByte(Object.values(groups).flat()) ?? 1;
  const groupOf = new Map<string, number>();
  for (const files of Object.values(groups)) {
    const rate = perByte(files) ?? overall;
    for (const file of files) groupOf.set(file, rate);
  }
  return (relative) => costs[relative] ?? sizeOf(relative) * (groupOf.get(relative) ?? overall);
}

/** The size of `relative` under `root` in bytes (0 if it is gone). */
export function sizeUnder(root: string): (relative: string) => number {
  return (relative) => {
    const path = join(root, relative);
    return existsSync(path) ? statSync(path).size : 0;
  };
}
