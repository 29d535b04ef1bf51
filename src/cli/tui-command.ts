import { screenHistory } from './prompt-history-setup';
import { loadPromptTemplates } from './prompt-templates';
import { BUILT_IN_COMMANDS } from '../tui/commands/slash-commands';
import { applyKeymapOverrides } from '../tui/input/keymap-overrides';
import { closeSync, realpathSync } from 'node:fs';
import { argumentCompletions } from './argument-completions';
import { profilePlaces } from './agent-profiles';
import { WorkspaceFileIndex } from './workspace-file-index';
import { runTui, type TuiExit } from '../tui/run-tui';
import { multiplexerOf } from '../tui/commands/copy-answer';
import { tmuxClipboard } from './tmux-clipboard';
import { NOTIFY_DEFAULTS, showsOsc9 } from '../tui/status/terminal-signal';
import type { CliArgs } from './args';
import { runTrustPrompt } from '../tui/run-trust-prompt';
import { loadConfig, trustFolder, untrustedNotice, userOnlyNotice } from './config';
import { trustSummary, wouldAct } from './trust-summary';
import type { MainIo } from './main-io';
import { sessionPathFromArgs } from './open-session';
import { pickSession } from './pick-session';
import { sessionsDirectory } from './session-files';
import { ScreenSessions } from './screen-sessions';
import { resolveProvider } from './settings';
import { resumeFromServer } from './team-read';
import { exposedWorkspaceNotice, exposedWorkspaceReason } from './exposed-workspace';
import { buildPolicy, clock, systemRandom, unconfinedNotice } from './wiring';
import { findSandboxSoon } from './sandbox-soon';
import type { Sandbox } from '../core/tools/sandbox';
import { reportError } from './report-error';
import { gateProjectConfig } from './project-gate';
import { collectYoung } from './v8-flags';
import { resumeHint } from './resume-hint';
import { drawProvisionalFrame } from './provisional-frame';
import { asksRepeats, drawsLineSet } from '../tui/frame/repeat-probe';

