import type { Random } from '../core/clock';
import { SwitchableProvider } from '../core/provider/switchable-provider';
import type { Agent } from '../core/session/agent';
import type { SessionStore } from '../core/storage/session-store';
import { createTuiApprover, type ApprovalQueue } from '../tui/approval/approval-queue';
import type { ProviderSetup } from '../tui/dialogs/provider-setup';
import type { HostCommand } from '../tui/commands/slash-commands';
import type { SessionStartHook } from '../tui/screen/use-session-start';
import type { ApprovalPolicy } from '../core/approval/approval-policy';
import type { Sandbox } from '../core/tools/sandbox';
import type { Config } from './config';
import { hostCommands } from './host-commands';
import type { LOCAL_SERVERS } from './probe-local';
import { providerSetup } from './provider-setup';
import { missingKey, resolveProvider, type ProviderSettings } from './settings';
import { buildProvider, buildSession, clock } from './wiring';
import { childProfiles } from './child-profiles';
import { childProviders } from './child-providers';
import type { SubAgents } from '../core/session/sub-agents';
import { indexKeyIn } from './index-key';
import { toleHome } from './tole-home';
import { realpathSync } from 'node:fs';
import type { McpHub } from '../core/mcp/mcp-hub';
import type { ProjectMcpServers } from './config';
import { mcpCommand } from './mcp-command';
import { planMcpServers } from './mcp-setup';
import { defaultSystemPrompt } from '../core/session/system-prompt';
import { parseArgs, type CliArgs } from './args';
import { agentCommands } from './agent-commands';
import { noteSessionStart, promptContext, type PreparedSession } from './session-setup';

interface TuiWiringInput {
  readonly config: Config;
  /** The command line, for a profile that names a provider (its flags still win). */
  readonly args?: CliArgs;
  /** The config files read, the last one named in errors. */
  readonly files: readonly string[];
  readonly settings: ProviderSettings;
  readonly store: SessionStore;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Where sessions live: `/fork` writes there. */
  readonly sessionsDir: string;
  readonly random: Random;
  /** `buildPolicy(args, config, true, file)`: built (and checked) before the session is opened. */
  readonly policy: ApprovalPolicy;
  /** The project config's MCP servers (started only from a trusted project). */
  readonly projectMcp?: ProjectMcpServers | null;
  /**
   * The profile, prompt and model to open with (`prepareSession`); without it, tole's own system
   * prompt with the AGENTS.md instructions, no profile, and the settings' model.
   */
  readonly prepared?: PreparedSession;
  /** Whether the workspace's config was trusted (`loadConfig`): its MCP servers start only then. */
  readonly projectTrusted?: boolean;
  /** The sandbox the policy was built with (`findSandboxSoon`). */
  readonly sandbox?: Sandbox | null;
  /** The provider to go on with (`/new`: the one in use, as /connect or /agent left it); else one from the settings. */
  readonly provider?: SwitchableProvider;
  /** Where the first-run panel looks for local servers (tests point it at their own). */
  readonly probe?: { readonly host: string; readonly servers: typeof LOCAL_SERVERS; readonly timeoutMs?: number };
}

/** Everything `runTui` needs beside the store and the look. */
export interface TuiWiring {
  readonly agent: Agent;
  readonly approvals: ApprovalQueue;
  readonly policy: ApprovalPolicy;
  /** The provider the Agent holds; empty until one is usable. */
  readonly provider: SwitchableProvider;
  readonly commands: readonly HostCommand[];
  readonly setup: ProviderSetup;
  /** Set when sessionStart hooks are configured. */
  readonly sessionStart?: SessionStartHook;
  /** The session's MCP servers (started already); the host closes it. */
  readonly mcp?: McpHub;
  /** The session's sub-agents (the screen follows their usage). */
  readonly subAgents?: SubAgents;
  /** What opening the session put in force again, or refused to (its kept command prefixes). */
  readonly notices: readonly string[];
}

const NO_ARGS = parseArgs([]);

