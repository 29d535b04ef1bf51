import './ci-env-hide';
import { render } from 'ink';
import './ci-env-restore';
import { FrameWriter } from './frame-writer';
import type { Binding } from './keymap';
import type { PickerSession } from './picker-rows';
import { SessionPicker } from './SessionPicker';
import { TerminalScreen } from './terminal-screen';
import { loadTheme, type Theme } from './theme';
import { ThemeContext, themeView } from './theme-context';

export interface RunPickerOptions {
  readonly sessions: readonly PickerSession[];
  readonly cwd: string;
  readonly home: string;
  readonly nowMs: number;
  readonly theme: Theme | string;
  readonly noColor: boolean;
  readonly keymap?: readonly Binding[];
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
}

export type PickerExit =
  | { readonly reason: 'chosen'; readonly session: PickerSession }
  | { readonly reason: 'quit' }
  | { readonly reason: 'signal'; readonly signal: NodeJS.Signals; readonly exitCode: number };

const SIGNAL_CODES: Readonly<Record<string, number>> = { SIGHUP: 129, SIGTERM: 143 };

/**
 * `tole --resume` without an id: the picker, full screen, on its own. Resolves with the session
 * chosen (the caller then opens it) or with how it was left; the terminal is restored either way.
 */
export function runPicker(options: RunPickerOptions): Promise<PickerExit> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const theme = typeof options.theme === 'string' ? loadTheme(options.theme) : options.theme;
  const screen = TerminalScreen.enter(stdout, stdin);
  const frames = new FrameWriter(stdout, options.noColor);
  let resolveExit!: (exit: PickerExit) => void;
  const exited = new Promise<PickerExit>((resolve) => (resolveExit = resolve));
  let done = false;
  const onSignal = (signal: NodeJS.Signals): void =>
    finish({ reason: 'signal', signal, exitCode: SIGNAL_CODES[signal] ?? 1 });
  const onResize = (): void => {
    screen.clear();
    frames.repaint();
  };
  function finish(exit: PickerExit): void {
    if (done) return;
    done = true;
    instance.unmount();
    screen.restore();
    stdout.off('resize', onResize);
    for (const signal of Object.keys(SIGNAL_CODES)) process.off(signal, onSignal);
    resolveExit(exit);
  }
  const instance = render(
    <ThemeContext.Provider value={themeView(theme, options.noColor)}>
      <SessionPicker
        sessions={options.sessions}
        cwd={options.cwd}
        home={options.home}
        nowMs={options.nowMs}
        {...(options.keymap ? { keymap: options.keymap } : {})}
        onChoose={(session) => finish({ reason: 'chosen', session })}
        onQuit={() => finish({ reason: 'quit' })}
      />
    </ThemeContext.Provider>,
    { stdout: frames.stream, stdin, exitOnCtrlC: false, patchConsole: false, maxFps: 30 },
  );
  stdout.on('resize', onResize);
  for (const signal of Object.keys(SIGNAL_CODES)) process.on(signal, onSignal);
  return exited;
}
