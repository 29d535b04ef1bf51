import type { GenerationSettings } from '../core/provider/provider';
import type { Agent } from '../core/session/agent';
import { DEFAULT_COMPACTION_THRESHOLD, estimateTokens } from '../core/session/compaction';
import { contextView, renderView } from '../core/session/context';
import { currentHead } from '../core/session/cursor';
import type { SessionStore } from '../core/storage/session-store';
import { formatTokens } from '../tui/text/format';
import { tokenCounterFor } from './token-counters';
import type { CommandReport, HostCommand } from '../tui/commands/slash-commands';
import { listProfiles } from './agent-profiles';
import { resolveProfile, type PromptContext } from './session-setup';

interface AgentCommandParts {
  readonly agent: Pick<Agent, 'model' | 'profile' | 'effective' | 'switchProfile' | 'contextWindowOf' | 'isRunning'>;
  readonly store: SessionStore;
  readonly prompts: PromptContext;
  /** The provider in use. */
  readonly provider: () => { readonly name: string; readonly usable: boolean; readonly address?: string | null };
  /** Uses the named provider from the next call on (a profile's `provider`); returns its name. Throws when it cannot. */
  readonly switchProvider: (name: string, file: string) => string;
}

/** Profile names that go back to running without one. */
const NO_PROFILE = new Set(['-', 'none']);

/** `/agent [NAME]` and `/context`. */
export function agentCommands(parts: AgentCommandParts): HostCommand[] {
  const agentCommand: HostCommand = {
    name: 'agent',
    args: '[name]',
    help: 'list the agent profiles, or run with one from the next model call on (- : none)',
    run: async (args, ctx) => {
      if (args === '') return profileList(parts);
      if (ctx.readOnly) throw new Error('this session is open read-only: it cannot switch agents');
      const name = NO_PROFILE.has(args) ? null : args;
      const resolved = await ctx.runTask(`switching to ${name ?? 'no agent profile'}`, (signal) =>
        resolveProfile(parts.prompts, name, signal),
      );
      if (resolved === null) throw new Error('a turn is running: switch agents once it ends');
      const provider = resolved.profile?.provider;
      if (provider !== undefined && resolved.file) parts.switchProvider(provider, resolved.file.file);
      parts.agent.switchProfile(resolved.active, resolved.profile?.model);
      const tools = resolved.active.tools ? `tools ${resolved.active.tools.join(', ') || 'none'}` : 'every tool';
      return `agent: ${name ?? 'none'} · model ${parts.agent.model}${provider ? ` on ${provider}` : ''} · ${tools} (from the next model call on; the session keeps it)`;
    },
  };
  const contextCommand: HostCommand = {
    name: 'context',
    args: '',
    help: 'how full the context is, what is loaded (AGENTS.md, agent profile) and the settings in force',
    run: async () => contextReport(parts),
  };
  const toolsCommand: HostCommand = {
    name: 'tools',
    args: '',
    help: 'each tool offered to the model: its risk tier, replay class, and whether this agent profile allows it',
    run: () => toolsReport(parts),
  };
  return [agentCommand, contextCommand, toolsCommand];
}

function profileList(parts: AgentCommandParts): CommandReport {
  const profiles = listProfiles(parts.prompts.places);
  const current = parts.agent.profile.name;
  const lines =
    profiles.length === 0
      ? [
          `No agent profiles yet. Put one in ${parts.prompts.places.userDir}/NAME.json (see examples/agents/ in tole's repository).`,
        ]
      : profiles.map(
          (p) =>
            `${p.name === current ? '▸' : ' '} ${p.name.padEnd(16)} ${p.from === 'project' ? 'project' : 'user   '}  ${p.file}`,
        );
  return {
    title: 'agents',
    lines: [
      ...lines,
      '',
      `running: ${current ?? 'no profile'}  ·  /agent NAME switches from the next model call on, /agent - goes back to none`,
    ],
  };
}

