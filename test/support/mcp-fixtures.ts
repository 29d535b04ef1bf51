/** Specs and configs that start the notes MCP server (`mcp-notes-server.ts`) the way tole does. */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { serverEnvironment } from '../../src/core/mcp/mcp-env';
import type { McpServerSpec } from '../../src/core/mcp/mcp-server-spec';
import { REPO_ROOT } from './spawn-node';

export const NOTES_SCRIPT = join(REPO_ROOT, 'test', 'support', 'mcp-notes-server.ts');
const BUNDLE_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'tole-test');
const NOTES_BUNDLE = join(BUNDLE_DIR, 'mcp-notes-server.mjs');

/**
 * The notes server bundled into one file (it starts in a fraction of the time tsx needs), rebuilt
 * when the source is newer; written aside and renamed, so test files running at once never see half a file.
 */
export function notesServerBundle(): string {
  if (existsSync(NOTES_BUNDLE) && statSync(NOTES_BUNDLE).mtimeMs >= statSync(NOTES_SCRIPT).mtimeMs) return NOTES_BUNDLE;
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const aside = `${NOTES_BUNDLE}.${process.pid}.${Date.now()}`;
  buildSync({
    entryPoints: [NOTES_SCRIPT],
    outfile: aside,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  renameSync(aside, NOTES_BUNDLE);
  return NOTES_BUNDLE;
}

/** The command line of the stdio notes server keeping its notes and log in `dir`. */
export function notesCommand(dir: string, extraArgs: readonly string[] = []): { command: string; args: string[] } {
  mkdirSync(dir, { recursive: true });
  return { command: process.execPath, args: [notesServerBundle(), '--dir', dir, ...extraArgs] };
}

export function notesStdioSpec(
  dir: string,
  over: Partial<McpServerSpec> = {},
  extraArgs: readonly string[] = [],
): McpServerSpec {
  const { command, args } = notesCommand(dir, extraArgs);
  return {
    name: 'notes',
    origin: 'user',
    transport: { kind: 'stdio', command, args, env: serverEnvironment(process.env, [], {}), cwd: dir },
    start: 'session',
    startupTimeoutMs: 20_000,
    callTimeoutMs: 20_000,
    trustAnnotations: true,
    tools: {},
    ...over,
  };
}

export function notesHttpSpec(url: string, over: Partial<McpServerSpec> = {}): McpServerSpec {
  return {
    name: 'remote',
    origin: 'user',
    transport: { kind: 'http', url, headers: {} },
    start: 'session',
    startupTimeoutMs: 10_000,
    callTimeoutMs: 10_000,
    trustAnnotations: true,
    tools: {},
    ...over,
  };
}
