import { runAlone } from './run-alone';
import type { Theme } from './style/theme';
import type { TrustSummary } from './dialogs/trust-lines';
import { type TrustAnswer, TrustPrompt } from './dialogs/TrustPrompt';

interface RunTrustPromptOptions {
  readonly summary: TrustSummary;
  readonly theme: Theme | string;
  readonly noColor: boolean;
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
}

/** The trust question, full screen, on its own before the session opens; a hangup or SIGTERM quits. */
export function runTrustPrompt(options: RunTrustPromptOptions): Promise<TrustAnswer> {
  return runAlone<TrustAnswer>(
    options,
    () => 'quit',
    (finish) => <TrustPrompt summary={options.summary} onAnswer={finish} />,
  );
}