/** `/tools`: every registered tool (MCP ones included), its tier and replay class, and whether the profile allows it. */
function toolsReport(parts: AgentCommandParts): CommandReport {
  const listing = parts.agent.effective.tools.listing();
  const profile = parts.agent.profile.name;
  const lines = listing.map(
    ({ tool, offered }) =>
      `${offered ? '✓' : '✗'} ${tool.name.padEnd(28)} ${String(tool.declaredRisk).padEnd(12)} ${tool.replay.padEnd(12)} ${offered ? 'allowed' : `not allowed by ${profile ?? 'the profile'}`}`,
  );
  const allowed = listing.filter((t) => t.offered).length;
  return {
    title: 'tools',
    lines: [
      `  ${'tool'.padEnd(28)} ${'risk'.padEnd(12)} ${'replay'.padEnd(12)} profile`,
      ...(lines.length === 0 ? ['  no tools are registered'] : lines),
      '',
      `${allowed} of ${listing.length} offered to the model · agent profile: ${profile ?? 'none (every tool)'}`,
    ],
  };
}

/** `/context`: the estimated fill of the window, part by part, what is loaded, and the settings. */
async function contextReport(parts: AgentCommandParts): Promise<CommandReport> {
  const { agent, store, prompts } = parts;
  const effective = agent.effective;
  const view = contextView(store.tree.pathTo(currentHead(store).entryId));
  const messages = renderView(effective.systemPrompt, view);
  const tools = effective.tools.definitions();
  const counter = await tokenCounterFor(agent.model);
  const system = estimateTokens([messages[0]!], [], counter);
  const instructions =
    prompts.instructions.text === ''
      ? 0
      : estimateTokens([{ role: 'system', content: prompts.instructions.text }], [], counter);
  const toolTokens = estimateTokens([], tools, counter);
  const conversation = estimateTokens(messages.slice(1), [], counter);
  const total = system + toolTokens + conversation;
  const window = await agent.contextWindowOf(AbortSignal.timeout(10_000)).catch(() => null);
  const threshold = effective.compaction?.threshold ?? DEFAULT_COMPACTION_THRESHOLD;
  const fill =
    window === null
      ? `~${formatTokens(total)} tokens; the context window is not known, so automatic compaction is off (set "compaction": { "contextWindow": N } in the config)`
      : `~${formatTokens(total)} of ${formatTokens(window.tokens)} tokens (${Math.round((total / window.tokens) * 100)}%) · window from ${window.source} · compacts at ${Math.round(threshold * 100)}%`;
  const files = prompts.instructions.files;
  const profile = agent.profile;
  const provider = parts.provider();
  return {
    title: 'context',
    lines: [
      fill,
      `  ${counter.method} (model ${agent.model})`,
      `  system prompt   ~${formatTokens(system)}${instructions > 0 ? ` (AGENTS.md ~${formatTokens(instructions)} of it)` : ''}`,
      `  tools (${tools.length})       ~${formatTokens(toolTokens)}`,
      `  conversation    ~${formatTokens(conversation)} (${messages.length - 1} message${messages.length === 2 ? '' : 's'}${view.summary ? ', after a summary' : ''})`,
      '',
      'loaded',
      ...(files.length === 0
        ? ['  no AGENTS.md files']
        : files.map(
            (f) => `  ${f.path} (${f.bytes} bytes${f.cutBytes > 0 ? `, ${f.cutBytes} left out by the cap` : ''})`,
          )),
      ...prompts.instructions.notices.map((n) => `  ! ${n}`),
      `  agent profile: ${profile.name ?? 'none'}`,
      '',
      'settings',
      `  model ${agent.model} on ${provider.name}${provider.address ? ` at ${provider.address}` : ''}${provider.usable ? '' : ' (not set up)'}`,
      `  tools ${tools.map((t) => t.name).join(', ') || 'none'}`,
      `  max steps ${effective.limits.maxSteps} · compaction model ${effective.compaction?.model ?? agent.model}`,
      `  generation ${describeGeneration(effective.generation)}`,
    ],
  };
}

function describeGeneration(generation: GenerationSettings | undefined): string {
  const parts = Object.entries(generation ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${Array.isArray(value) ? JSON.stringify(value) : String(value)}`);
  return parts.length === 0 ? "the server's defaults" : parts.join(', ');
}
