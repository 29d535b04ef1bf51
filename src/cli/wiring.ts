import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Sandbox } from '../core/tools/sandbox';
import { ApprovalPolicy } from '../core/approval/approval-policy';
import type { Approver } from '../core/approval/approver';
import { parseRule } from '../core/approval/allowlist';
import { seededRandom, systemClock, type Clock, type Random } from '../core/clock';
import { ProviderOnUse } from '../core/provider/provider-on-use';
import type { Provider } from '../core/provider/provider';
import { Agent } from '../core/session/agent';
import { currentHead } from '../core/session/cursor';
import { prefixRecordsTo, restoreKeptPrefixes, type KeptPrefixes } from '../core/session/kept-prefixes';
import { SubAgents, type SubAgentsOptions } from '../core/session/sub-agents';
import { DEFAULT_SUB_AGENT_LIMITS } from '../core/session/sub-agent-limits';
import { taskTool } from '../core/session/task-tool';
import { SessionBudget } from '../core/session/session-budget';
import { childrenOf, readChild } from '../core/session/child-sessions';
import type { IndexKey } from '../core/storage/session-index';
import { FAULT_POINTS, type AgentDeps, type FaultPoint } from '../core/session/agent-deps';
import { DEFAULT_LIMITS, type LoopLimits } from '../core/session/limits';
import type { ActiveProfile } from '../core/session/agent-profile';
import type { SessionStore } from '../core/storage/session-store';
import { builtinTools } from '../core/tools/builtin/index';
import { ToolRegistry } from '../core/tools/registry';
import { costUsdMicros } from '../core/usage/pricing';
import { HOOK_EVENTS, type HookEvent } from '../core/hooks/hook-config';
import { HookRunner } from '../core/hooks/hook-runner';
import { Checkpoints } from '../core/checkpoints/checkpoint-store';
import type { CliArgs } from './args';
import { toleHome } from './tole-home';
import { approvalPlace } from '../core/session/approval-place';
import { ConfigError, readProjectConfigFile, type Config } from './config';
import { providerKeyVars, type ProviderSettings } from './settings';
import { childEnv } from '../core/child-env';
import { makeSessionTempDir } from './session-temp-dir';
import { hiddenFromCommands, homesHiddenFromCommands, readableForCommands } from './hidden-from-commands';
import { buildMcpHub, type McpPlan } from './mcp-setup';
import type { McpHub } from '../core/mcp/mcp-hub';
import { MCP_NAME_SEPARATOR, sanitizeNamePart } from '../core/mcp/mcp-names';

export function systemRandom(): Random {
  return seededRandom((Math.random() * 0x1_0000_0000) >>> 0);
}

export const clock: Clock = systemClock;

/** The provider of the settings' API kind (provider/registry.ts), loaded at its first call. */
export function buildProvider(settings: ProviderSettings, config: Config, random: Random): Provider {
  return new ProviderOnUse(settings.api, {
    name: settings.name,
    baseURL: settings.baseUrl,
    apiKey: settings.apiKey,
    defaultModel: settings.model,
    headers: settings.headers,
    retry: config.limits?.maxAttempts ? { maxAttempts: config.limits.maxAttempts } : {},
    random,
    clock,
    ...(config.limits?.streamIdleTimeoutMs === undefined
      ? {}
      : { streamIdleTimeoutMs: config.limits.streamIdleTimeoutMs }),
    ...(config.limits?.firstTokenTimeoutMs === undefined
      ? {}
      : { firstTokenTimeoutMs: config.limits.firstTokenTimeoutMs }),
    ...(config.limits?.modelCallTimeoutMs === undefined ? {} : { callTimeoutMs: config.limits.modelCallTimeoutMs }),
  });
}

function limitsFrom(config: Config): LoopLimits {
  return { ...DEFAULT_LIMITS, ...stripUndefined(config.limits ?? {}) };
}

function stripUndefined<T extends object>(o: T): Partial<LoopLimits> {
  return Object.fromEntries(
    Object.entries(o).filter(([k, v]) => v !== undefined && k in DEFAULT_LIMITS),
  ) as Partial<LoopLimits>;
}

