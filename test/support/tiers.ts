/**
 * Which vitest project (tier) a test file runs in, worked out from what the file and the test
 * modules it imports (transitively, within test/) use, so that a new test lands in the right tier
 * without anyone listing it:
 * - `process`: it starts processes or threads (node:child_process, node:worker_threads,
 *   node-pty), or lives in test/e2e or test/sim. Forks, the files of a fork sharing its modules
 *   (a fresh process per file cost an import of the same modules again each time).
 * - `process-screen`: a `process` file that also renders through Ink (as `screen` below): forks
 *   as `process`, with the build's patches of the renderer loaded as in `screen`, so that what it
 *   mounts is what ships (test/tui/harness.tsx refuses to mount stock Ink).
 * - `process-isolated`: a `process` file that replaces modules or changes what the whole process
 *   sees (process.env, the working directory, a global), which would leak into the files that run
 *   after it in the same fork. Forks, one fresh process per file.
 * - `screen`: it renders through Ink (a .tsx file, or it imports ink, react or
 *   ink-testing-library). Forks, modules shared between the files of a fork.
 * - `isolated`: it replaces modules (vi.mock, vi.doMock), which would leak into the files that run
 *   after it in a shared worker. Threads, each file on its own.
 * - `unit`: everything else. Forks, modules shared between the files of a fork (in threads, each
 *   child the code under test starts was forked from vitest's own process, which holds every
 *   thread's heap: vitest.config.ts says what that cost).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export type Tier = 'unit' | 'screen' | 'isolated' | 'process' | 'process-screen' | 'process-isolated';

/** An import statement of one of `modules`, or a dynamic import() of one: never a mention in a string. */
function importing(modules: string): RegExp {
  return new RegExp(`^\\s*import[^;'"]*from ['"](${modules})['"]|\\bimport\\(['"](${modules})['"]\\)`, 'm');
}

const STARTS_PROCESSES = importing('(node:)?child_process|(node:)?worker_threads|node-pty');
const PROCESS_FOLDERS = ['test/e2e/', 'test/sim/'];
const RENDERS = importing('ink|ink-testing-library|react');
const MOCKS_MODULES = /^\s*vi\.(mock|doMock)\(/m;
const CHANGES_THE_PROCESS =
  /\bprocess\.chdir\(|\bprocess\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|\bdelete process\.env\b|\bvi\.(stubEnv|stubGlobal)\(/;
/** A string literal: quoted on one line, or a template literal. */
const STRING_LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

/**
 * `text` with what its string literals hold taken out: a command in a string (`node -e 'delete
 * process.env.X'`) changes the child that runs it, not the test's process. A quote in a comment can
 * take code out with it; the file then lands in `process`, where process-state-kept.ts fails it
 * if it does change the process.
 */
function withoutStrings(text: string): string {
  return text.replace(STRING_LITERAL, "''");
}
const RELATIVE_IMPORT =
  /^\s*(?:import|export)[^;'"]*from ['"](\.{1,2}\/[^'"]+)['"]|\bimport\(['"](\.{1,2}\/[^'"]+)['"]\)/gm;
const TEST_FILE = /\.test\.tsx?$/;

/** Every test file under `dir`, relative to `root`, sorted. */
export function testFiles(root: string, dir = 'test'): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) found.push(...testFiles(root, path));
    else if (TEST_FILE.test(name)) found.push(path);
  }
  return found.sort();
}

function resolveImport(fromFile: string, specifier: string): string | null {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

interface Module {
  readonly text: string;
  readonly imports: readonly string[];
}

/** Each module read once however many test files import it. */
type ModuleCache = Map<string, Module>;

function readModule(file: string, testDir: string, cache: ModuleCache): Module {
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  const text = readFileSync(file, 'utf8');
  const imports: string[] = [];
  for (const match of text.matchAll(RELATIVE_IMPORT)) {
    const imported = resolveImport(file, (match[1] ?? match[2]) as string);
    if (imported !== null && !relative(testDir, imported).startsWith('..')) imports.push(imported);
  }
  const module = { text, imports };
  cache.set(file, module);
  return module;
}

/** The text of `file` and of every module under `testDir` it imports, directly or not. */
function closureTexts(file: string, testDir: string, cache: ModuleCache): string[] {
  const seen = new Set<string>();
  const texts: string[] = [];
  const pending = [file];
  while (pending.length > 0) {
    const next = pending.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    const module = readModule(next, testDir, cache);
    texts.push(module.text);
    pending.push(...module.imports);
  }
  return texts;
}

/** The tier of one test file (`path` relative to `root`). */
export function tierOf(root: string, path: string, cache: ModuleCache = new Map()): Tier {
  const texts = closureTexts(join(root, path), join(root, 'test'), cache);
  const uses = (pattern: RegExp): boolean => texts.some((text) => pattern.test(text));
  const renders = path.endsWith('.tsx') || uses(RENDERS);
  if (PROCESS_FOLDERS.some((folder) => path.startsWith(folder)) || uses(STARTS_PROCESSES)) {
    if (uses(MOCKS_MODULES) || texts.some((text) => CHANGES_THE_PROCESS.test(withoutStrings(text))))
      return 'process-isolated';
    return renders ? 'process-screen' : 'process';
  }
  if (uses(MOCKS_MODULES)) return 'isolated';
  if (renders) return 'screen';
  return 'unit';
}

/** The test files of each tier. */
export function filesByTier(root: string): Record<Tier, string[]> {
  const tiers: Record<Tier, string[]> = {
    unit: [],
    screen: [],
    isolated: [],
    process: [],
    'process-screen': [],
    'process-isolated': [],
  };
  const cache: ModuleCache = new Map();
  for (const path of testFiles(root)) tiers[tierOf(root, path, cache)].push(path);
  return tiers;
}
