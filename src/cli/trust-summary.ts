import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrustSummary } from '../tui/dialogs/trust-lines';
import { profilesIn } from './agent-profiles';
import type { McpServerConfig, ProjectConfigTrust, ProjectMcpServers } from './config';
import { PROMPT_COMMAND_FIELDS } from './project-gate';
import { PROJECT_DIR } from './project-tree';
import type { FolderFingerprint } from './trust-store';

interface TrustSummaryInput {
  /** The workspace's real path. */
  readonly folder: string;
  readonly project: ProjectConfigTrust | null;
  readonly mcp: ProjectMcpServers | null;
  readonly fingerprint: FolderFingerprint;
}

/**
 * What an untrusted folder would do once trusted: the trust prompt's content. Every command
 * that would run is there, each whole: hooks, `prompt`/`systemPrompt` command arrays, MCP
 * servers (with their environment and folder), and the prompt commands of `.tole/agents`.
 */
export function trustSummary({ folder, project, mcp, fingerprint }: TrustSummaryInput): TrustSummary {
  const written = project?.asWritten ?? {};
  const commands: [string, string][] = [];
  for (const [event, hook] of Object.entries(written.hooks ?? {})) {
    if (event === 'timeoutMs' || hook === undefined) continue;
    for (const command of Array.isArray(hook) ? hook : [hook]) commands.push([`hook ${event}`, String(command)]);
  }
  for (const field of PROMPT_COMMAND_FIELDS) {
    const value = written[field];
    if (Array.isArray(value)) for (const command of value) commands.push([`${field} command`, command]);
  }
  for (const [name, server] of Object.entries(mcp?.servers ?? {}))
    commands.push([`MCP server ${name}`, serverLine(server)]);
  commands.push(...profileCommands(folder));
  const providers = Object.entries(written.providers ?? {}).map(
    ([name, p]) => `${name}: ${p.baseUrl}${p.apiKeyEnv ? ` (key from ${p.apiKeyEnv})` : ''}`,
  );
  if (written.provider) providers.unshift(`uses "${written.provider}"`);
  const shown = new Set(['hooks', 'baseUrl', 'provider', 'providers', 'allow']);
  return {
    file: project?.file ?? join(folder, PROJECT_DIR),
    folder,
    commands,
    ...(written.baseUrl ? { baseUrl: written.baseUrl } : {}),
    providers,
    allow: written.allow ?? [],
    otherFields: (project?.ignored ?? []).filter((field) => !shown.has(field)),
    ...(fingerprint.refused !== undefined ? { refused: fingerprint.refused } : {}),
  };
}

/** True when trusting the folder would change anything: a prompt is worth asking. */
export function wouldAct(summary: TrustSummary): boolean {
  return (
    summary.commands.length > 0 ||
    summary.baseUrl !== undefined ||
    summary.providers.length > 0 ||
    summary.allow.length > 0 ||
    summary.otherFields.length > 0
  );
}

/** An MCP server as it would start: a URL, or `[NAME=value ...] command args... [in DIR]`, each word quoted as a shell would need. */
function serverLine(server: McpServerConfig): string {
  if (server.url !== undefined) return server.url;
  const env = Object.entries(server.env ?? {}).map(([name, value]) => `${name}=${shellWord(value)}`);
  const words = [server.command ?? '', ...(server.args ?? [])].map(shellWord);
  return [...env, ...words].join(' ') + (server.cwd ? ` (in ${server.cwd})` : '');
}

/** A word as a shell reads it back: bare when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The prompt commands of the project's agent profiles (or why a profile could not be read). */
function profileCommands(folder: string): [string, string][] {
  const out: [string, string][] = [];
  for (const profile of profilesIn(join(folder, PROJECT_DIR, 'agents'), 'project')) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(profile.file, 'utf8'));
    } catch (error) {
      out.push([`profile ${profile.name}`, `${profile.file}: not readable as JSON (${(error as Error).message})`]);
      continue;
    }
    for (const field of PROMPT_COMMAND_FIELDS) {
      const value = (raw as Record<string, unknown> | null)?.[field];
      if (!Array.isArray(value)) continue;
      for (const command of value) out.push([`profile ${profile.name} ${field} command`, String(command)]);
    }
  }
  return out;
}
