/** Runs the built tole in a real pseudo-terminal and reads its screen through a headless xterm. */
import { spawn, type IPty } from 'node-pty';
import headless from '@xterm/headless';
import { inject } from 'vitest';
import '../support/shared-code-cache';
import { cells as screenCells } from '../tui/xterm-screen';

const { Terminal } = headless;
const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
type Terminal = InstanceType<typeof Terminal>;

export interface DriverOptions {
  /** What runs in the terminal: node by default (`args` are its arguments). */
  readonly file?: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly columns?: number;
  readonly rows?: number;
  /** The terminal answers what the program asks (a cursor position report), as a real one does. */
  readonly answers?: boolean;
}

export class TerminalDriver {
  private readonly term: Terminal;
  private readonly pty: IPty;
  /** Everything the program wrote, for asserting on escape sequences. */
  raw = '';
  exit: Promise<{ exitCode: number; signal?: number }>;
  /** Called each time the terminal has parsed a chunk the program wrote (the screen may have changed). */
  private readonly onParsed = new Set<() => void>();
  /**
   * The parsed output ends inside a synchronized update (`CSI ? 2026 h` not yet closed): a frame
   * that reached the terminal in more than one read of the pty, half drawn. A terminal that keeps
   * to the mode shows nothing of it until it closes, so `waitFor` does not look then.
   */
  private frameOpen = false;
  /** Whether what was read so far ends inside a synchronized update, and its last bytes (a marker may span two reads). */
  private readFrameOpen = false;
  private readTail = '';

  constructor(options: DriverOptions) {
    const cols = options.columns ?? 120;
    const rows = options.rows ?? 40;
    const codeCacheHome = inject('toleCodeCacheHome');
    this.term = new Terminal({ cols, rows, allowProposedApi: true });
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      // The test file's own temp directory (test/support/tmpdir-per-file.ts): what the program
      // leaves in it, killed before it could clean up, goes with the file.
      ...(process.env['TMPDIR'] === undefined ? {} : { TMPDIR: process.env['TMPDIR'] }),
      // The run's code cache (test/support/shared-code-cache.ts): a start after the first reads the
      // compiled screen script instead of compiling it again. A test that names its own wins.
      ...(codeCacheHome === undefined ? {} : { XDG_CACHE_HOME: codeCacheHome }),
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      ...options.env,
    };
    this.pty = spawn(options.file ?? process.execPath, [...options.args], {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: options.cwd,
      env,
    });
    this.pty.onData((data) => {
      this.raw += data;
      const text = this.readTail + data;
      const [opened, closed] = [text.lastIndexOf(SYNC_START), text.lastIndexOf(SYNC_END)];
      if (opened !== -1 || closed !== -1) this.readFrameOpen = opened > closed;
      this.readTail = text.slice(-(SYNC_START.length - 1));
      const open = this.readFrameOpen;
      this.term.write(data, () => {
        this.frameOpen = open;
        for (const listener of [...this.onParsed]) listener();
      });
    });
    if (options.answers) this.term.onData((data) => this.pty.write(data));
    // Settled once the terminal has parsed every byte tole wrote (xterm parses writes later, in
    // chunks): what the screen holds after the exit, the alternate screen left or not, is final.
    this.exit = new Promise((resolve) => this.pty.onExit((exit) => this.term.write('', () => resolve(exit))));
  }

  /** The screen as text, one line per row, trailing spaces trimmed. */
  async screen(): Promise<string> {
    await new Promise<void>((resolve) => this.term.write('', resolve));
    return this.parsedScreen();
  }

  /** The screen as the terminal holds it now, every chunk written so far parsed or not. */
  private parsedScreen(): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < this.term.rows; i++)
      lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** Every cell of the screen as the terminal holds it (character, width, colours, attributes). */
  async cells(): Promise<string[]> {
    await new Promise<void>((resolve) => this.term.write('', resolve));
    return screenCells(this.term);
  }

  /** Resizes the terminal, as dragging the window's edge does (the program gets SIGWINCH). */
  resize(columns: number, rows: number): void {
    this.term.resize(columns, rows);
    this.pty.resize(columns, rows);
  }

  get onAlternateScreen(): boolean {
    return this.term.buffer.active.type === 'alternate';
  }

  type(text: string): void {
    this.pty.write(text);
  }

  /**
   * The screen once `test` holds: looked at now, then each time the terminal has parsed more of
   * what the program wrote (the only thing that changes the screen but the test's own resize, done
   * before it waits), and every 50 ms for a `test` that looks at more than the screen (a file the
   * program writes); never while a frame is half parsed. Fails with the screen as it was after `timeoutMs`.
   */
  async waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const check =
      typeof test === 'function' ? test : (s: string) => (typeof test === 'string' ? s.includes(test) : test.test(s));
    const now = await this.screen();
    if (!this.frameOpen && check(now)) return now;
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        this.onParsed.delete(look);
      };
      const look = (): void => {
        if (this.frameOpen) return;
        const screen = this.parsedScreen();
        try {
          if (!check(screen)) return;
        } catch (error) {
          done();
          reject(error);
          return;
        }
        done();
        resolve(screen);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${String(test)}; the screen:\n${this.parsedScreen()}`));
      }, timeoutMs);
      const poll = setInterval(look, 50);
      this.onParsed.add(look);
      // What was parsed since the look above.
      look();
    });
  }

  /** Closes the terminal's master side, as closing the window does (a SIGHUP goes to the process started in it). */
  closeTerminal(): void {
    // Not in IPty's typings; UnixTerminal has it: closes the master fd, then sends SIGHUP.
    (this.pty as IPty & { destroy(): void }).destroy();
  }

  kill(signal = 'SIGTERM'): void {
    try {
      this.pty.kill(signal);
    } catch {
      // Already gone.
    }
  }
}
