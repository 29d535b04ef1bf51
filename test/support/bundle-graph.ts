/**
 * What the built tole loads, read from dist/: the build splits tole into dist/tole.js and chunks
 * under dist/chunks/, which import each other statically (`import ... from "./chunk-X.js"`) or
 * on first use (`import("./chunks/X.js")`). esbuild marks each bundled source file with a
 * `// node_modules/...` or `// src/...` comment line, which names what a chunk holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './spawn-node';

export const DIST = join(REPO_ROOT, 'dist');

/** Every .js file the build wrote. */
export function builtFiles(): string[] {
  return [join(DIST, 'tole.js'), ...readdirSync(join(DIST, 'chunks')).map((name) => join(DIST, 'chunks', name))];
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
