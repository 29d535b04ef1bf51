import type { Binding } from './input/keymap';
import type { PickerSession } from './picker/picker-rows';
import { runAlone } from './run-alone';
import { SessionPicker } from './picker/SessionPicker';
import type { Theme } from './style/theme';

interface RunPickerOptions {
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

type PickerExit =
  | { readonly reason: 'chosen'; readonly session: PickerSession }
  | { readonly reason: 'quit' }
  | { readonly reason: 'signal'; readonly signal: NodeJS.Signals; readonly exitCode: number };

const SIGNAL_CODES: Readonly<Record<string, number>> = { SIGHUP: 129, SIGTERM: 143 };

/**
 * `tole --resume` without an id: the picker, full screen, on its own. Resolves with the session
 * chosen (the caller then opens it) or with how it was left; the terminal is restored either way.
 */
export function runPicker(options: RunPickerOptions): Promise<PickerExit> {
  return runAlone<PickerExit>(
    options,
    (signal) => ({ reason: 'signal', signal, exitCode: SIGNAL_CODES[signal] ?? 1 }),
    (finish) => (
      <SessionPicker
        sessions={options.sessions}
        cwd={options.cwd}
        home={options.home}
        nowMs={options.nowMs}
        {...(options.keymap ? { keymap: options.keymap } : {})}
        onChoose={(session) => finish({ reason: 'chosen', session })}
        onQuit={() => finish({ reason: 'quit' })}
      />
    ),
  );
}
