import { dirname } from 'node:path';
import type { TrustSummary } from '../tui/trust-lines';
import type { ProjectConfigTrust, ProjectMcpServers } from './config';

/** What an untrusted project config would do once trusted: the trust prompt's content. */
export function trustSummary(project: ProjectConfigTrust, mcp: ProjectMcpServers | undefined): TrustSummary {
  const written = project.asWritten;
  const hooks: [string, string][] = [];
  for (const [event, commands] of Object.entries(written.hooks ?? {})) {
    if (event === 'timeoutMs' || commands === undefined) continue;
    for (const command of Array.isArray(commands) ? commands : [commands]) hooks.push([event, String(command)]);
  }
  const providers = Object.entries(written.providers ?? {}).map(
    ([name, p]) => `${name}: ${p.baseUrl}${p.apiKeyEnv ? ` (key from ${p.apiKeyEnv})` : ''}`,
  );
  if (written.provider) providers.unshift(`uses "${written.provider}"`);
  const shown = new Set(['hooks', 'baseUrl', 'provider', 'providers', 'allow']);
  const mcpServers = Object.entries(mcp?.servers ?? {}).map(([name, server]): [string, string] => {
    const s = server as { command?: string; args?: readonly string[]; url?: string };
    return [name, s.url ?? [s.command ?? '', ...(s.args ?? [])].join(' ')];
  });
  return {
    file: project.file,
    folder: dirname(project.file),
    hooks,
    ...(written.baseUrl ? { baseUrl: written.baseUrl } : {}),
    providers,
    allow: written.allow ?? [],
    otherFields: project.ignored.filter((field) => !shown.has(field)),
    mcpServers,
  };
}
