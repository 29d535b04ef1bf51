import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const coreDir = join(root, 'src', 'core');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|js)$/.test(name) ? [path] : [];
  });
}

const FORBIDDEN_MODULES = [
  /^ink(\/|$)/,
  /^ink-/,
  /^react(\/|$|-)/,
  /^chalk(\/|$)/,
  /(^|\/)tui(\/|$)/,
  /(^|\/)cli(\/|$)/,
];
const FORBIDDEN_CODE: [RegExp, string][] = [
  [/\bprocess\.stdout\b/, 'process.stdout'],
  [/\bprocess\.stdin\b/, 'process.stdin'],
  [/\bprocess\.stderr\b/, 'process.stderr'],
  [/\bprocess\.exit\b/, 'process.exit'],
  [/\bconsole\s*\./, 'console'],
];

/** Module specifiers of static imports, re-exports, dynamic imports and require calls. */
function importsOf(source: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) specs.push(m[1]!);
  return specs;
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('src/core stays pure', () => {
  const files = sourceFiles(coreDir);

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('imports nothing that touches the terminal, nor anything from tui or cli', () => {
    const offences: string[] = [];
    for (const file of files) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (FORBIDDEN_MODULES.some((re) => re.test(spec))) offences.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('never uses process.stdout, stdin, exit or console', () => {
    const offences: string[] = [];
    for (const file of files) {
      const code = withoutComments(readFileSync(file, 'utf8'));
      for (const [pattern, name] of FORBIDDEN_CODE)
        if (pattern.test(code)) offences.push(`${relative(root, file)} uses ${name}`);
    }
    expect(offences).toEqual([]);
  });

  it('the checker itself catches a forbidden import and a console call', () => {
    const sample =
      "import { render } from 'ink';\nimport x from '../../tui/app';\nconst c = await import('chalk');\nconsole.log(1);";
    const specs = importsOf(sample);
    expect(specs).toEqual(expect.arrayContaining(['ink', '../../tui/app', 'chalk']));
    expect(specs.filter((s) => FORBIDDEN_MODULES.some((re) => re.test(s)))).toHaveLength(3);
    expect(FORBIDDEN_CODE.some(([re]) => re.test(withoutComments(sample)))).toBe(true);
  });
});

type FolderGraph = Map<string, Map<string, string[]>>;

/** The folder of src/core a file belongs to (its first path segment); `(root)` for src/core's own files. */
function folderOf(file: string): string {
  const parts = relative(coreDir, file).split(sep);
  return parts.length > 1 ? parts[0]! : '(root)';
}

/** Folder -> folder it imports -> the imports that make the edge ("session/agent.ts imports ../usage/totals"). */
function folderGraph(files: readonly string[]): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of files) {
    const from = folderOf(file);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(coreDir + sep)) continue;
      const to = folderOf(target);
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${relative(coreDir, file)} imports ${spec}`]);
    }
  }
  return graph;
}

/**
 * Every cycle a depth-first walk closes, each as its folders and the imports along it. Written
 * here rather than taken from a graph library: it is twenty lines over a graph of a dozen nodes.
 */
function folderCycles(graph: FolderGraph): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (folder: string): void => {
    stack.push(folder);
    for (const next of [...(graph.get(folder)?.keys() ?? [])].sort()) {
      const at = stack.indexOf(next);
      if (at >= 0) {
        const loop = [...stack.slice(at), next];
        const why = loop.slice(0, -1).map((f, i) =>
          graph
            .get(f)!
            .get(loop[i + 1]!)!
            .join(', '),
        );
        cycles.push(`${loop.join(' -> ')} (${why.join('; ')})`);
      } else if (!done.has(next)) visit(next);
    }
    stack.pop();
    done.add(folder);
  };
  for (const folder of [...graph.keys()].sort()) if (!done.has(folder)) visit(folder);
  return cycles;
}

describe('src/core folders import one way', () => {
  const graph = folderGraph(sourceFiles(coreDir));

  it('sees the folders and their imports', () => {
    expect(graph.get('session')?.has('storage')).toBe(true);
    expect(graph.get('tools')?.has('approval')).toBe(true);
  });

  it('has no cycle among its folders: a lower layer never imports a higher one', () => {
    expect(folderCycles(graph)).toEqual([]);
  });

  it('the checker names a cycle and the imports that close it', () => {
    const sample: FolderGraph = new Map([
      ['approval', new Map([['tools', ['approval/command-risk.ts imports ../tools/tool']]])],
      ['tools', new Map([['approval', ['tools/builtin/bash.ts imports ../../approval/command-risk']]])],
      ['session', new Map([['tools', ['session/agent.ts imports ../tools/tool']]])],
    ]);
    expect(folderCycles(sample)).toEqual([
      'approval -> tools -> approval (approval/command-risk.ts imports ../tools/tool; tools/builtin/bash.ts imports ../../approval/command-risk)',
    ]);
  });
});
