import './frame/ci-env-hide';
import { renderToString } from 'ink';
import './frame/ci-env-restore';
import type { TailPreview } from '../core/storage/tail-preview';
import { FrameWriter } from './frame/frame-writer';
import { TerminalScreen } from './frame/terminal-screen';
import { ProvisionalScreen } from './screen/ProvisionalScreen';
import { loadTheme } from './style/theme';
import { ThemeContext, themeView } from './style/theme-context';

export interface ProvisionalInput {
  readonly preview: TailPreview;
  /** A built-in theme's name or a theme file's path, as runTui takes it. */
  readonly theme: string;
  readonly noColor: boolean;
  readonly readOnly: boolean;
  readonly notices: readonly string[];
}

/** The provisional frame (ProvisionalScreen) as Ink draws it on a screen `columns` by `rows`. */
export function provisionalFrame(input: ProvisionalInput, columns: number, rows: number): string {
  return renderToString(
    <ThemeContext.Provider value={themeView(loadTheme(input.theme), input.noColor)}>
      <ProvisionalScreen
        preview={input.preview}
        columns={columns}
        rows={rows}
        readOnly={input.readOnly}
        notices={input.notices}
      />
    </ThemeContext.Provider>,
    { columns },
  );
}

/**
 * Takes the terminal as the full screen does (alternate screen, raw keys) and draws the
 * provisional frame on it; the caller restores the returned screen if the checked screen never
 * comes (the open refused the file), and leaves it to runTui otherwise, which enters and clears
 * the screen again before its first frame. Keys typed meanwhile wait, unread, for that screen.
 */
export function drawProvisional(
  input: ProvisionalInput,
  stdout: NodeJS.WriteStream,
  stdin: NodeJS.ReadStream,
): TerminalScreen {
  const frame = provisionalFrame(input, stdout.columns || 80, stdout.rows || 24);
  const screen = TerminalScreen.enter(stdout, stdin);
  new FrameWriter(stdout, input.noColor).stream.write(frame);
  return screen;
}
