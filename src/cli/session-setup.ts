import { dirname } from 'node:path';
import { childEnv } from '../core/child-env';
import type { ActiveProfile } from '../core/session/agent-profile';
import type { Agent } from '../core/session/agent';
import { sessionFact } from '../core/session/session-facts';
import { defaultSystemPrompt } from '../core/session/system-prompt';
import type { SessionStore } from '../core/storage/session-store';
import { builtinTools } from '../core/tools/builtin/index';
import { TASK_TOOL } from '../core/session/task-tool-name';
import {
  listProfiles,
  loadProfile,
  profilePlaces,
  type AgentProfile,
  type ProfileFile,
  type ProfilePlaces,
} from './agent-profiles';
import type { CliArgs } from './args';
import { ConfigError, userConfigPath, type Config } from './config';
import { loadInstructions, type Instructions } from './instructions';
import { PromptCommandError, promptText, type PromptSpec } from './prompt-text';
import type { GatedConfig } from './project-gate';
import type { FolderFingerprint } from './trust-store';
import { providerKeyVars, resolveProvider, type ProviderSettings } from './settings';

/** What a session's prompts and profiles are built from: fixed for the life of the process. */
export interface PromptContext {
  readonly config: Config;
  /** The config file named in errors. */
  readonly configFile: string;
  readonly workspaceRoot: string;
  readonly env: NodeJS.ProcessEnv;
  readonly places: ProfilePlaces;
  readonly knownTools: readonly string[];
  readonly instructions: Instructions;
  readonly nowIso: string;
}

/** An agent profile made ready to run: its prompt assembled, its commands run. */
interface ResolvedProfile {
  readonly active: ActiveProfile;
  readonly profile: AgentProfile | null;
  readonly file: ProfileFile | null;
}

export function promptContext(
  config: Config,
  configFile: string,
  workspaceRoot: string,
  env: NodeJS.ProcessEnv,
  projectTrusted: boolean,
  nowIso: string,
  trustedPrint: FolderFingerprint | null = null,
): PromptContext {
  return {
    config,
    configFile,
    workspaceRoot,
    env,
    places: profilePlaces(env, workspaceRoot, projectTrusted, trustedPrint),
    // A profile may list `task`: its agent starts sub-agents (a child's, children of its own).
    knownTools: [...builtinTools({ workspaceRoot, interactiveApprover: true }).map((tool) => tool.name), TASK_TOOL],
    instructions: loadInstructions(workspaceRoot, dirname(userConfigPath(env))),
    nowIso,
  };
}

/**
 * The system prompt and settings for `name` (null: no profile). The profile's `systemPrompt`
 * and `prompt` go over the config's; the system prompt is tole's own (or `systemPrompt`), then
 * the AGENTS.md instructions, then `prompt`. A prompt command that fails throws a ConfigError
 * naming it.
 */
export async function resolveProfile(
  ctx: PromptContext,
  name: string | null,
  signal?: AbortSignal,
): Promise<ResolvedProfile> {
  const loaded = name === null ? null : loadProfile(name, ctx.places, ctx.knownTools);
  const profile = loaded?.profile ?? null;
  const from = (field: 'systemPrompt' | 'prompt'): { spec: PromptSpec; origin: string } | null => {
    if (profile?.[field] !== undefined)
      return { spec: profile[field]!, origin: `agent profile ${loaded!.file.file}: field "${field}"` };
    const spec = ctx.config[field];
    return spec === undefined ? null : { spec, origin: `config ${ctx.configFile}: field "${field}"` };
  };
  const system = from('systemPrompt');
  const appended = from('prompt');
  const base = system === null ? defaultSystemPrompt(ctx.workspaceRoot, ctx.nowIso) : await run(ctx, system, signal);
  const extra = appended === null ? '' : await run(ctx, appended, signal);
  const systemPrompt = [base, ctx.instructions.text, extra]
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join('\n\n');
  const generation = { ...ctx.config.generation, ...profile?.generation };
  const active: ActiveProfile = {
    name,
    systemPrompt,
    ...(profile?.tools ? { tools: profile.tools } : {}),
    ...(profile?.maxSteps === undefined ? {} : { maxSteps: profile.maxSteps }),
    ...(profile?.compactionModel === undefined ? {} : { compactionModel: profile.compactionModel }),
    ...(Object.values(generation).some((v) => v !== undefined) ? { generation } : {}),
  };
  return { active, profile, file: loaded?.file ?? null };
}

