import packageJson from '../../package.json';
import { parseArgs, UsageError, type CliArgs } from './args';
import { HELP_TEXT } from './help';
import { findSandboxSoon } from './sandbox-soon';
import type { StorageError as StorageErrorType } from '../core/storage/errors';
import { missingModuleMessage } from '../core/missing-module';

// Only what every start needs is imported here: each command's code (the session, the provider
// client, MCP, sync) is loaded by import() when that command runs, so `tole --version` and the
// first frame do not compile it (the build puts each in its own chunk).

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
    return await reportError(error, io);
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
      return (await import('./check-command')).runCheck(args, io);
    case 'sessions':
      return (await import('./sessions-command')).runSessions(args, io);
    case 'export':
      return (await import('./export-command')).runExport(args, io);
    case 'convert':
      return (await import('./convert-command')).runConvert(args, io);
    case 'sync':
      return (await import('./sync-command')).runSync(args, io);
    case 'restore':
      return (await import('./restore-command')).runRestore(args, io);
    case 'unlock':
      return (await import('./unlock-command')).runUnlock(args, io);
    case 'trust':
      return (await import('./trust-command')).runTrust(args, io);
    case 'headless':
      return runHeadlessCommand(args, io);
    case 'tui':
      return runTuiCommand(args, io);
  }
}

async function runHeadlessCommand(args: CliArgs, io: MainIo): Promise<number> {
  // As for the screen: the sandbox is tried while the command's code loads.
  const sandbox = findSandboxSoon(io.env);
  const { runHeadlessCommand } = await import('./headless-command');
  return runHeadlessCommand(args, io, sandbox);
}

async function runTuiCommand(args: CliArgs, io: MainIo): Promise<number> {
  // The sandbox is tried (a child process) while the session's code loads.
  const sandbox = findSandboxSoon(io.env);
  const { startTui } = await import('./tui-command');
  return startTui(args, io, sandbox);
}

/** What to do next, for the storage failures a user meets. */
function storageHint(error: StorageErrorType): string {
  const { path, line } = error.details;
  if (error.kind === 'corrupt' && path && line && line > 1) {
    return ` (to recover what came before it: head -n ${line - 1} ${path} > recovered.jsonl, then tole --resume recovered.jsonl; tole check shows what the file holds)`;
  }
  if (error.kind === 'locked' && path)
    return ` (to read it while it is open: tole export ${path}, or tole --resume ${path} --read-only)`;
  return '';
}

/**
 * The message and exit code for a failure. The error classes are loaded here, after the failure:
 * a command that threw one has loaded its module already (the same instance), and no start pays
 * for them otherwise.
 */
async function reportError(error: unknown, io: MainIo): Promise<number> {
  if (error instanceof UsageError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return 2;
  }
  // A chunk of the build that could not be loaded: say so before loading more of them.
  const missing = missingModuleMessage(error);
  if (missing !== null) {
    io.stderr.write(`tole: ${missing}\n`);
    return 1;
  }
  let classes: Awaited<ReturnType<typeof errorClasses>>;
  try {
    classes = await errorClasses();
  } catch (loadError) {
    io.stderr.write(`tole: ${missingModuleMessage(loadError) ?? String(loadError)}; the failure: ${describe(error)}\n`);
    return 1;
  }
  const [{ ConfigError }, { StorageError }, { ProviderError }, { SyncError }, { ToolRegistrationError }] = classes;
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
  io.stderr.write(`tole: internal error: ${describe(error)}\n${io.env['TOLE_DEBUG'] ? `${e?.stack}\n` : ''}`);
  return 1;
}

function describe(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

/** The error classes a failure is told apart by, loaded only once something failed. */
function errorClasses() {
  return Promise.all([
    import('./config'),
    import('../core/storage/errors'),
    import('../core/provider/errors'),
    import('../core/sync/database'),
    import('../core/tools/registry'),
  ]);
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
