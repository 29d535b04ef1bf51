import { createTuiApprover } from '../tui/approval-queue';
import { runTui } from '../tui/run-tui';
import type { CliArgs } from './args';
import { loadConfig } from './config';
import type { MainIo } from './main';
import { openSession, sessionPathFromArgs } from './open-session';
import { sessionsDirectory } from './session-files';
import { resolveProvider } from './settings';
import { buildAgent, buildPolicy, buildProvider, systemRandom } from './wiring';

/** `tole`, `tole -c`, `tole --resume ID|PATH`: the full-screen session. */
export async function startTui(args: CliArgs, io: MainIo): Promise<number> {
  const { config, files } = loadConfig(io.cwd, io.env, args.config);
  const configFile = files[files.length - 1] ?? 'tole.config.json';
  const settings = resolveProvider(args, config, io.env, configFile);
  const random = systemRandom();
  const policy = buildPolicy(args, config, true, configFile);
  const dir = sessionsDirectory(io.env, config.sessionsDir);
  // A session that is not there is named first; then, without a terminal, nothing is made for nothing.
  sessionPathFromArgs(args, dir, io.cwd);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.stderr.write('tole: the full-screen session needs a terminal (stdin and stdout are not both a TTY); for a pipe or a script, use tole -p PROMPT\n');
    return 1;
  }
  const { store, notices } = openSession(args, dir, io.cwd, random);
  try {
    const approvals = createTuiApprover();
    const provider = buildProvider(settings, config, random);
    const agent = buildAgent({ store, provider, policy, approver: approvals, settings, config, env: io.env, cwd: io.cwd });
    const exit = await runTui({
      store,
      agent,
      approvals,
      policy,
      theme: args.theme ?? config.theme ?? 'dark',
      noColor: Boolean(io.env['NO_COLOR']),
      notices,
    });
    if (exit.reason === 'crash') io.stderr.write(`tole: ${(exit.error as Error)?.message ?? String(exit.error)}\n`);
    return exit.exitCode;
  } finally {
    store.close();
  }
}