/** Without a prepared session: no profile, tole's own prompt and the instructions, the settings' model. */
function defaultPrepared(input: TuiWiringInput): PreparedSession {
  const workspaceRoot = realpathSync(input.cwd);
  const prompts = promptContext(
    input.config,
    input.files[input.files.length - 1] ?? 'tole.config.json',
    workspaceRoot,
    input.env,
    false,
    new Date(clock.nowMs()).toISOString(),
  );
  const systemPrompt = [defaultSystemPrompt(workspaceRoot, prompts.nowIso), prompts.instructions.text]
    .filter((part) => part !== '')
    .join('\n\n');
  return {
    prompts,
    resolved: { active: { name: null, systemPrompt }, profile: null, file: null },
    model: input.settings.model,
    settings: input.settings,
    notices: prompts.instructions.notices,
  };
}

function hasSessionStartHooks(config: Config): boolean {
  const commands = config.hooks?.sessionStart;
  return commands !== undefined && commands.length > 0;
}

/**
 * The full-screen session's parts: the Agent over a provider that can be switched (empty when no
 * key is set, so that tole opens anyway), the interactive approver, `/compact` and `/fork`, the
 * first-run panel's host side, and the sessionStart hooks.
 */
export function wireTui(input: TuiWiringInput): TuiWiring {
  const { config, files, store, env, cwd, random, policy } = input;
  const prepared = input.prepared ?? defaultPrepared(input);
  const { settings } = prepared;
  const approvals = createTuiApprover();
  const provider =
    input.provider ??
    new SwitchableProvider(
      missingKey(settings) ? null : buildProvider(settings, config, random),
      settings.name,
      settings.baseUrl,
    );
  const mcpPlan = planMcpServers({
    config,
    projectMcp: input.projectMcp ?? null,
    projectTrusted: input.projectTrusted ?? false,
    env,
    workspaceRoot: realpathSync(cwd),
  });
  // A read-only view runs no turns: it starts no servers.
  const { agent, mcp, subAgents, notices } = buildSession({
    store,
    provider,
    policy,
    approver: approvals,
    settings,
    config,
    env,
    cwd,
    sandbox: input.sandbox ?? null,
    profile: prepared.resolved.active,
    model: prepared.model,
    ...(store.readOnly ? {} : { mcp: mcpPlan }),
    childProfile: childProfiles(prepared.prompts, childProviders({ args: input.args ?? NO_ARGS, config, env, random })),
    indexKey: indexKeyIn(toleHome(env)),
  });
  mcp?.startSessionServers();
  noteSessionStart(agent, store, prepared);
  const switchProvider = (name: string, file: string): string => {
    const next = resolveProvider(input.args ?? NO_ARGS, { ...config, provider: name }, env, file);
    if (missingKey(next))
      throw new Error(`the provider "${name}" needs a key: set ${next.apiKeyEnv ?? 'OPENAI_API_KEY'}`);
    provider.use(buildProvider(next, config, random), next.name, next.baseUrl);
    return next.name;
  };
  const profileCommands = agentCommands({
    agent,
    store,
    prompts: prepared.prompts,
    provider: () => ({ name: provider.name, usable: provider.usable, address: provider.address }),
    switchProvider,
  });
  const setup = providerSetup({
    settings,
    config,
    files,
    env,
    cwd,
    provider,
    random,
    ...(input.probe ? { probeHost: input.probe.host, servers: input.probe.servers } : {}),
    ...(input.probe?.timeoutMs !== undefined ? { probeTimeoutMs: input.probe.timeoutMs } : {}),
  });
  return {
    agent,
    approvals,
    policy,
    provider,
    commands: [
      ...hostCommands({ agent, store, sessionsDir: input.sessionsDir, random, providerUsable: () => provider.usable }),
      ...(mcp ? [mcpCommand(mcp)] : []),
      ...profileCommands,
    ],
    setup,
    notices,
    ...(hasSessionStartHooks(config) ? { sessionStart: agent.sessionStart.bind(agent) } : {}),
    ...(mcp ? { mcp } : {}),
    ...(subAgents ? { subAgents } : {}),
  };
}
