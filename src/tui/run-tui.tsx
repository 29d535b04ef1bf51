import './frame/ci-env-hide';
import { render } from 'ink';
import './frame/ci-env-restore';
import type { SessionStore } from '../core/storage/session-store';
import { SessionScreen, type ScreenSession, type SessionSwitcher } from './screen/SessionScreen';
import { CrashBoundary } from './frame/crash-boundary';
import { paced } from './frame/PacedFrames';
import { StreamedFrames } from './frame/frame-pacer';
import type { ApprovalQueue } from './approval/approval-queue';
import type { Multiplexer, TmuxClipboard } from './commands/copy-answer';
import type { Signals } from './status/use-signals';
import type { SessionAllowance } from './input/key-handler';
import type { HostCommand } from './commands/slash-commands';
import { FrameWriter } from './frame/frame-writer';
import { paneStartColumns } from './panes/layout';
import type { Binding } from './input/keymap';
import type { ProviderSetup } from './dialogs/provider-setup';
import type { SessionStartHook } from './screen/use-session-start';
import type { HistorySource } from './screen/use-ui-state';
import type { McpStatusSource } from './overlays/mcp-lines';
import type { ChildEventSource } from './usage/child-usage';
import { TerminalScreen } from './frame/terminal-screen';
import { ASCII_REPEAT_PROBE, REPEAT_PROBE, RepeatProbe } from './frame/repeat-probe';
import type { SyncStatusSource } from './status/use-sync-alert';
import { loadTheme, type Theme } from './style/theme';
import { TurnController, type TurnAgent } from './screen/turn-controller';
import { keyedStdin } from './input/key-chunks';
import { editInEditor, type EditorResult } from './prompt/external-editor';
import type { PromptTemplate } from './commands/prompt-template';
import type { AppProps } from './App';
import { IdleCollection } from './frame/idle-collection';
import type { AskedValues } from './prompt/completion-items';

export interface RunTuiOptions {
  readonly store: SessionStore;
  /** The Agent (built with `approvals` as its approver). */
  readonly agent: TurnAgent;
  /** `createTuiApprover()`: the same object the Agent's deps hold as `approver`. */
  readonly approvals: ApprovalQueue;
  /** The ApprovalPolicy the Agent uses: the `a` key calls its `allowForSession(tool)`. */
  readonly policy: SessionAllowance | null;
  /** A loaded theme, or a built-in name / theme file path. */
  readonly theme: Theme | string;
  /** True when `NO_COLOR` is set (non-empty) or colour is off by flag: no colour codes at all. */
  readonly noColor: boolean;
  /** Defaults to the store's own read-only flag (another tole holds the lock). */
  readonly readOnly?: boolean;
  /** Shown when the screen opens: "torn tail repaired at line 12". */
  readonly notices?: readonly string[];
  /** Slash commands the host adds, such as `/compact` and `/fork`. */
  readonly commands?: readonly HostCommand[];
  /** The keymap with the config's overrides applied (`applyKeymapOverrides`); default: the built-in one. */
  readonly keymap?: readonly Binding[];
  /** Local servers, and the first-run panel when no provider is usable (`setup.missing`). */
  readonly setup?: ProviderSetup;
  /** `agent.sessionStart`: run once the screen is open on a writable session; a block is shown. */
  readonly sessionStart?: SessionStartHook;
  /** The background sync whose failures the status bar shows. */
  readonly sync?: SyncStatusSource;
  /** The session's MCP servers: failures are flashed, and `?` lists their tools. */
  readonly mcp?: McpStatusSource;
  /** The session's sub-agents, whose usage the usage pane follows. */
  readonly subAgents?: ChildEventSource;
  /** The server's models, for `/model ` completion. */
  readonly models?: AskedValues;
  /** The multiplexer tole runs in (`multiplexerOf(env)`): `/copy` passes its sequence through it. */
  readonly multiplexer?: Multiplexer;
  /** Inside tmux: asked by `/copy` whether the clipboard sequence gets through. */
  readonly tmux?: TmuxClipboard;
  /** The bell and OSC 9 when an approval waits or a long turn ends while the terminal is unfocused; absent, none. */
  readonly signals?: Signals;
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
  /** Listen for SIGTERM, SIGHUP, SIGINT and uncaught errors to restore the terminal (default true). */
  readonly handleProcessEvents?: boolean;
  /** Called once, after the terminal is restored, with how the session ended. */
  readonly onExit?: (exit: TuiExit) => void;
  /** Called once, when the first frame has been drawn (tole's code cache is saved then). */
  readonly onFirstFrame?: () => void;
  /** Runs a young-generation collection: the screen calls it while idle after each turn (see IdleCollection). */
  readonly collectYoung?: (() => void) | null;
  /** Prompt templates (`/name` from a markdown file). */
  readonly templates?: readonly PromptTemplate[];
  /** The completion popup's sources (`@` paths, command arguments) and the workspace `@path` mentions are read from. */
  readonly completion?: Pick<AppProps, 'paths' | 'argumentsOf' | 'workspaceRoot'>;
  /** The mouse wheel scrolls the pane under the pointer (mouse reporting on while the screen is up). */
  readonly mouse?: boolean;
  /**
   * Ask the terminal whether it repeats characters (REP), and draw runs of one character (the
   * panes' rules) with it where it does (`asksRepeats`); default false.
   */
  readonly repeatRuns?: boolean;
  /**
   * Draw runs of box-drawing characters in the DEC special graphics set, one byte each, where no
   * REP is used (`drawsLineSet`: inside tmux); default false.
   */
  readonly lineSet?: boolean;
  /** The workspace's prompt history, oldest first (↑ brings them back), and where a sent prompt is kept. */
  readonly history?: { readonly prompts: HistorySource; readonly remember: (prompt: string) => void };
  /** `/new` and `/resume`: how the host opens another session in the screen (absent: they say they cannot). */
  readonly switcher?: SessionSwitcher;
}

