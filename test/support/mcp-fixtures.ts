/** Specs and configs that start the notes MCP server (`mcp-notes-server.ts`) the way tole does. */
import { mkdirSync } from 'node:fs';
import { serverEnvironment } from '../../src/core/mcp/mcp-env';
import type { McpServerSpec } from '../../src/core/mcp/mcp-server-spec';
import { childScript } from './test-children';

/** The command line of the stdio notes server keeping its notes and log in `dir`. */
export function notesCommand(dir: string, extraArgs: readonly string[] = []): { command: string; args: string[] } {
  mkdirSync(dir, { recursive: true });
  return { command: process.execPath, args: [childScript('mcp-notes-server'), '--dir', dir, ...extraArgs] };
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
