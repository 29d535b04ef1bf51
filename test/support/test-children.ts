/**
 * The test's child scripts (test/support/*.ts run as processes of their own), bundled to plain
 * JavaScript once per vitest run by the process tier's global setup (build-test-children.ts), so
 * that a child starts in node's own time instead of a TypeScript loader's (1.4-2.2 s each under
 * load, against about 0.1 s). The bundles live in dist/test-children/, beside the built tole and
 * as ignored by git. Packages are bundled in too, as the built tole bundles them: node then parses
 * one file instead of resolving and reading hundreds under node_modules, which halves a child's
 * start (the crash-turn child 0.55 s of CPU down to 0.3 s, the notes MCP server with the MCP SDK
 * and zod 0.4 s down to 0.25 s).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { REPO_ROOT } from './repo-root';
import { startNode, type ChildRun, type SpawnOptions, type StartedChild } from './spawn-node';

/** Every script a test runs as a child, by its name in test/support. */
export const CHILD_SCRIPTS = [
  'chat-server',
  'checkpoint-looper',
  'checkpoint-marks',
  'checkpoint-session',
  'checkpoint-taker',
  'checkpoint-twice',
  'crash-restore-child',
  'crash-turn-child',
  'git-dirs-walker',
  'mcp-notes-server',
  'sim-workspace-holder',
  'stale-lock-racer',
  'storage-commit-writer',
  'storage-lock-holder',
  'storage-stdin-writer',
  'v8-flags-child',
] as const;

export type ChildScript = (typeof CHILD_SCRIPTS)[number];

export const CHILDREN_DIR = join(REPO_ROOT, 'dist', 'test-children');

/** Bundles every child script into CHILDREN_DIR (one esbuild call: about 1.5 s with the packages bundled in). */
export function buildTestChildren(): void {
  buildSync({
    entryPoints: CHILD_SCRIPTS.map((name) => join(REPO_ROOT, 'test', 'support', `${name}.ts`)),
    outdir: CHILDREN_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Native addons stay imports, resolved from the repository's node_modules.
    external: ['better-sqlite3', 'node-pty'],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The CommonJS packages bundled into an ES module call require() for node's own modules.
    banner: {
      js: "import { createRequire as __childRequire } from 'node:module'; const require = __childRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

/** The bundled `test/support/<name>.ts`, to run as `node <path> ...args`. */
export function childScript(name: ChildScript): string {
  const path = join(CHILDREN_DIR, `${name}.mjs`);
  if (!existsSync(path))
    throw new Error(
      `${path} is missing: the child scripts are bundled by the process tier's global setup ` +
        '(test/support/build-test-children.ts); run the test through vitest (`npx vitest run <file>`).',
    );
  return path;
}

/** `node <bundled child> ...args`; resolves with how it ended. */
export function runChild(name: ChildScript, args: readonly string[], options: SpawnOptions = {}): Promise<ChildRun> {
  return startChild(name, args, options).done;
}

/** Like `runChild`, with the child at hand (to signal it) while it runs. */
export function startChild(name: ChildScript, args: readonly string[], options: SpawnOptions = {}): StartedChild {
  return startNode(childScript(name), args, options);
}
