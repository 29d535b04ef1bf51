import { stripControls, truncate } from '../text/cell-width';
import { passedThrough, type Multiplexer } from '../commands/copy-answer';

/**
 * The user's `notify` config: a bell (and an OSC 9 notification where the terminal shows one)
 * when an approval waits or a turn longer than `afterTurnMs` ends while the terminal is unfocused.
 */
export interface NotifySettings {
  readonly bell: boolean;
  readonly osc9: boolean;
  readonly afterTurnMs: number;
}

export const NOTIFY_DEFAULTS: NotifySettings = { bell: true, osc9: true, afterTurnMs: 10_000 };

/** A notification's text is a short line: the terminal shows it in a banner. */
const MAX_TEXT_CELLS = 80;

/**
 * Whether the terminal shows OSC 9 as a notification: iTerm2, WezTerm, ghostty, kitty and foot
 * do; elsewhere (xterm, the Linux console, tmux's own screen) it is ignored at best.
 */
export function showsOsc9(env: Readonly<Record<string, string | undefined>>): boolean {
  const program = env['TERM_PROGRAM'] ?? '';
  if (program === 'iTerm.app' || program === 'WezTerm' || program === 'ghostty') return true;
  const term = env['TERM'] ?? '';
  if (term === 'xterm-kitty' || term === 'foot' || term.startsWith('foot-')) return true;
  // Inside tmux TERM_PROGRAM and TERM are tmux's: the outer terminal's own variables remain.
  return Boolean(env['KITTY_WINDOW_ID'] || env['WEZTERM_PANE'] || env['GHOSTTY_RESOURCES_DIR']);
}

/** OSC 9 with `text` made safe: no control character (a BEL or ESC would end it early or start another sequence). */
export function osc9(text: string): string {
  const safe = truncate(stripControls(text.replace(/[\r\n]+/g, ' ')), MAX_TEXT_CELLS);
  return `\x1b]9;${safe}\x07`;
}

/** What to write to the terminal for a signal: BEL and/or OSC 9 (passed through a multiplexer); '' when both are off. */
export function signalSequence(
  text: string,
  settings: Pick<NotifySettings, 'bell' | 'osc9'>,
  osc9Shown: boolean,
  via: Multiplexer,
): string {
  return (settings.bell ? '\x07' : '') + (settings.osc9 && osc9Shown ? passedThrough(osc9(text), via) : '');
}
