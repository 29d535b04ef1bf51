import packageJson from '../../package.json';
import { parseArgs, type CliArgs } from './args';
import { argvWithoutPasswords, passwordInArgvWarning } from './password-in-argv';
import { HELP_TEXT } from './help';
import { findSandboxSoon } from './sandbox-soon';
import { reportError } from './report-error';
import type { MainIo } from './main-io';
import { shownOnTerminal } from './terminal-output';
import { keepPathOutOfWorkspace } from '../core/tools/path-outside-workspace';
import { workspaceFolders } from '../core/tools/workspace-folders';

// Only what every start needs is imported here: each command's code (the session, the provider
// client, MCP, sync) is loaded by import() when that command runs, so `tole --version` and the
// first frame do not compile it (the build puts each in its own chunk).

export async function main(given: MainIo): Promise<number> {
  // Every program tole starts (bash for a hook or a prompt command, git, setpriv, the sandbox's
  // bwrap, an MCP server) is found on this PATH, in the workspace or with it as the folder: no
  // entry may lead into the workspace, whose files the repository and confined commands write.
  // The real tole's env is process.env, which libraries starting programs read too. The workspace
  // is the start folder and every repository root above it (`cd repo/sub && tole`).
  keepPathOutOfWorkspace(given.env, workspaceFolders(given.cwd, given.env['HOME']));
  // What the commands print to a terminal is shown, never acted on (the full screen draws apart).
  const io: MainIo = { ...given, stdout: shownOnTerminal(given.stdout), stderr: shownOnTerminal(given.stderr) };
  try {
    const args = parseArgs(io.argv);
    const exposed = passwordInArgvWarning(args);
    if (exposed !== null) {
      // From here on ps shows the command without the password; it was visible until now.
      io.retitle?.(['tole', ...argvWithoutPasswords(io.argv)].join(' '));
      io.stderr.write(exposed);
    }
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

/** Set by the build: the file (beside dist/tole.js) that holds `tole -p`'s code. */
declare const TOLE_HEADLESS_BUNDLE: string | undefined;

async function runHeadlessCommand(args: CliArgs, io: MainIo): Promise<number> {
  // As for the screen: the sandbox is tried while the command's code loads.
  const sandbox = findSandboxSoon(io.env);
  // Built: the command's code is one script, compiled with tole's code cache (see headless-loader);
  // from source (tests under tsx), its modules. The build keeps only the first branch.
  return typeof TOLE_HEADLESS_BUNDLE === 'string'
    ? (await import('./headless-loader')).runHeadlessBundle(
        new URL(TOLE_HEADLESS_BUNDLE, import.meta.url),
        args,
        io,
        sandbox,
      )
    : (await import('./headless-command')).runHeadlessCommand(args, io, sandbox);
}

/** Set by the build: the file (beside dist/tole.js) that holds the full-screen session's code. */
declare const TOLE_SCREEN_BUNDLE: string | undefined;

async function runTuiCommand(args: CliArgs, io: MainIo): Promise<number> {
  // The sandbox is tried (a child process) while the session's code loads.
  const sandbox = findSandboxSoon(io.env);
  // A large session `--resume PATH` names is checked by a worker while the session's code loads.
  if (args.resume?.includes('/') || args.resume?.endsWith('.jsonl'))
    await (await import('./resume-check-early')).checkResumedEarly(args.resume, io.cwd);
  // Built: the session's code is one script, compiled with tole's code cache (see screen-loader);
  // from source (tests under tsx), its modules. The build keeps only the first branch.
  return typeof TOLE_SCREEN_BUNDLE === 'string'
    ? (await import('./screen-loader')).runScreenBundle(new URL(TOLE_SCREEN_BUNDLE, import.meta.url), args, io, sandbox)
    : (await import('./tui-command')).startTui(args, io, sandbox);
}

const isEntry = process.argv[1] !== undefined && /tole(\.js)?$|main\.ts$/.test(process.argv[1]);
if (isEntry) {
  const code = await main({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    retitle: (title) => {
      process.title = title;
    },
  });
  process.exit(code);
}