/** Said once at start when calls may be approved without a key and nothing confines them. */
export function unconfinedNotice(args: CliArgs, config: Config, sandbox: Sandbox | null): string | null {
  if (sandbox !== null || (!args.yes && args.allow.length === 0 && (config.allow ?? []).length === 0)) return null;
  const how =
    process.platform === 'darwin'
      ? 'sandbox-exec is missing'
      : 'install bubblewrap (apt-get install bubblewrap) and make sure user namespaces are enabled';
  return `no sandbox on this machine, so shell commands still ask: --yes and wildcard allow rules do not run them here, only a key or an allow rule naming the exact command does (--allow 'bash:npm test'); for the sandbox, ${how}`;
}

export function buildPolicy(
  args: CliArgs,
  config: Config,
  interactive: boolean,
  configFile: string,
  sandbox: Sandbox | null = null,
  exposed: string | null = null,
): ApprovalPolicy {
  // A workspace holding the user's dotfiles or tole's own folder: nothing runs without a key.
  if (exposed !== null)
    return new ApprovalPolicy({
      rules: [],
      yes: false,
      interactive,
      sandbox: sandbox !== null,
      sessionAllowance: false,
    });
  // A rule for a tool that does not exist would allow nothing, silently: name the tools instead.
  const knownTools = builtinTools({ workspaceRoot: '/', interactiveApprover: true }).map((tool) => tool.name);
  // An MCP tool is named once its server has started; a rule may name any tool of a configured server.
  const mcpPrefixes = Object.keys(config.mcpServers ?? {}).map(
    (server) => `${sanitizeNamePart(server)}${MCP_NAME_SEPARATOR}`,
  );
  const rules = [...(config.allow ?? []), ...args.allow].map((text) => {
    const tool = text.split(':')[0] ?? '';
    const isMcpTool = mcpPrefixes.some((prefix) => tool.startsWith(prefix) && tool.length > prefix.length);
    try {
      return parseRule(text, isMcpTool ? [...knownTools, tool] : knownTools);
    } catch (error) {
      const from = args.allow.includes(text) ? '--allow' : `config ${configFile}: field "allow"`;
      throw new ConfigError(configFile, `${from}: ${(error as Error).message}`);
    }
  });
  return new ApprovalPolicy({ rules, yes: args.yes, interactive, sandbox: sandbox !== null });
}

/** `TOLE_CRASH_AT=<fault point>` (after-checkpoint, after-intent, during-effect, before-settlement, during-restore): test-only, SIGKILLs this process there. */
export function faultFromEnv(env: NodeJS.ProcessEnv): AgentDeps['fault'] {
  const at = env['TOLE_CRASH_AT'];
  if (!at) return undefined;
  if (!(FAULT_POINTS as readonly string[]).includes(at))
    throw new ConfigError('TOLE_CRASH_AT', `TOLE_CRASH_AT must be one of ${FAULT_POINTS.join(', ')}`);
  return (point: FaultPoint) => {
    if (point === at) process.kill(process.pid, 'SIGKILL');
  };
}

interface AgentParts {
  readonly store: SessionStore;
  readonly provider: Provider;
  readonly policy: ApprovalPolicy;
  readonly approver: Approver | null;
  readonly settings: ProviderSettings;
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** The MCP servers to offer tools from (`planMcpServers`); none when absent. */
  readonly mcp?: McpPlan;
  /** The system prompt and agent profile to start with (`resolveProfile`). */
  readonly profile: ActiveProfile;
  /** The model to start with (`chooseProfileAndModel`). */
  readonly model: string;
  /** Confines shell commands run without a keypress; the policy was built with the same. */
  readonly sandbox?: Sandbox | null;
  /** Profiles for sub-agents (`childProfiles`): with it the model is offered the `task` tool. */
  readonly childProfile?: SubAgentsOptions['profile'];
  /** The user's key for saved indexes, used when a sub-agent's session is opened again. */
  readonly indexKey?: IndexKey;
}

