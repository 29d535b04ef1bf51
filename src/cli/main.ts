import packageJson from '../../package.json';
import { ProviderError } from '../core/provider/errors';
import { StorageError } from '../core/storage/errors';
import { ToolRegistrationError } from '../core/tools/registry';
import { parseArgs, UsageError, type CliArgs } from './args';
import { runCheck } from './check-command';
import { runConvert } from './convert-command';
import { runExport } from './export-command';
import { runRestore } from './restore-command';
import { runSessions } from './sessions-command';
import { runSync, syncAfterHeadlessTurn } from './sync-command';
import { resumeFromServer } from './team-read';
import { SyncError } from '../core/sync/database';
import { runUnlock } from './unlock-command';
import { ConfigError, loadConfig, untrustedNotice } from './config';
import { runTrust } from './trust-command';
import { runHeadless } from './headless';
import { HELP_TEXT } from './help';
import { openSession, sessionWorkspace } from './open-session';
import { sessionsDirectory } from './session-files';
import { authHint, missingKey, resolveProvider, type ProviderSettings } from './settings';
import { buildPolicy, buildProvider, buildSession, clock, findSandbox, systemRandom, unconfinedNotice } from './wiring';
import { planMcpServers } from './mcp-setup';
import { reportMcpEvents, skippedServerNotices } from '../core/mcp/mcp-notices';
import { gateProjectConfig } from './project-gate';
import { noteSessionStart, prepareSession } from './session-setup';
import { realpathSync } from 'node:fs';

export interface MainIo {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

export async function main(io: MainIo): Promise<number> {
  try {
    const args = parseArgs(io.argv);
    return await dispatch(args, io);
  } catch (error) {
    return reportError(error, io);
  }
}

async function dispatch(args: CliArgs, io: MainIo): Promise<number> {
  switch (args.command) {
    case 'help':
      io.stdout.write(HELP_TEXT);
      return 0;
    case 'version':
      io.stdout.write(`tole ${packageJson.version}\n`);
      return 0;
    case 'check':
      return runCheck(args, io);
    case 'sessions':
      return runSessions(args, io);
    case 'export':
      return runExport(args, io);
    case 'convert':
      return runConvert(args, io);
    case 'sync':
      return runSync(args, io);
    case 'restore':
      return runRestore(args, io);
    case 'unlock':
      return runUnlock(args, io);
    case 'trust':
      return runTrust(args, io);
    case 'headless':
      return runHeadlessCommand(args, io);
    case 'tui':
      return runTuiCommand(args, io);
  }
}

async function runHeadlessCommand(args: CliArgs, io: MainIo): Promise<number> {
  const loaded = loadConfig(io.cwd, io.env, { explicit: args.config, trust: args.trust });
  const { projectMcp, projectTrusted, project } = loaded;
  if (project && project.ignored.length > 0)
    io.stderr.write(
      `tole: ${untrustedNotice(project, 'to apply them, trust this folder with tole trust (or run with --trust)')}\n`,
    );
  const gated = gateProjectConfig(loaded.config, loaded.files, io.cwd, io.env, args.config, projectTrusted);
  const { config } = gated;
  const configFile = loaded.files[loaded.files.length - 1] ?? 'tole.config.json';
  const configured = resolveProvider(args, config, io.env, configFile);
  // Before a session is made: unless a profile may name another provider, a missing key is known now.
  const profileMayChoose =
    args.agent !== undefined || config.agent !== undefined || args.resume !== undefined || args.continueLast;
  if (!profileMayChoose && missingKey(configured)) return noKey(configured, io);
  const random = systemRandom();
  const sandbox = findSandbox(io.env);
  const unconfined = unconfinedNotice(args, config, sandbox);
  if (unconfined) io.stderr.write(`tole: ${unconfined}\n`);
  if (configured.keyWithheld) io.stderr.write(`tole: ${configured.keyWithheld}\n`);
  const policy = buildPolicy(args, config, false, configFile, sandbox);
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
    const { agent, mcp } = buildSession({
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
    });
    noteSessionStart(agent, store, prepared);
    const say = (text: string): void => {
      if (args.output === 'json') io.stdout.write(`${JSON.stringify({ type: 'notice', level: 'warn', text })}\n`);
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
        [...pulled.notices, ...notices, ...workspace.notices, ...prepared.notices, ...mcpNotices],
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

async function runTuiCommand(args: CliArgs, io: MainIo): Promise<number> {
  const { startTui } = await import('./tui-command');
  return startTui(args, io);
}

/** What to do next, for the storage failures a user meets. */
function storageHint(error: StorageError): string {
  const { path, line } = error.details;
  if (error.kind === 'corrupt' && path && line && line > 1) {
    return ` (to recover what came before it: head -n ${line - 1} ${path} > recovered.jsonl, then tole --resume recovered.jsonl; tole check shows what the file holds)`;
  }
  if (error.kind === 'locked' && path)
    return ` (to read it while it is open: tole export ${path}, or tole --resume ${path} --read-only)`;
  return '';
}

function reportError(error: unknown, io: MainIo): number {
  if (error instanceof UsageError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return 2;
  }
  if (error instanceof ConfigError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return 2;
  }
  if (error instanceof StorageError) {
    io.stderr.write(`tole: ${error.message}${storageHint(error)}\n`);
    return 1;
  }
  if (error instanceof ProviderError) {
    io.stderr.write(`tole: ${error.message}${error.hint ? ` (${error.hint})` : ''}\n`);
    return 1;
  }
  if (error instanceof SyncError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return error.kind === 'url' ? 2 : 1;
  }
  if (error instanceof ToolRegistrationError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return 1;
  }
  const e = error as Error;
  io.stderr.write(
    `tole: internal error: ${e?.message ?? String(error)}\n${io.env['TOLE_DEBUG'] ? `${e?.stack}\n` : ''}`,
  );
  return 1;
}

const isEntry = process.argv[1] !== undefined && /tole(\.js)?$|main\.ts$/.test(process.argv[1]);
if (isEntry) {
  const code = await main({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
  });
  process.exit(code);
}