async function run(
  ctx: PromptContext,
  from: { spec: PromptSpec; origin: string },
  signal: AbortSignal | undefined,
): Promise<string> {
  try {
    return await promptText(from.spec, {
      origin: from.origin,
      cwd: ctx.workspaceRoot,
      // Prompt commands get what hooks and the model's commands get: no secrets unless passed.
      env: childEnv(ctx.env, { passEnv: ctx.config.passEnv ?? [], drop: providerKeyVars(ctx.config) }),
      ...(ctx.config.hooks?.timeoutMs ? { timeoutMs: ctx.config.hooks.timeoutMs } : {}),
      ...(signal ? { signal } : {}),
      ...(ctx.config.trustedGitKeys ? { trustedGitKeys: ctx.config.trustedGitKeys } : {}),
    });
  } catch (error) {
    if (error instanceof PromptCommandError) throw new ConfigError(ctx.configFile, error.message);
    throw error;
  }
}

interface SessionChoice {
  /** The profile to start with (null: none). */
  readonly agent: string | null;
  /** The model to start with. */
  readonly model: string;
  readonly notices: readonly string[];
}

/**
 * The profile and model a session opens with. `--agent` and `--model` win; else what the session
 * recorded (`/agent`, `/model`: resume keeps them); else the config's `agent`, the profile's model,
 * the config's model.
 */
export function chooseProfileAndModel(
  args: CliArgs,
  config: Config,
  store: SessionStore,
  configuredModel: string,
  places: ProfilePlaces,
  profileModel: (name: string) => string | undefined,
): SessionChoice {
  const notices: string[] = [];
  const recordedAgent = sessionFact(store, 'agent');
  let agent = args.agent ?? recordedAgent ?? config.agent ?? null;
  if (args.agent === undefined && agent !== null && agent === recordedAgent && !profileExists(places, agent)) {
    notices.push(
      `this session ran with the agent profile "${agent}", which is no longer there: it goes on without one`,
    );
    agent = null;
  }
  const recordedModel = args.agent === undefined ? sessionFact(store, 'model') : undefined;
  const model = args.model ?? recordedModel ?? (agent === null ? undefined : profileModel(agent)) ?? configuredModel;
  return { agent, model, notices };
}

function profileExists(places: ProfilePlaces, name: string): boolean {
  return listProfiles(places).some((p) => p.name === name);
}

/** Tells the transcript (with the next prompt) which instruction files are in the prompt, when that changed. */
function announceInstructions(agent: Agent, store: SessionStore, instructions: Instructions): void {
  const list = instructions.files.map((f) => f.path).join('\n');
  if ((sessionFact(store, 'instructions') ?? '') === list) return;
  const text =
    instructions.files.length === 0
      ? 'instructions: no AGENTS.md files are loaded any more'
      : `instructions loaded: ${instructions.files.map((f) => `${f.path} (${f.bytes} bytes${f.cutBytes > 0 ? `, ${f.cutBytes} cut` : ''})`).join(', ')}`;
  agent.announce({ level: 'info', source: 'config', text });
  agent.noteFact('instructions', list);
}

export interface PreparedSession {
  readonly prompts: PromptContext;
  readonly resolved: ResolvedProfile;
  readonly model: string;
  /** The provider settings, changed when the profile names a provider. */
  readonly settings: ProviderSettings;
  /** For the user at start: what was ignored or could not be read. */
  readonly notices: readonly string[];
}

interface PrepareInput {
  readonly args: CliArgs;
  readonly gated: GatedConfig;
  readonly configFile: string;
  readonly store: SessionStore;
  readonly settings: ProviderSettings;
  readonly env: NodeJS.ProcessEnv;
  /** The session's workspace (real path). */
  readonly workspaceRoot: string;
  readonly nowIso: string;
}

/** The profile, prompt, model and provider a session opens with. Throws ConfigError for a bad profile or a failing prompt command. */
export async function prepareSession(input: PrepareInput): Promise<PreparedSession> {
  const { args, gated, configFile, store, env, workspaceRoot } = input;
  const { config } = gated;
  const prompts = promptContext(
    config,
    configFile,
    workspaceRoot,
    env,
    gated.projectTrusted,
    input.nowIso,
    gated.trustedPrint ?? null,
  );
  const choice = chooseProfileAndModel(
    args,
    config,
    store,
    input.settings.model,
    prompts.places,
    (name) => loadProfile(name, prompts.places, prompts.knownTools).profile.model,
  );
  const resolved = await resolveProfile(prompts, choice.agent);
  const provider = resolved.profile?.provider;
  const settings =
    provider === undefined
      ? input.settings
      : resolveProvider(args, { ...config, provider }, env, resolved.file?.file ?? configFile);
  return {
    prompts,
    resolved,
    model: choice.model,
    settings,
    notices: [...gated.notices, ...prompts.instructions.notices, ...choice.notices],
  };
}

/** After the agent is built: the instruction files and the starting choices go into the session with the next prompt. */
export function noteSessionStart(agent: Agent, store: SessionStore, prepared: PreparedSession): void {
  announceInstructions(agent, store, prepared.prompts.instructions);
  agent.noteFact('model', prepared.model);
  agent.noteFact('agent', prepared.resolved.active.name);
}