interface BuiltSession {
  readonly agent: Agent;
  /** The session's MCP servers; null when none is configured. The host closes it. */
  readonly mcp: McpHub | null;
  /** The session's sub-agents (the screen follows their events); null without `childProfile`. */
  readonly subAgents: SubAgents | null;
  /** What opening the session put in force again, or refused to: the command prefixes it kept (`p`). */
  readonly notices: readonly string[];
}

/** The Agent and, when servers are configured, the MCP hub whose tools it is offered. */
export function buildSession(parts: AgentParts): BuiltSession {
  const workspaceRoot = realpathSync(parts.cwd);
  // The model's commands and hooks run without the user's secrets (unless the user's config passes them).
  const env = childEnv(parts.env, { passEnv: parts.config.passEnv ?? [], drop: providerKeyVars(parts.config) });
  const tools = ToolRegistry.create({ interactiveApprover: parts.approver !== null });
  const sandbox = parts.sandbox
    ? {
        sandbox: parts.sandbox,
        policy: {
          workspaceRoot,
          tempDir: makeSessionTempDir(),
          network: parts.config.sandbox?.network === true,
          hidden: hiddenFromCommands(parts.env, parts.config.sessionsDir),
          homes: homesHiddenFromCommands(parts.env),
          readable: readableForCommands(parts.config.sandbox?.readable ?? [], parts.env),
        },
      }
    : null;
  const trustedGitKeys = parts.config.trustedGitKeys ?? [];
  for (const tool of builtinTools({
    workspaceRoot,
    interactiveApprover: parts.approver !== null,
    env,
    sandbox,
    trustedGitKeys,
    homes: homesHiddenFromCommands(parts.env),
  }))
    tools.register(tool);
  const mcp = parts.mcp ? buildMcpHub(parts.mcp, tools, parts.approver !== null) : null;
  const pricing = parts.config.pricing ?? {};
  const contextWindow = parts.config.compaction?.contextWindow ?? parts.settings.contextWindow;
  const deps: AgentDeps = {
    store: parts.store,
    provider: parts.provider,
    tools,
    policy: parts.policy,
    approver: parts.approver,
    workspaceRoot,
    systemPrompt: parts.profile.systemPrompt,
    limits: limitsFrom(parts.config),
    place: approvalPlace(resolve(toleHome(parts.env))),
    ...(parts.config.limits?.toolOutputCapBytes ? { toolOutputCapBytes: parts.config.limits.toolOutputCapBytes } : {}),
    ...(parts.config.limits?.readConcurrency ? { readConcurrency: parts.config.limits.readConcurrency } : {}),
    price: (report) => {
      const estimate = costUsdMicros(report.model, report.usage, pricing);
      return { costUsdMicros: estimate.costUsdMicros, priced: estimate.priced };
    },
    ...budgetOf(parts),
    fault: faultFromEnv(parts.env),
    ...(mcp ? { externalTools: mcp } : {}),
    ...(parts.config.checkpoints?.enabled === false
      ? {}
      : { checkpoints: checkpointsFor(parts.env, parts.config, workspaceRoot) }),
    ...(hasHooks(parts.config)
      ? {
          hooks: HookRunner.create({
            config: parts.config.hooks ?? {},
            cwd: workspaceRoot,
            env,
            clock,
            confine: sandbox ? { events: projectHookEvents(parts.config, workspaceRoot), ...sandbox } : null,
            trustedGitKeys,
          }),
        }
      : {}),
    ...(contextWindow ? { contextWindowTokens: contextWindow } : {}),
    compaction: {
      ...(parts.config.compaction?.threshold !== undefined ? { threshold: parts.config.compaction.threshold } : {}),
      ...(parts.config.compaction?.model ? { model: parts.config.compaction.model } : {}),
      ...(contextWindow ? { contextWindowTokens: contextWindow } : {}),
    },
  };
  const agent = new Agent(deps, parts.model, parts.profile);
  const subAgents = parts.childProfile ? subAgentsFor(parts, deps, agent) : null;
  const records = prefixRecordsTo(parts.store.tree, currentHead(parts.store).entryId);
  const kept = restoreKeptPrefixes(records, tools, parts.policy);
  return { agent, mcp, subAgents, notices: keptPrefixNotices(kept) };
}

