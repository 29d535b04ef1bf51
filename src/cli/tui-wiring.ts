import type { Random } from '../core/clock';
import { SwitchableProvider } from '../core/provider/switchable-provider';
import type { Agent } from '../core/session/agent';
import type { SessionStore } from '../core/storage/session-store';
import { createTuiApprover, type ApprovalQueue } from '../tui/approval-queue';
import type { ProviderSetup } from '../tui/provider-setup';
import type { HostCommand } from '../tui/slash-commands';
import type { SessionStartHook } from '../tui/use-session-start';
import type { ApprovalPolicy } from '../core/approval/approval-policy';
import type { Config } from './config';
import { hostCommands } from './host-commands';
import type { LOCAL_SERVERS } from './probe-local';
import { providerSetup } from './provider-setup';
import { missingKey, type ProviderSettings } from './settings';
import { buildAgent, buildProvider } from './wiring';

export interface TuiWiringInput {
  readonly config: Config;
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
  /** Where the first-run panel looks for local servers (tests point it at their own). */
  readonly probe?: { readonly host: string; readonly servers: typeof LOCAL_SERVERS };
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
  const { config, files, settings, store, env, cwd, random, policy } = input;
  const approvals = createTuiApprover();
  const provider = new SwitchableProvider(missingKey(settings) ? null : buildProvider(settings, config, random), settings.name);
  const agent = buildAgent({ store, provider, policy, approver: approvals, settings, config, env, cwd });
  const setup = providerSetup({ settings, config, files, env, cwd, provider, random, ...(input.probe ? { probeHost: input.probe.host, servers: input.probe.servers } : {}) });
  return {
    agent,
    approvals,
    policy,
    provider,
    commands: hostCommands({ agent, store, sessionsDir: input.sessionsDir, random, providerUsable: () => provider.usable }),
    setup,
    ...(hasSessionStartHooks(config) ? { sessionStart: agent.sessionStart.bind(agent) } : {}),
  };
}
