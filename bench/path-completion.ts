/**
 * `@` path completion: one keystroke's search over a 100,000-path workspace (files in nested
 * folders, as a monorepo has them), after the first index. Measured: building the index (every
 * path and directory prepared once, off the key path) and the query of a keystroke, for a few
 * queries a person types (a file's name, a path's initials, one letter). The baseline is the
 * least a keystroke could do: one `includes` over every lower-case path. Figures are CPU time
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

export async function runPathCompletionBench(): Promise<Row[]> {
  const paths = workspacePaths();
  const lower = paths.map((path) => path.toLowerCase());
  let index = PathIndex.of(paths);
  const build = median(Array.from({ length: 3 }, () => cpuMs(() => (index = PathIndex.of(paths)))));
  const rows: Row[] = [];
  const k = `${PATHS / 1000}k paths`;
  for (const query of ['file-4242', 'srcpars', 'r']) {
    const baseline = median(Array.from({ length: ROUNDS }, () => cpuMs(() => lower.filter((p) => p.includes(query)))));
    const tole = median(Array.from({ length: ROUNDS }, () => cpuMs(() => index.search(query, MAX_COMPLETIONS))));
    rows.push(
      row(
        `@ completion keystroke "${query}", ${k} (baseline: one includes over every path)`,
        tole,
        baseline,
        '< 16 ms',
      ),
    );
  }
  rows.push(
    row(
      `@ completion index built, ${k} and their folders (baseline: lower-case every path)`,
      build,
      median(Array.from({ length: 3 }, () => cpuMs(() => paths.map((p) => p.toLowerCase())))),
    ),
  );
  return rows;
}

function row(name: string, tole: number, baseline: number, target?: string): Row {
  return { name, tole, baseline, unit: 'ms', ratio: baseline > 0 ? tole / baseline : 1, ...(target ? { target } : {}) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${formatRows(await runPathCompletionBench())}\n`);
}