/** The start's words about the session's kept prefixes: those in force again, and each one refused. */
export function keptPrefixNotices(kept: KeptPrefixes): string[] {
  const notices = kept.refused.map((why) => `a command prefix this session kept is not in force: ${why}`);
  if (kept.restored.length > 0)
    notices.unshift(
      `the command prefixes this session kept are in force again (matching commands run in the sandbox without asking): ${kept.restored.join(', ')}`,
    );
  return notices;
}

/**
 * The session's budget (`limits.maxSessionCostUsd`), when one is set: it counts the session's
 * usage rows as they are committed and those its children's files already hold.
 */
function budgetOf(parts: AgentParts): { budget?: SessionBudget } {
  const max = parts.config.limits?.maxSessionCostUsd;
  if (max === undefined || parts.store.readOnly) return {};
  const budget = new SessionBudget(max);
  budget.watch(parts.store);
  for (const child of childrenOf(parts.store, parts.store.tree.all()))
    readChild(child, clock, (store) => budget.count(store));
  return { budget };
}

/** Sub-agents of the session, offered to the model as the `task` tool (a read-only view runs none). */
function subAgentsFor(parts: AgentParts, deps: AgentDeps, agent: Agent): SubAgents | null {
  if (!parts.childProfile || parts.store.readOnly) return null;
  const limits = { ...DEFAULT_SUB_AGENT_LIMITS, ...definedOnly(parts.config.limits ?? {}, DEFAULT_SUB_AGENT_LIMITS) };
  const subAgents = new SubAgents({
    deps,
    model: () => agent.model,
    profile: parts.childProfile,
    clock,
    random: systemRandom(),
    limits,
    ...(parts.indexKey ? { indexKey: parts.indexKey } : {}),
  });
  deps.tools.register(taskTool(subAgents));
  return subAgents;
}

function definedOnly<T extends object>(o: object, known: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== undefined && k in known)) as Partial<T>;
}

/** The workspace's checkpoints under tole's home (never in the user's repository). */
export function checkpointsFor(env: NodeJS.ProcessEnv, config: Config, workspaceRoot: string): Checkpoints {
  const maxFileMB = config.checkpoints?.maxFileMB;
  const limitSeconds = config.checkpoints?.timeLimitSeconds;
  return Checkpoints.create({
    home: toleHome(env),
    workspaceRoot,
    path: env['PATH'] ?? '/usr/bin:/bin',
    ...(maxFileMB === undefined ? {} : { maxFileBytes: Math.round(maxFileMB * 1024 * 1024) }),
    ...(limitSeconds === undefined ? {} : { timeLimitMs: Math.round(limitSeconds * 1000) }),
    ...(env['HOME'] ? { userHome: env['HOME'] } : {}),
    ...(config.checkpoints?.watchman === true ? { journal: 'watchman' as const } : {}),
  });
}

/**
 * The hook events whose commands came from the workspace's tole.config.json (a project's hook
 * for an event replaces the user's): those run in the sandbox, the user's own as written.
 */
function projectHookEvents(config: Config, workspaceRoot: string): Set<HookEvent> {
  const file = join(workspaceRoot, 'tole.config.json');
  const events = new Set<HookEvent>();
  if (!existsSync(file)) return events;
  let project: Config;
  try {
    project = readProjectConfigFile(file).config;
  } catch {
    // Unreadable now: then every hook it could have set is taken for the project's.
    for (const event of HOOK_EVENTS) events.add(event);
    return events;
  }
  for (const event of HOOK_EVENTS) {
    const applied = config.hooks?.[event];
    if (applied !== undefined && JSON.stringify(applied) === JSON.stringify(project.hooks?.[event])) events.add(event);
  }
  return events;
}

function hasHooks(config: Config): boolean {
  const { timeoutMs: _timeout, ...events } = config.hooks ?? {};
  return Object.values(events).some((commands) => commands !== undefined && commands.length > 0);
}
