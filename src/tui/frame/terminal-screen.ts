/**
 * The terminal's modes around a full-screen session: the alternate screen (so the shell's
 * scrollback is untouched), a hidden cursor, auto-wrap off, bracketed paste (so a pasted
 * newline is not a send), focus reporting (signals ring only while the terminal is unfocused). `restore` undoes them all, at most once, on every way out,
 * and puts the tab stops back at every 8 columns (the frame writer sets its own).
 */
const ENTER_ALT_SCREEN = '\x1b[?1049h';
const LEAVE_ALT_SCREEN = '\x1b[?1049l';
const HIDE_CURSOR = '\x1b[?25l';
export const SHOW_CURSOR = '\x1b[?25h';
const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';
/** Mouse reporting (button and wheel events) in SGR form: `ESC [ < button ; column ; row M`. */
const MOUSE_ON = '\x1b[?1000h\x1b[?1006h';
const MOUSE_OFF = '\x1b[?1006l\x1b[?1000l';
/** Focus reporting: the terminal sends `ESC [ I` when it gains focus and `ESC [ O` when it loses it. */
export const FOCUS_ON = '\x1b[?1004h';
export const FOCUS_OFF = '\x1b[?1004l';
const CLEAR_SCREEN = '\x1b[2J\x1b[H';
/** Auto-wrap off: a line that would overflow is cut at the margin instead of pushing the screen down. */
const AUTOWRAP_OFF = '\x1b[?7l';
const AUTOWRAP_ON = '\x1b[?7h';

/**
 * The terminal's tab stops back at every 8 columns, its default (the frame writer sets stops of its
 * own where the panes start, and a terminal keeps one set of stops for both screens): cleared
 * (TBC 3), then each set with a move to its column and HTS. The cursor is put back by leaving the
 * alternate screen right after.
 */
export function defaultTabStops(columns: number): string {
  let out = '\x1b[3g';
  for (let column = 8; column < columns; column += 8) out += `\x1b[${column + 1}G\x1bH`;
  return out;
}

export class TerminalScreen {
  private restored = false;

  private constructor(
    private readonly stdout: NodeJS.WriteStream,
    private readonly stdin: NodeJS.ReadStream,
    private readonly mouse: boolean,
  ) {}

  /** `mouse`: report the wheel (and clicks, which tole ignores); Shift still selects text in most terminals. */
  static enter(stdout: NodeJS.WriteStream, stdin: NodeJS.ReadStream, mouse = false): TerminalScreen {
    // Raw mode before the first frame: keys typed the moment the screen appears must not be
    // cooked by the line discipline (which would turn a send into a newline and echo it).
    if (stdin.isTTY && typeof stdin.setRawMode === 'function') stdin.setRawMode(true);
    stdout.write(
      ENTER_ALT_SCREEN +
        HIDE_CURSOR +
        AUTOWRAP_OFF +
        BRACKETED_PASTE_ON +
        FOCUS_ON +
        (mouse ? MOUSE_ON : '') +
        CLEAR_SCREEN,
    );
    return new TerminalScreen(stdout, stdin, mouse);
  }

  get active(): boolean {
    return !this.restored;
  }

  /**
   * The terminal is gone (a write or read failed with EIO or EPIPE): nothing is written to it
   * again, since every write would fail the same way.
   */
  lose(): void {
    this.restored = true;
  }

  /** What undoes the session's modes: the default tab stops, then each mode off, the shell's screen last. */
  private leavingModes(): string {
    return (
      defaultTabStops(this.stdout.columns || 80) +
      (this.mouse ? MOUSE_OFF : '') +
      FOCUS_OFF +
      BRACKETED_PASTE_OFF +
      AUTOWRAP_ON +
      SHOW_CURSOR +
      LEAVE_ALT_SCREEN
    );
  }

  /** The shell's screen and a cooked terminal for a program that takes the terminal over (`$EDITOR`); `resume` comes back. */
  suspend(): void {
    if (this.restored) return;
    if (this.stdin.isTTY && typeof this.stdin.setRawMode === 'function') this.stdin.setRawMode(false);
    this.stdout.write(this.leavingModes());
  }

  /** Back on the full screen after `suspend`, wiped (the caller draws it again whole). */
  resume(): void {
    if (this.restored) return;
    if (this.stdin.isTTY && typeof this.stdin.setRawMode === 'function') this.stdin.setRawMode(true);
    this.stdout.write(
      ENTER_ALT_SCREEN +
        HIDE_CURSOR +
        AUTOWRAP_OFF +
        BRACKETED_PASTE_ON +
        FOCUS_ON +
        (this.mouse ? MOUSE_ON : '') +
        CLEAR_SCREEN,
    );
  }

  /** Back to the shell's screen with the cursor shown and the line discipline restored. Idempotent. */
  restore(): void {
    if (this.restored) return;
    this.restored = true;
    try {
      if (this.stdin.isTTY && typeof this.stdin.setRawMode === 'function') this.stdin.setRawMode(false);
    } catch {
      // The stream may already be closed; the modes below still matter.
    }
    this.stdout.write(this.leavingModes());
  }
}
