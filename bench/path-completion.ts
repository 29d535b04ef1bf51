/**
 * `@` path completion: one keystroke's search over a 100,000-path workspace (files in nested
 * folders, as a monorepo has them), after the first index. Measured: building the index (every
 * path and directory with a lower-case copy, off the key path) and a keystroke's search, for
 * a few queries a person types (a file's name, a path's initials, one letter): the search runs a
 * slice of paths per turn of the event loop, so a keystroke waits for one slice and the answer
 * lands after all of them. The baseline is the least a keystroke could do: one `includes` over
 * every lower-case path. The first search after a fresh index is measured apart (nothing is warm
 * yet), and a rebuild in slices as the screen makes it. Figures are CPU time
 * (the machine is shared: wall time there is mostly waiting for a core).
 * Run alone with `node --import tsx bench/path-completion.ts`.
 */
import { pathToFileURL } from 'node:url';
import { MAX_COMPLETIONS } from '../src/tui/prompt/completion-items';
import { PathIndex } from '../src/tui/prompt/workspace-paths';
import { formatRows, type Row } from './storage';

const PATHS = 100_000;
const ROUNDS = 7;
const PARTS = ['src', 'core', 'tui', 'session', 'storage', 'tools', 'parser', 'render', 'test', 'lib'];

function workspacePaths(): string[] {
  const paths: string[] = [];
  for (let i = 0; i < PATHS; i++) {
    const depth = 2 + (i % 4);
    const folders = Array.from({ length: depth }, (_, d) => `${PARTS[(i * 7 + d * 3) % PARTS.length]}${d}`);
    paths.push(`${folders.join('/')}/file-${i}.${i % 3 === 0 ? 'ts' : i % 3 === 1 ? 'tsx' : 'md'}`);
  }
  return paths;
}

function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** CPU ms of each slice of a search in slices, and of the whole. */
function sliceCpuMs(index: PathIndex, query: string): { longest: number; whole: number } {
  const slices = index.searchInSlices(query, MAX_COMPLETIONS);
  let longest = 0;
  let whole = 0;
  for (let done = false; !done; ) {
    const took = cpuMs(() => {
      done = slices.next().done === true;
    });
    longest = Math.max(longest, took);
    whole += took;
  }
  return { longest, whole };
}

export async function runPathCompletionBench(): Promise<Row[]> {
  const paths = workspacePaths();
  const lower = paths.map((path) => path.toLowerCase());
  let index = PathIndex.of(paths);
  const build = median(Array.from({ length: 3 }, () => cpuMs(() => (index = PathIndex.of(paths)))));
  const rows: Row[] = [];
  const k = `${PATHS / 1000}k paths`;
  const first = sliceCpuMs(index, 'file-4242');
  const rebuildStart = process.cpuUsage();
  await PathIndex.build(paths, async () => {});
  const rebuildUsed = process.cpuUsage(rebuildStart);
  const rebuild = (rebuildUsed.user + rebuildUsed.system) / 1000;
  for (const query of ['file-4242', 'srcpars', 'r']) {
    const baseline = median(Array.from({ length: ROUNDS }, () => cpuMs(() => lower.filter((p) => p.includes(query)))));
    const runs = Array.from({ length: ROUNDS }, () => sliceCpuMs(index, query));
    const what = `@ completion "${query}", ${k}`;
    const longest = median(runs.map((run) => run.longest));
    rows.push(
      row(`${what}: a keystroke's slice (baseline: one includes over every path)`, longest, baseline, '< 16 ms'),
    );
    rows.push(row(`${what}: the whole answer, every slice`, median(runs.map((run) => run.whole)), baseline));
  }
  rows.push(
    row(
      `@ completion first "file-4242" after a fresh index, ${k}: a keystroke's slice`,
      first.longest,
      first.longest,
      '< 16 ms',
    ),
  );
  rows.push(
    row(`@ completion first "file-4242" after a fresh index, ${k}: the whole answer`, first.whole, first.whole),
  );
  rows.push(
    row(
      `@ completion index built, ${k} and their folders (baseline: lower-case every path)`,
      build,
      median(Array.from({ length: 3 }, () => cpuMs(() => paths.map((p) => p.toLowerCase())))),
    ),
  );
  rows.push(row(`@ completion index rebuilt in slices, ${k} (baseline: a fresh build at once)`, rebuild, build));
  return rows;
}

function row(name: string, tole: number, baseline: number, target?: string): Row {
  return { name, tole, baseline, unit: 'ms', ratio: baseline > 0 ? tole / baseline : 1, ...(target ? { target } : {}) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${formatRows(await runPathCompletionBench())}\n`);
}
