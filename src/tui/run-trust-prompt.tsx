import './ci-env-hide';
import { render } from 'ink';
import './ci-env-restore';
import { FrameWriter } from './frame-writer';
import { TerminalScreen } from './terminal-screen';
import { loadTheme, type Theme } from './theme';
import { ThemeContext, themeView } from './theme-context';
import type { TrustSummary } from './trust-lines';
import { type TrustAnswer, TrustPrompt } from './TrustPrompt';

export interface RunTrustPromptOptions {
  readonly summary: TrustSummary;
  readonly theme: Theme | string;
  readonly noColor: boolean;
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
}

const SIGNALS = ['SIGHUP', 'SIGTERM'] as const;

/** The trust question, full screen, on its own before the session opens; the terminal is restored after. */
export function runTrustPrompt(options: RunTrustPromptOptions): Promise<TrustAnswer> {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  const theme = typeof options.theme === 'string' ? loadTheme(options.theme) : options.theme;
  const screen = TerminalScreen.enter(stdout, stdin);
  const frames = new FrameWriter(stdout, options.noColor);
  let resolveAnswer!: (answer: TrustAnswer) => void;
  const answered = new Promise<TrustAnswer>((resolve) => (resolveAnswer = resolve));
  let done = false;
  const onSignal = (): void => finish('quit');
  const onResize = (): void => {
    screen.clear();
    frames.repaint();
  };
  function finish(answer: TrustAnswer): void {
    if (done) return;
    done = true;
    instance.unmount();
    screen.restore();
    stdout.off('resize', onResize);
    for (const signal of SIGNALS) process.off(signal, onSignal);
    resolveAnswer(answer);
  }
  const instance = render(
    <ThemeContext.Provider value={themeView(theme, options.noColor)}>
      <TrustPrompt summary={options.summary} onAnswer={finish} />
    </ThemeContext.Provider>,
    { stdout: frames.stream, stdin, exitOnCtrlC: false, patchConsole: false, maxFps: 30 },
  );
  stdout.on('resize', onResize);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return answered;
}