/** `tole`, `tole -c`, `tole --resume [ID|PATH]`: the full-screen session (without an id, the picker first). */
export async function startTui(
  given: CliArgs,
  io: MainIo,
  sandboxSoon: Promise<Sandbox | null> = findSandboxSoon(io.env),
  onFirstFrame?: () => void,
): Promise<number> {
  let args = given;
  const loaded = loadConfig(io.cwd, io.env, { explicit: args.config, trust: args.trust });
  const { files, projectMcp, projectTrusted, project, fingerprint } = loaded;
  // An untrusted folder whose config or .tole would do something: ask once, before anything of it runs.
  const summary =
    fingerprint && !projectTrusted
      ? trustSummary({ folder: fingerprint.folder, project, mcp: projectMcp, fingerprint })
      : null;
  if (summary && wouldAct(summary) && process.stdin.isTTY && !args.readOnly) {
    const answer = await runTrustPrompt({
      summary,
      theme: args.theme ?? loaded.config.theme ?? 'dark',
      noColor: Boolean(io.env['NO_COLOR']),
    });
    if (answer === 'quit') return 0;
    if (answer === 'trust' && fingerprint) {
      trustFolder(io.env, fingerprint, new Date(clock.nowMs()).toISOString());
      return startTui(given, io, sandboxSoon, onFirstFrame);
    }
  }
  const userOnly = project ? userOnlyNotice(project, io.env) : null;
  const trustNotices = [
    ...(project && project.ignored.length > 0
      ? [untrustedNotice(project, 'to apply them, quit and run tole trust (or start tole with --trust)')]
      : []),
    ...(userOnly ? [userOnly] : []),
  ];
  const gated = gateProjectConfig(
    loaded.config,
    files,
    io.cwd,
    io.env,
    args.config,
    projectTrusted,
    loaded.fingerprint,
  );
  const { config } = gated;
  const configFile = files[files.length - 1] ?? 'tole.config.json';
  const settings = resolveProvider(args, config, io.env, configFile);
  const keymap = applyKeymapOverrides(config.keymap);
  const theme = args.theme ?? config.theme ?? 'dark';
  const noColor = Boolean(io.env['NO_COLOR']);
  const random = systemRandom();
  const sandbox = await sandboxSoon;
  const unconfined = unconfinedNotice(args, config, sandbox);
  const exposed = exposedWorkspaceReason(io.cwd, io.env);
  const policy = buildPolicy(args, config, true, configFile, sandbox, exposed);
  const dir = sessionsDirectory(io.env, config.sessionsDir);
  // A session only the team's server holds is pulled into a local file first.
  const pulled = await resumeFromServer(args, io.env, config, dir, io.cwd);
  args = pulled.args;
  // A session that is not there is named first; then, without a terminal, nothing is made for nothing.
  sessionPathFromArgs(args, dir, io.cwd);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.stderr.write(
      'tole: the full-screen session needs a terminal (stdin and stdout are not both a TTY); for a pipe or a script, use tole -p PROMPT\n',
    );
    return 1;
  }
  if (args.resume === '') {
    const picked = await pickSession(args, io.env, io.cwd, dir, { theme, noColor, keymap });
    if ('exitCode' in picked) return picked.exitCode;
    args = picked.args;
  }
  const sessions = new ScreenSessions({
    args,
    env: io.env,
    cwd: io.cwd,
    config,
    files,
    gated,
    configFile,
    settings,
    random,
    projectMcp: projectMcp ?? null,
    projectTrusted,
    sandbox,
    dir,
  });
  let exit: TuiExit | null = null;
  const startNotices = [
    ...trustNotices,
    ...(exposed ? [exposedWorkspaceNotice(exposed)] : []),
    ...(unconfined ? [unconfined] : []),
    ...(settings.keyWithheld ? [settings.keyWithheld] : []),
    ...pulled.notices,
  ];
  // A large session is drawn from its last bytes while the open checks it whole; if the checked
  // screen never comes (the file is refused), the terminal is given back before the error is told.
  let provisional = drawProvisionalFrame({
    path: sessionPathFromArgs(args, dir, io.cwd),
    stdout: process.stdout,
    stdin: process.stdin,
    theme,
    noColor,
    readOnly: args.readOnly === true,
    notices: startNotices,
  });
  try {
    const first = await sessions.first(args, startNotices, policy);
    const { opened: _opened, ...shown } = first;
    const history = screenHistory(io.env, io.cwd, first.store);
    const workspaceRoot = realpathSync(io.cwd);
    // runTui takes the terminal over from here (and gives it back however the screen ends).
    provisional?.handOver();
    provisional = null;
    exit = await runTui({
      ...shown,
      ...(history ? { history } : {}),
      mouse: config.mouse ?? true,
      repeatRuns: asksRepeats(io.env, config.repeatRuns),
      lineSet: drawsLineSet(io.env, config.repeatRuns),
      templates: loadPromptTemplates(
        io.env,
        io.cwd,
        projectTrusted,
        new Set([...BUILT_IN_COMMANDS, ...(shown.commands ?? [])].map((c) => c.name).concat(['rename', 'exit'])),
      ),
      completion: {
        paths: WorkspaceFileIndex.create(workspaceRoot),
        workspaceRoot,
        argumentsOf: argumentCompletions({
          profiles: profilePlaces(io.env, workspaceRoot, projectTrusted),
          sessionsDir: dir,
        }),
      },
      theme,
      noColor,
      keymap,
      switcher: sessions,
      multiplexer: multiplexerOf(io.env),
      ...(multiplexerOf(io.env) === 'tmux' ? { tmux: tmuxClipboard(io.env) } : {}),
      signals: { settings: { ...NOTIFY_DEFAULTS, ...config.notify }, osc9Shown: showsOsc9(io.env) },
      ...(onFirstFrame ? { onFirstFrame } : {}),
      collectYoung,
    });
    // Told as a failure outside the screen would be: a storage error with what to do, anything
    // unexpected as an internal error (its stack with TOLE_DEBUG set).
    if (exit.reason === 'crash') await reportError(exit.error, io);
    return exit.exitCode;
  } finally {
    provisional?.restore();
    // The session on screen at the end (and one half opened by a switch cut short) is let go.
    await sessions.releaseAll();
    if (exit?.reason === 'terminal-lost') letGoOfTheTerminal();
    else {
      const hint = resumeHint(exit?.store);
      if (hint) io.stdout.write(hint);
    }
  }
}

/**
 * The terminal is gone and the session is closed: close the standard streams that were a TTY.
 * On exit Node resets a TTY it found at start, and asserts (exit 134) when that fails with EIO;
 * it skips a descriptor that is closed. Nothing is opened after this, so no file takes their place.
 */
function letGoOfTheTerminal(): void {
  const streams: readonly (NodeJS.ReadStream | NodeJS.WriteStream)[] = [process.stdin, process.stdout, process.stderr];
  for (const [fd, stream] of streams.entries()) {
    if (!stream.isTTY) continue;
    stream.on('error', () => {});
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  }
}
