import './frame/ci-env-hide';
import { render } from 'ink';
import './frame/ci-env-restore';
import type { ReactElement } from 'react';
import { FrameWriter } from './frame/frame-writer';
import { TerminalScreen } from './frame/terminal-screen';
import { loadTheme, type Theme } from './style/theme';
import { ThemeContext, themeView } from './style/theme-context';
import { keyedStdin } from './input/key-chunks';
import { paced } from './frame/PacedFrames';

interface RunAloneOptions {
  readonly theme: Theme | string;
  readonly noColor: boolean;
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
}

const SIGNALS = ['SIGHUP', 'SIGTERM'] as const;

/**
 * One screen shown full screen on its own before a session opens (the session picker, the
 * trust question): resolves with what `body` finishes with, or what `onSignal` makes of a hangup
 * or SIGTERM; the terminal is restored either way.
 */
export function runAlone<T>(
  options: RunAloneOptions,
  onSignal: (signal: NodeJS.Signals) => T,
  body: (finish: (result: T) => void) => ReactElement,
): Promise<T> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const theme = typeof options.theme === 'string' ? loadTheme(options.theme) : options.theme;
  const screen = TerminalScreen.enter(stdout, stdin);
  const frames = new FrameWriter(stdout, options.noColor);
  let resolveResult!: (result: T) => void;
  const finished = new Promise<T>((resolve) => (resolveResult = resolve));
  let done = false;
  const signalled = (signal: NodeJS.Signals): void => finish(onSignal(signal));
  // The next frame, laid out for the new size, is drawn whole on a cleared screen.
  const onResize = (): void => frames.resized();
  function finish(result: T): void {
    if (done) return;
    done = true;
    instance.unmount();
    screen.restore();
    stdout.off('resize', onResize);
    for (const signal of SIGNALS) process.off(signal, signalled);
    resolveResult(result);
  }
  const instance = render(
    paced(<ThemeContext.Provider value={themeView(theme, options.noColor)}>{body(finish)}</ThemeContext.Provider>),
    { stdout: frames.stream, stdin: keyedStdin(stdin), exitOnCtrlC: false, patchConsole: false, maxFps: 30 },
  );
  stdout.on('resize', onResize);
  for (const signal of SIGNALS) process.on(signal, signalled);
  return finished;
}
