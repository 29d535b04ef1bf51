/** Runs the built tole in a real pseudo-terminal and reads its screen through a headless xterm. */
import { spawn, type IPty } from 'node-pty';
import headless from '@xterm/headless';
import { inject } from 'vitest';
import '../support/shared-code-cache';
import { cells as screenCells } from '../tui/xterm-screen';

const { Terminal } = headless;
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
      this.term.write(data);
    });
    if (options.answers) this.term.onData((data) => this.pty.write(data));
    // Settled once the terminal has parsed every byte tole wrote (xterm parses writes later, in
    // chunks): what the screen holds after the exit, the alternate screen left or not, is final.
    this.exit = new Promise((resolve) => this.pty.onExit((exit) => this.term.write('', () => resolve(exit))));
  }

  /** The screen as text, one line per row, trailing spaces trimmed. */
  async screen(): Promise<string> {
    await new Promise<void>((resolve) => this.term.write('', resolve));
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

  /** Polls the screen until `test` holds, or fails with the screen as it was. */
  async waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const started = Date.now();
    const check =
      typeof test === 'function' ? test : (s: string) => (typeof test === 'string' ? s.includes(test) : test.test(s));
    for (;;) {
      const screen = await this.screen();
      if (check(screen)) return screen;
      if (Date.now() - started > timeoutMs)
        throw new Error(`timed out waiting for ${String(test)}; the screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
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
