/** Renders the App into a fake terminal of a chosen size, and types into it. */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { vi } from 'vitest';
import { App, type AppProps } from '../../src/tui/App';
import { walkCounts } from '../../src/tui/frame/ink-kept-walk';
import { createTuiApprover, type ApprovalQueue } from '../../src/tui/approval/approval-queue';
import type { RunTuiOptions } from '../../src/tui/run-tui';
import { loadTheme } from '../../src/tui/style/theme';
import { screenLayout } from '../../src/tui/panes/layout';
import { cellWidth } from '../../src/tui/text/cell-width';
import { emptyStore } from './session-fixture';
import type { TurnAgent } from '../../src/tui/screen/turn-controller';

export class FakeStdout extends EventEmitter {
  readonly frames: string[] = [];
  isTTY = false;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };
}

export class FakeStdin extends EventEmitter {
  isTTY = true;
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read() takes it (through `this`)
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
  }
  read = (): string | null => {
    const { data } = this;
    this.data = null;
    return data;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

export const KEYS = {
  tab: '\t',
  shiftTab: '\x1b[Z',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  enter: '\r',
  /** Alt-Enter, as terminals send it (ESC, then CR). */
  altEnter: '\x1b\r',
  escape: '\x1b',
  ctrlC: '\x03',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
} as const;

/** runTui's options on the fake terminal: an empty session whose turns never end, unless `more` says otherwise. */
export function tuiOptions(stdout: FakeStdout, stdin: FakeStdin, more: Partial<RunTuiOptions> = {}): RunTuiOptions {
  return {
    store: emptyStore(),
    agent: hangingAgent(),
    approvals: createTuiApprover(),
    policy: null,
    theme: 'dark',
    noColor: true,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    handleProcessEvents: false,
    ...more,
  };
}

/**
 * An Agent-shaped object whose turn runs until aborted (or `finish` is called). Steering is
 * held as the Agent holds it (a second replaces the first) and never sent: `steering` shows it.
 */
export function hangingAgent(): TurnAgent & {
  signals: AbortSignal[];
  prompts: string[];
  retries: string[];
  steering: string | null;
  finish: () => void;
} {
  const signals: AbortSignal[] = [];
  const prompts: string[] = [];
  let finish = (): void => {};
  let running = false;
  const agent = {
    model: 'fake-model',
    signals,
    prompts,
    steering: null as string | null,
    retries: [] as string[],
    finish: () => finish(),
    retry: (fromEntryId: string, signal: AbortSignal) => {
      agent.retries.push(fromEntryId);
      return agent.hang(signal);
    },
    runTurn: (prompt: string, signal: AbortSignal) => {
      prompts.push(prompt);
      return agent.hang(signal);
    },
    hang: (signal: AbortSignal) => {
      signals.push(signal);
      running = true;
      return new Promise<unknown>((resolve) => {
        const end = (outcome: string): void => {
          running = false;
          resolve({ outcome, text: '' });
        };
        finish = () => end('done');
        signal.addEventListener('abort', () => end('aborted'), { once: true });
      });
    },
    resume: async () => 0,
    steer: (text: string) => {
      if (!running) return false;
      agent.steering = text;
      return true;
    },
    takeSteering: () => {
      const text = agent.steering;
      agent.steering = null;
      return text;
    },
  };
  return agent;
}

export interface Screen {
  readonly approvals: ApprovalQueue;
  readonly quit: ReturnType<typeof vi.fn>;
  readonly crash: ReturnType<typeof vi.fn>;
  frame(): string;
  /** Every frame written so far, oldest first. */
  frames(): readonly string[];
  press(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  /**
   * Waits until the frame shows `text`: up to WAIT_MS unless told. A wait ends as soon as the text
   * shows, so a long limit costs nothing when all is well; a short one fails correct builds on a
   * loaded machine (the suite runs on 2 cores beside other work).
   */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  unmount(): void;
  resize(columns: number, rows: number): void;
}

export interface ScreenOptions extends Partial<Omit<AppProps, 'onQuit' | 'onCrash'>> {
  readonly store: AppProps['store'];
  readonly columns?: number;
  readonly rows?: number;
}

/** How long a screen test waits for what it expects to see before it fails. */
export const WAIT_MS = 10_000;

/** `vi.waitFor` with WAIT_MS: its own default of 1 s is too short for a loaded machine. */
export function eventually<T>(check: () => T, timeoutMs = WAIT_MS): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 20 });
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * Ink's `render`, refusing to mount stock Ink: the first frame must go through tole's output stage
 * (its kept walk counts every walk), as in dist/screen.cjs. A file that reaches this from a vitest
 * project without the build's patches (vitest.config.ts: shippedRendererPlugins) fails here
 * instead of testing a renderer no user runs.
 */
