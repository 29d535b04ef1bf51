import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const srcDir = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

type Graph = Map<string, string[]>;

/** Each src file -> the src files it imports (static, type-only, re-exports and import() alike). */
function importGraph(files: readonly string[]): Graph {
  const known = new Set(files);
  const resolveSpec = (from: string, spec: string): string | null => {
    const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
    const candidates = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
    return candidates.find((c) => known.has(c)) ?? null;
  };
  const graph: Graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolveSpec(file, spec))
      .filter((target): target is string => target !== null);
    graph.set(relative(srcDir, file), [...new Set(targets.map((t) => relative(srcDir, t)))]);
  }
  return graph;
}

/**
 * The groups of files that import each other round a cycle (strongly connected components of
 * more than one file, or a file importing itself), each sorted and joined by spaces. Tarjan's
 * walk, written here: thirty lines over a graph no library in node_modules takes as it is.
 */
function cycles(graph: Graph): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(group.sort().join(' '));
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found.sort();
}

describe('src files import one another without cycles', () => {
  const graph = importGraph(sourceFiles(srcDir));

  it('sees the files and their imports', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('tui/panes/Panes.tsx')).toContain('tui/usage/LiveUsagePane.tsx');
  });

  it('has no cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('the checker finds a cycle through a type-only import and a dynamic import, and a file importing itself', () => {
    const sample: Graph = new Map([
      ['cli/main.ts', ['cli/run.ts']],
      ['cli/run.ts', ['cli/main.ts', 'cli/util.ts']],
      ['cli/util.ts', []],
      ['tui/self.ts', ['tui/self.ts']],
    ]);
    expect(cycles(sample)).toEqual(['cli/main.ts cli/run.ts', 'tui/self.ts']);
    const parsed = ts.preProcessFile("import type { A } from './a';\nconst b = await import('./b');", true, true);
    expect(parsed.importedFiles.map((i) => i.fileName)).toEqual(['./a', './b']);
  });
});
