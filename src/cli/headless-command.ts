/** `tole -p PROMPT`: one turn without a screen, loaded by main only for this command. */
import { syncAfterHeadlessTurn } from './sync-command';
import { resumeFromServer } from './team-read';
import { loadConfig, untrustedNotice, userOnlyNotice } from './config';
import { runHeadless } from './headless';
import { openSession, sessionWorkspace } from './open-session';
import { sessionsDirectory } from './session-files';
import { authHint, missingKey, resolveProvider, type ProviderSettings } from './settings';
import { exposedWorkspaceNotice, exposedWorkspaceReason } from './exposed-workspace';
import { childProfiles } from './child-profiles';
import { childProviders } from './child-providers';
import { indexKeyIn } from './index-key';
import { toleHome } from './tole-home';
import { buildPolicy, buildProvider, buildSession, clock, systemRandom, unconfinedNotice } from './wiring';
import { findSandboxSoon } from './sandbox-soon';
import type { Sandbox } from '../core/tools/sandbox';
import { planMcpServers } from './mcp-setup';
import { reportMcpEvents, skippedServerNotices } from '../core/mcp/mcp-notices';
import { gateProjectConfig } from './project-gate';
import { noteSessionStart, prepareSession } from './session-setup';
import { realpathSync } from 'node:fs';
import type { CliArgs } from './args';
import type { MainIo } from './main-io';
import { terminalSafeJson } from '../core/terminal-text';

export async function runHeadlessCommand(
  args: CliArgs,
  io: MainIo,
  sandboxSoon: Promise<Sandbox | null> = findSandboxSoon(io.env),
): Promise<number> {
  const loaded = loadConfig(io.cwd, io.env, { explicit: args.config, trust: args.trust });
  const { projectMcp, projectTrusted, project } = loaded;
  if (project && project.ignored.length > 0)
    io.stderr.write(
      `tole: ${untrustedNotice(project, 'to apply them, trust this folder with tole trust (or run with --trust)')}\n`,
    );
  const userOnly = project ? userOnlyNotice(project, io.env) : null;
  if (userOnly) io.stderr.write(`tole: ${userOnly}\n`);
  const gated = gateProjectConfig(
    loaded.config,
    loaded.files,
    io.cwd,
    io.env,
    args.config,
    projectTrusted,
    loaded.fingerprint,
  );
  const { config } = gated;
  const configFile = loaded.files[loaded.files.length - 1] ?? 'tole.config.json';
  const configured = resolveProvider(args, config, io.env, configFile);
  // Before a session is made: unless a profile may name another provider, a missing key is known now.
  const profileMayChoose =
    args.agent !== undefined || config.agent !== undefined || args.resume !== undefined || args.continueLast;
  if (!profileMayChoose && missingKey(configured)) return noKey(configured, io);
  const random = systemRandom();
  const sandbox = await sandboxSoon;
  const unconfined = unconfinedNotice(args, config, sandbox);
  if (unconfined) io.stderr.write(`tole: ${unconfined}\n`);
  if (configured.keyWithheld) io.stderr.write(`tole: ${configured.keyWithheld}\n`);
  const exposed = exposedWorkspaceReason(io.cwd, io.env);
  if (exposed) io.stderr.write(`tole: ${exposedWorkspaceNotice(exposed)}\n`);
  const policy = buildPolicy(args, config, false, configFile, sandbox, exposed);
  const dir = sessionsDirectory(io.env, config.sessionsDir);
  const pulled = await resumeFromServer(args, io.env, config, dir, io.cwd);
  const { store, notices } = openSession(pulled.args, dir, io.cwd, random);
  let code: number;
  try {
    const workspace = sessionWorkspace(store, io.cwd);
    const workspaceRoot = realpathSync(workspace.cwd);
    const prepared = await prepareSession({
      args,
      gated,
      configFile,
      store,
      settings: configured,
      env: io.env,
      workspaceRoot,
      nowIso: new Date(clock.nowMs()).toISOString(),
    });
    const { settings } = prepared;
    if (missingKey(settings)) return noKey(settings, io);
    const provider = buildProvider(settings, config, random);
    const mcpPlan = planMcpServers({ config, projectMcp, projectTrusted, env: io.env, workspaceRoot });
    const {
      agent,
      mcp,
      notices: sessionNotices,
    } = buildSession({
      store,
      provider,
      policy,
      approver: null,
      settings,
      config,
      env: io.env,
      cwd: workspace.cwd,
      mcp: mcpPlan,
      profile: prepared.resolved.active,
      model: prepared.model,
      sandbox,
      childProfile: childProfiles(prepared.prompts, childProviders({ args, config, env: io.env, random })),
      indexKey: indexKeyIn(toleHome(io.env)),
    });
    noteSessionStart(agent, store, prepared);
    const say = (text: string): void => {
      if (args.output === 'json') io.stdout.write(`${terminalSafeJson({ type: 'notice', level: 'warn', text })}\n`);
      else io.stderr.write(`tole: ${text}\n`);
    };
    const unsubscribe = mcp ? reportMcpEvents(mcp, say) : () => {};
    try {
      const mcpNotices = mcp ? skippedServerNotices(mcp.statuses()) : [];
      code = await runHeadless(
        agent,
        store,
        args.prompt ?? '',
        args.output,
        io,
        [...pulled.notices, ...notices, ...workspace.notices, ...prepared.notices, ...sessionNotices, ...mcpNotices],
        authHint(settings, io.env),
      );
    } finally {
      unsubscribe();
      await mcp?.close();
    }
  } finally {
    store.close();
  }
  // After the turn, with the session closed (so the server learns nobody holds it): a failed
  // sync is told, never turned into a failed turn; the next sync ships what this one did not.
  await syncAfterHeadlessTurn(config, io);
  return code;
}

function noKey(settings: ProviderSettings, io: MainIo): number {
  io.stderr.write(
    `tole: no API key for ${settings.baseUrl}: set ${settings.apiKeyEnv ?? 'OPENAI_API_KEY'}, or point --base-url at a local server that needs none (Ollama, llama.cpp, LM Studio), e.g. --base-url http://127.0.0.1:11434/v1\n`,
  );
  return 2;
}