export function renderShipped(...args: Parameters<typeof render>): ReturnType<typeof render> {
  const walks = (): number => walkCounts.walked + walkCounts.replayed;
  const before = walks();
  const instance = render(...args);
  if (walks() === before) {
    instance.unmount();
    throw new Error(
      "this test mounted stock Ink, not the renderer tole ships: its vitest project must load the build's patches " +
        '(shippedRendererPlugins and SHIPPED_RENDERER_SETUP in vitest.config.ts; test/support/tiers.ts picks the project)',
    );
  }
  return instance;
}

export function renderScreen(options: ScreenOptions): Screen {
  const stdout = new FakeStdout(options.columns ?? 140, options.rows ?? 40);
  const stdin = new FakeStdin();
  const approvals = options.approvals ?? createTuiApprover({ armMs: 0 });
  const quit = vi.fn();
  const crash = vi.fn();
  const { columns: _c, rows: _r, ...props } = options;
  const instance = renderShipped(
    <App
      agent={hangingAgent()}
      policy={null}
      theme={loadTheme('dark')}
      noColor={false}
      resumeOnOpen={false}
      {...props}
      approvals={approvals}
      onQuit={quit}
      onCrash={crash}
    />,
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  const frame = (): string => stdout.frames[stdout.frames.length - 1] ?? '';
  return {
    approvals,
    quit,
    crash,
    frame,
    frames: () => stdout.frames,
    async press(...keys) {
      for (const key of keys) {
        stdin.write(key);
        await tick();
      }
    },
    async type(text) {
      for (const ch of text) {
        stdin.write(ch);
        await tick();
      }
    },
    async waitFor(text, timeoutMs = WAIT_MS) {
      await vi.waitFor(() => {
        const current = frame();
        if (typeof text === 'string' ? !current.includes(text) : !text.test(current))
          throw new Error(`screen does not show ${String(text)}:\n${current}`);
      }, timeoutMs);
      return frame();
    },
    unmount: () => instance.unmount(),
    resize(columns, rows) {
      stdout.columns = columns;
      stdout.rows = rows;
      stdout.emit('resize');
    },
  };
}

export const stripAnsi = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

/** Where a pane's title row starts: a boxed pane's corner, or a screen pane's rule (`─` at the screen's edge, `┬`, `├`). */
const TITLE_LEADS = '╭┬├─';

/** A pane's text on one line: its rows trimmed and joined, runs of spaces one (the wrapping gone). */
export function paneOnOneLine(frame: string, title: string): string {
  return pane(frame, title)
    .split('\n')
    .map((row) => row.trim())
    .join(' ')
    .replace(/\s+/g, ' ');
}

/**
 * The text inside one pane of a frame, found by a word of its title: a boxed pane (an overlay, the
 * approval box) is bound by its border; a pane of the screen by its title rule, the rule on its
 * left (blank at the screen's edge) and the next pane's rule on its right.
 */
export function pane(frame: string, title: string): string {
  const lines = stripAnsi(frame)
    .split('\n')
    .map((l) => [...l]);
  const top = lines.findIndex((l) => l.join('').includes(title));
  if (top === -1) return '';
  const row = lines[top]!;
  const titleAt = row.join('').indexOf(title);
  let start = titleAt;
  while (start > 0 && !TITLE_LEADS.includes(row[start]!)) start--;
  const boxed = row[start] === '╭';
  let end = titleAt;
  while (end < row.length && row[end] !== (boxed ? '╮' : '┬')) end++;
  const inside = (line: readonly string[]): boolean => {
    if (boxed) return line[start] !== '╰';
    if (row[start] !== '─') return line[start] === '│';
    // At the screen's edge: two blank columns before the text, the pane's own rule to its right.
    return line[start] === ' ' && line[start + 1] === ' ' && (end >= row.length || line[end] === '│');
  };
  const out: string[] = [];
  // A row of the screen's rightmost pane ends where its text does (the frame has no trailing blanks): padded to the pane.
  for (let i = top + 1; i < lines.length && inside(lines[i]!); i++)
    out.push(
      lines[i]!.slice(start + 1, end)
        .join('')
        .padEnd(end - start - 1),
    );
  return out.join('\n');
}

/** The tree pane's columns of a screen `columns` wide (it is the leftmost pane on a wide screen). */
export function treeWidth(columns = 140): number {
  return screenLayout({
    columns,
    rows: 40,
    focus: 'input',
    promptHeight: 1,
    approvalHeight: 0,
    flashHeight: 0,
    usageLines: 0,
  }).tree!.width;
}

/** The first `count` columns of a frame's line, its style codes kept: the tree's part of a row. */
export function leftColumns(line: string, count: number = treeWidth()): string {
  let out = '';
  let seen = 0;
  for (const part of line.split(/(\x1b\[[0-9;]*m)/)) {
    if (part.startsWith('\x1b[')) {
      out += part;
      continue;
    }
    for (const char of part) {
      seen += cellWidth(char);
      if (seen > count) return out;
      out += char;
    }
  }
  return out;
}
