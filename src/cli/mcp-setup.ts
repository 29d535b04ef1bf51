import { resolve } from 'node:path';
import packageJson from '../../package.json';
import { serverEnvironment } from '../core/mcp/mcp-env';
import { McpHub } from '../core/mcp/mcp-hub';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_STARTUP_TIMEOUT_MS,
  type McpOrigin,
  type McpServerSpec,
  type McpTransportSpec,
} from '../core/mcp/mcp-server-spec';
import type { ToolRegistry } from '../core/tools/registry';
import type { Config, McpServerConfig, ProjectMcpServers } from './config';

/** The configured MCP servers, resolved: what to start, and what is left off and why. */
export interface McpPlan {
  readonly specs: readonly McpServerSpec[];
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
}

interface McpPlanInput {
  readonly config: Config;
  readonly projectMcp: ProjectMcpServers | null;
  /** Whether the project's config is trusted (its servers may start). */
  readonly projectTrusted: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** The workspace root: a stdio server runs there unless its config names a `cwd`. */
  readonly workspaceRoot: string;
}

export function planMcpServers(input: McpPlanInput): McpPlan {
  const specs: McpServerSpec[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const add = (name: string, server: McpServerConfig, origin: McpOrigin): void => {
    if (server.disabled) return;
    const resolved = transportOf(server, input.env, input.workspaceRoot);
    if (typeof resolved === 'string') skipped.push({ name, reason: resolved });
    else specs.push(specOf(name, server, origin, resolved));
  };
  const user = input.config.mcpServers ?? {};
  for (const [name, server] of Object.entries(user)) add(name, server, 'user');
  for (const [name, server] of Object.entries(input.projectMcp?.servers ?? {})) {
    if (name in user) {
      skipped.push({
        name: `${name} (project)`,
        reason: `your own config already names a server "${name}"; the project's is not started`,
      });
    } else if (!input.projectTrusted) {
      skipped.push({
        name,
        reason: `named by ${input.projectMcp!.file}, which is not trusted: a project's MCP servers never start from an untrusted config`,
      });
    } else add(name, server, 'project');
  }
  return { specs, skipped };
}

function specOf(name: string, server: McpServerConfig, origin: McpOrigin, transport: McpTransportSpec): McpServerSpec {
  return {
    name,
    origin,
    transport,
    start: server.start ?? 'session',
    startupTimeoutMs: server.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
    callTimeoutMs: server.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    trustAnnotations: server.trustAnnotations ?? false,
    tools: server.tools ?? {},
  };
}

/** The transport, with the environment and headers resolved; a string says why it cannot start. */
function transportOf(
  server: McpServerConfig,
  env: NodeJS.ProcessEnv,
  workspaceRoot: string,
): McpTransportSpec | string {
  if (server.command !== undefined) {
    return {
      kind: 'stdio',
      command: server.command,
      args: server.args ?? [],
      env: serverEnvironment(env, server.passEnv ?? [], server.env ?? {}),
      cwd: server.cwd ? resolve(workspaceRoot, server.cwd) : workspaceRoot,
    };
  }
  const headers: Record<string, string> = { ...server.headers };
  for (const [header, variable] of Object.entries(server.headersFromEnv ?? {})) {
    const value = env[variable];
    if (value === undefined || value === '')
      return `its header ${header} comes from the environment variable ${variable}, which is not set`;
    headers[header] = value;
  }
  return { kind: 'http', url: server.url!, headers };
}

/** The session's MCP hub over `registry`, or null when no server is configured. */
export function buildMcpHub(plan: McpPlan, registry: ToolRegistry, interactiveApprover: boolean): McpHub | null {
  if (plan.specs.length === 0 && plan.skipped.length === 0) return null;
  return McpHub.create({
    specs: plan.specs,
    skipped: plan.skipped,
    registry,
    interactiveApprover,
    version: packageJson.version,
  });
}
