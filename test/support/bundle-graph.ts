/**
 * What the built tole loads, read from dist/: the build splits tole into dist/tole.js and chunks
 * under dist/chunks/, which import each other statically (`import ... from "./chunk-X.js"`) or
 * on first use (`import("./chunks/X.js")`). esbuild marks each bundled source file with a
 * `// node_modules/...` or `// src/...` comment line, which names what a chunk holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './repo-root';

export const DIST = join(REPO_ROOT, 'dist');

/** Every .js file the build wrote. */
export function builtFiles(): string[] {
  return [
    join(DIST, 'tole.js'),
    join(DIST, 'screen.cjs'),
    join(DIST, 'later.cjs'),
    join(DIST, 'headless.cjs'),
    ...readdirSync(join(DIST, 'chunks')).map((name) => join(DIST, 'chunks', name)),
  ];
}

/** The chunk a dynamic `import('./name')` of a source file became (its file name starts with the source's). */
export function chunkFor(sourceName: string): string {
  const found = readdirSync(join(DIST, 'chunks')).filter((name) => name.startsWith(`${sourceName}-`));
  if (found.length !== 1) throw new Error(`expected one chunk for ${sourceName}, found ${found.join(', ') || 'none'}`);
  return join(DIST, 'chunks', found[0]!);
}

/** The files loaded before any code of `entries` runs: the entries and what they import statically, transitively. */
export function staticClosure(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^import\s+(?:[^;'"]*?\s+from\s+)?"(\.{1,2}\/[^"]+)";/gm))
      todo.push(join(dirname(file), match[1]!));
  }
  return [...seen];
}

/** The packages (`node_modules/<name>`) bundled into `files`. */
export function packagesIn(files: readonly string[]): Set<string> {
  const packages = new Set<string>();
  for (const file of files)
    for (const match of readFileSync(file, 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/\n]+\/)?[^/\n]+)\//gm))
      packages.add(match[1]!);
  return packages;
}

/**
 * The source files (`node_modules/...`, `src/...`) a CommonJS script of the build (dist/screen.cjs)
 * evaluates when it is loaded. esbuild writes each module either inline, evaluated in order at
 * load, or in a wrapper (`var init_x = __esm({ "path"() {...} })`, `var require_x =
 * __commonJS(...)`) evaluated when `init_x()` / `require_x()` is first called: at load, those
 * called outside any wrapper, and what their own bodies call, transitively. An `import()` (`() =>
 * (init_x(), x_exports)`) waits for its first use. A call inside a function that runs later is
 * counted too: the answer may hold more than is evaluated, never less.
 */
export function evaluatedAtLoad(file: string): Set<string> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const wrappers = new Map<string, { path: string; body: string }>();
  const outside: string[] = [];
  const commented: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^var ((?:init|require)_\w+) = __(?:esm|commonJS)\(\{$/.exec(lines[i]!);
    const path = open ? /^ {2}"([^"]+)"\(/.exec(lines[i + 1] ?? '') : null;
    if (!open || !path) {
      outside.push(lines[i]!);
      const comment = /^\/\/ ((?:node_modules|src)\/\S+)$/.exec(lines[i]!);
      if (comment) commented.push(comment[1]!);
      continue;
    }
    const start = i;
    while (i < lines.length && lines[i] !== '});') i++;
    wrappers.set(open[1]!, { path: path[1]!, body: lines.slice(start + 2, i).join('\n') });
  }
  const wrapped = new Set([...wrappers.values()].map((w) => w.path));
  const evaluated = new Set(commented.filter((path) => !wrapped.has(path)));
  const calls = (text: string): string[] =>
    [
      ...text
        .replace(/\(\) => \(init_\w+\(\), (?:__toCommonJS\(\w+\)|\w+)\)/g, '')
        .matchAll(/\b((?:init|require)_\w+)\(\)/g),
    ].map((m) => m[1]!);
  const todo = calls(outside.join('\n'));
  const seen = new Set<string>();
  while (todo.length > 0) {
    const name = todo.pop()!;
    const wrapper = wrappers.get(name);
    if (seen.has(name) || !wrapper) continue;
    seen.add(name);
    evaluated.add(wrapper.path);
    todo.push(...calls(wrapper.body));
  }
  return evaluated;
}

/** The packages among source paths (`node_modules/<name>/...`). */
export function packagesOf(paths: Iterable<string>): Set<string> {
  const packages = new Set<string>();
  for (const path of paths) {
    const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (match) packages.add(match[1]!);
  }
  return packages;
}