/** How the screen ended, and the session it showed last (`/new` and `/resume` change it). */
export type TuiExit = Ending & { readonly store?: SessionStore };

type Ending =
  | { readonly reason: 'quit'; readonly exitCode: 0 }
  | { readonly reason: 'signal'; readonly signal: NodeJS.Signals; readonly exitCode: number }
  /** A write to (or read from) the terminal failed (EIO, EPIPE): the window was closed while SIGHUP was ignored. */
  | { readonly reason: 'terminal-lost'; readonly error: unknown; readonly exitCode: 129 }
  | { readonly reason: 'crash'; readonly error: unknown; readonly exitCode: 1 };

/** A running turn gets this long to settle as interrupted before the screen closes anyway. */
const STOP_TIMEOUT_MS = 3000;

const SIGNAL_CODES: Readonly<Record<string, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * Opens the full-screen session and resolves when it ends. The terminal is restored (main
 * screen, cursor shown, cooked mode) on every way out: quit, Ctrl-C, SIGTERM/SIGHUP, an error
 * thrown anywhere, a crash of the turn loop. The caller exits the process with `exitCode`.
 */
export function runTui(options: RunTuiOptions): Promise<TuiExit> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  if (!stdin.isTTY || !stdout.isTTY) {
    const error = new Error(
      'the full-screen session needs a terminal (stdin and stdout are not both a TTY); for a pipe or a script, use tole -p PROMPT',
    );
    return Promise.resolve({ reason: 'crash', error, exitCode: 1 });
  }
  const theme = typeof options.theme === 'string' ? loadTheme(options.theme) : options.theme;
  const handleProcess = options.handleProcessEvents ?? true;
  const screen = TerminalScreen.enter(stdout, stdin, options.mouse === true);
  const frames = new FrameWriter(stdout, options.noColor);
  frames.drawLineSet(options.lineSet === true);
  frames.tabStops(paneStartColumns);
  const repeats = options.repeatRuns === true ? new RepeatProbe() : null;
  if (repeats !== null) {
    stdout.write(options.lineSet === true ? ASCII_REPEAT_PROBE : REPEAT_PROBE);
    frames.repeatsOnceAnswered(repeats.answer);
  }
  let finished = false;
  let resolveExit!: (exit: TuiExit) => void;
  const exited = new Promise<TuiExit>((resolve) => (resolveExit = resolve));

  const first: ScreenSession = {
    store: options.store,
    agent: options.agent,
    approvals: options.approvals,
    policy: options.policy,
    readOnly: options.readOnly ?? options.store.readOnly,
    ...(options.notices ? { notices: options.notices } : {}),
    ...(options.commands ? { commands: options.commands } : {}),
    ...(options.setup ? { setup: options.setup } : {}),
    ...(options.sessionStart ? { sessionStart: options.sessionStart } : {}),
    ...(options.sync ? { sync: options.sync } : {}),
    ...(options.mcp ? { mcp: options.mcp } : {}),
    ...(options.subAgents ? { subAgents: options.subAgents } : {}),
    ...(options.models ? { models: options.models } : {}),
  };
  let onScreen = first.store;
  // One controller per session shown; `turns` is the one of the session on screen (/new, /resume change it).
  // They tell the frame pacer when streamed text is due, so other commits meanwhile are drawn with it.
  const streamed = new StreamedFrames();
  const idle = new IdleCollection(options.collectYoung ?? null);
  const turnsFor = (session: ScreenSession): TurnController =>
    new TurnController({
      frames: streamed,
      idle,
      agent: session.agent,
      nowMs: () => session.store.now(),
      onCrash: (error) => void finish({ reason: 'crash', error, exitCode: 1 }),
      readOnly: session.readOnly ?? session.store.readOnly,
    });
  let turns = turnsFor(first);

  const onSignal = (signal: NodeJS.Signals): void =>
    void finish({ reason: 'signal', signal, exitCode: SIGNAL_CODES[signal] ?? 1 });
  // A terminal that is gone ends tole like a hangup: the turn is interrupted and settled, and
  // nothing more is written to the terminal. The listeners stay, to swallow the failures of
  // writes still queued.
  const onTerminalError = (error: unknown): void => {
    screen.lose();
    frames.lose();
    void finish({ reason: 'terminal-lost', error, exitCode: 129 });
  };
  stdout.on('error', onTerminalError);
  stdin.on('error', onTerminalError);
  const onError = (error: unknown): void =>
    isTerminalFailure(error) ? onTerminalError(error) : void finish({ reason: 'crash', error, exitCode: 1 });
  const onProcessExit = (): void => screen.restore();
  // Ctrl-G: the prompt in the user's editor, the full screen down meanwhile and drawn whole after.
  const editText = (text: string): EditorResult =>
    editInEditor(text, process.env, {
      before: () => screen.suspend(),
      after: () => {
        screen.resume();
        frames.repaint();
      },
    });
  // The next frame, laid out for the new size, is drawn whole on a cleared screen.
  const onResize = (): void => frames.resized();
  const detach = (): void => {
    stdout.off('resize', onResize);
    if (!handleProcess) return;
    for (const signal of Object.keys(SIGNAL_CODES)) process.off(signal, onSignal);
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
    process.off('exit', onProcessExit);
  };

  async function finish(exit: Ending): Promise<void> {
    if (finished) return;
    finished = true;
    try {
      if (exit.reason !== 'crash') await turns.stop(STOP_TIMEOUT_MS);
    } finally {
      turns.dispose();
      try {
        instance.unmount();
      } catch {
        // Unmounting after a render error may throw again; the terminal comes back regardless.
      }
      screen.restore();
      detach();
      const ended = { ...exit, store: onScreen };
      options.onExit?.(ended);
      resolveExit(ended);
    }
  }

  const instance = render(
    paced(
      <CrashBoundary onCrash={onError}>
        <SessionScreen
          session={first}
          turnsFor={(session) => (session === first ? turns : turnsFor(session))}
          onSwitched={(session, next) => {
            onScreen = session.store;
            if (next) turns = next;
          }}
          {...(options.switcher ? { switcher: options.switcher } : {})}
          theme={theme}
          noColor={options.noColor}
          {...(options.keymap ? { keymap: options.keymap } : {})}
          editText={editText}
          {...(options.templates ? { templates: options.templates } : {})}
          {...options.completion}
          {...(options.history ? { history: options.history.prompts, rememberPrompt: options.history.remember } : {})}
          {...(options.multiplexer ? { multiplexer: options.multiplexer } : {})}
          {...(options.tmux ? { tmux: options.tmux } : {})}
          {...(options.signals ? { signals: options.signals } : {})}
          writeTerminal={(data) => {
            // Straight to the terminal, beside the frame writer: a control sequence is not a frame.
            if (!finished) stdout.write(data);
          }}
          onQuit={() => void finish({ reason: 'quit', exitCode: 0 })}
          onCrash={onError}
        />
      </CrashBoundary>,
      streamed,
    ),
    {
      stdout: frames.stream,
      stdin: keyedStdin(stdin, () => streamed.keyed(), repeats ? (key) => repeats.take(key) : undefined),
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 30,
    },
  );
  // Ink draws the first frame within render().
  options.onFirstFrame?.();
  instance.waitUntilExit().then(
    () => void finish({ reason: 'quit', exitCode: 0 }),
    (error: unknown) => void finish({ reason: 'crash', error, exitCode: 1 }),
  );
  stdout.on('resize', onResize);
  if (handleProcess) {
    for (const signal of Object.keys(SIGNAL_CODES)) process.on(signal, onSignal);
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    process.on('exit', onProcessExit);
  }
  return exited;
}

/** EIO or EPIPE on a read or write: the terminal (or the pipe behind it) is gone. */
function isTerminalFailure(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | null;
  return (e?.code === 'EIO' || e?.code === 'EPIPE') && (e.syscall === 'write' || e.syscall === 'read');
}
