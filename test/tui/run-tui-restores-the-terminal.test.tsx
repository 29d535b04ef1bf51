import chalk from 'chalk';
import { describe, expect, it } from 'vitest';
import { StorageError } from '../../src/core/storage/errors';
import { defaultTabStops } from '../../src/tui/frame/terminal-screen';
import { runTui, type RunTuiOptions } from '../../src/tui/run-tui';
import type { TurnAgent } from '../../src/tui/screen/turn-controller';
import { eventually, FakeStdin, FakeStdout, hangingAgent, KEYS, tuiOptions } from './harness';
import { append, emptyStore } from './session-fixture';
import { shownText } from './xterm-screen';

const ENTER = '\x1b[?1049h';
const LEAVE = '\x1b[?1049l';
const SHOW_CURSOR = '\x1b[?25h';
/** TBC 3: every tab stop cleared. */
const CLEAR_STOPS = '\x1b[3g';

function start(agent: TurnAgent = hangingAgent()): {
  stdout: FakeStdout;
  stdin: FakeStdin;
  exit: ReturnType<typeof runTui>;
  options: RunTuiOptions;
} {
  const stdout = new FakeStdout(120, 30);
  stdout.isTTY = true;
  const stdin = new FakeStdin();
  const options = tuiOptions(stdout, stdin, { agent });
  return { stdout, stdin, exit: runTui(options), options };
}

function restored(stdout: FakeStdout): void {
  const all = stdout.frames.join('');
  expect(all.startsWith(ENTER)).toBe(true);
  const tail = all.slice(all.lastIndexOf(LEAVE) - 40);
  expect(tail).toContain(SHOW_CURSOR);
  expect(all.lastIndexOf(LEAVE)).toBeGreaterThan(all.lastIndexOf('─'));
  // The tab stops tole set where its panes start are cleared last and put back at every 8 columns.
  const stops = all.lastIndexOf(defaultTabStops(stdout.columns));
  expect(stops).toBeGreaterThan(all.lastIndexOf('─'));
  expect(all.lastIndexOf(CLEAR_STOPS)).toBe(stops);
  expect(all.slice(stops + defaultTabStops(stdout.columns).length)).not.toContain('\x1bH');
}

/** Waits until the prompt row shows `text` (typed keys drawn), as a terminal would show the writes. */
async function promptShows(stdout: FakeStdout, text: string): Promise<void> {
  await eventually(async () =>
    expect(await shownText(stdout.frames.join(''), stdout.columns, stdout.rows)).toContain(`❯ ${text}`),
  );
}

describe('runTui', () => {
  it('refuses to start without a terminal, and leaves the screen alone', async () => {
    const stdout = new FakeStdout(120, 30);
    const result = await runTui(tuiOptions(stdout, new FakeStdin()));
    expect(result).toMatchObject({ reason: 'crash', exitCode: 1 });
    expect(String((result as { error: Error }).error.message)).toContain('tole -p');
    expect(stdout.frames).toEqual([]);
  });

  it('draws on the alternate screen and restores the terminal when the user quits', async () => {
    const { stdout, stdin, exit, options } = start();
    await eventually(() => expect(stdout.frames.join('')).toContain('type a prompt'));
    stdin.write(KEYS.ctrlC);
    // The exit names the session that was on screen last (for the resume hint printed after it).
    await expect(exit).resolves.toEqual({ reason: 'quit', exitCode: 0, store: options.store });
    restored(stdout);
  });

  it('says once when its first frame is drawn, with that frame already written', async () => {
    const stdout = new FakeStdout(120, 30);
    stdout.isTTY = true;
    const stdin = new FakeStdin();
    const drawn: string[] = [];
    const exit = runTui(tuiOptions(stdout, stdin, { onFirstFrame: () => drawn.push(stdout.frames.join('')) }));
    await eventually(() => expect(drawn).toHaveLength(1));
    expect(drawn[0]).toContain('type a prompt');
    stdin.write(KEYS.ctrlC);
    await exit;
    expect(drawn).toHaveLength(1);
  });

  it('with NO_COLOR sends no colour code to the terminal at all', async () => {
    const level = chalk.level;
    chalk.level = 3;
    try {
      const { stdout, stdin, exit } = start();
      await eventually(() => expect(stdout.frames.join('')).toContain('type a prompt'));
      stdin.write(KEYS.tab);
      await eventually(() => expect(stdout.frames.join('')).toContain('check out'));
      const all = stdout.frames.join('');
      const sgr = [...all.matchAll(/\x1b\[([0-9;]*)m/g)].map((m) => m[1]!);
      const colours = sgr.filter((params) => params.split(';').some((p) => /^(3\d|4\d|9[0-7]|10[0-7])$/.test(p)));
      expect(colours).toEqual([]);
      expect(sgr.length).toBeGreaterThan(0);
      stdin.write(KEYS.ctrlC);
      await exit;
    } finally {
      chalk.level = level;
    }
  });

  it('draws only the cells that changed', async () => {
    const { stdout, stdin, exit } = start();
    await eventually(() => expect(stdout.frames.join('')).toContain('type a prompt'));
    stdin.write('x');
    await eventually(() => expect(stdout.frames.join('')).toMatch(/H(?:\x1b\[m)?x/));
    // Counted from the frame that drew x: a frame after it that is not y's (x drawn again, a row
    // redrawn late) would be a write of unchanged cells, and fails the match below.
    const before = stdout.frames.length;
    stdin.write('y');
    await eventually(() => expect(stdout.frames.slice(before).join('')).toContain('y'));
    const written = stdout.frames.slice(before).join('');
    // The one new cell behind a cursor move, not the prompt row, let alone the 29 of the screen;
    // a one-row frame this short goes without the synchronized-update pair.
    expect(written).toMatch(/^\x1b\[28;4H(?:\x1b\[m)?y(?:\x1b\[m)?$/);
    stdin.write(KEYS.ctrlC);
    stdin.write(KEYS.ctrlC);
    await exit;
  });

  it('stops a running turn before it closes on quit', async () => {
    const agent = hangingAgent();
    const { stdout, stdin, exit } = start(agent);
    await eventually(() => expect(stdout.frames.join('')).toContain('type a prompt'));
    stdin.write('go');
    await promptShows(stdout, 'go');
    stdin.write(KEYS.enter);
    await eventually(() => expect(agent.signals).toHaveLength(1));
    stdin.write('/quit');
    await promptShows(stdout, '/quit');
    stdin.write(KEYS.enter);
    await expect(exit).resolves.toMatchObject({ reason: 'quit' });
    expect(agent.signals[0]!.aborted).toBe(true);
    restored(stdout);
  });

  it('stops the running turn and writes nothing more when a write to the terminal fails with EIO', async () => {
    const agent = hangingAgent();
    const { stdout, stdin, exit } = start(agent);
    await eventually(() => expect(stdout.frames.join('')).toContain('type a prompt'));
    stdin.write('go');
    await promptShows(stdout, 'go');
    stdin.write(KEYS.enter);
    await eventually(() => expect(agent.signals).toHaveLength(1));
    const written = stdout.frames.length;
    stdout.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO', syscall: 'write' }));
    await expect(exit).resolves.toMatchObject({ reason: 'terminal-lost', exitCode: 129 });
    expect(agent.signals[0]!.aborted).toBe(true);
    expect(stdout.frames.slice(written)).toEqual([]);
  });

  it('restores the terminal and reports a crash when the turn loop throws', async () => {
    const agent: TurnAgent = {
      model: 'm',
      runTurn: () => Promise.reject(new Error('storage poisoned: reopen the session')),
      resume: async () => 0,
      steer: () => false,
      takeSteering: () => null,
      retry: async () => ({}),
    };
    const { stdout, stdin, exit } = start(agent);
    await eventually(() => expect(stdout.frames.join('')).toContain('type a prompt'));
    stdin.write('go');
    await promptShows(stdout, 'go');
    stdin.write(KEYS.enter);
    const result = await exit;
    expect(result.reason).toBe('crash');
    expect(result.exitCode).toBe(1);
    expect(String((result as { error: Error }).error.message)).toContain('storage poisoned');
    restored(stdout);
  });

  it('ends with the error, not an overlay with a stack trace, when drawing a payload throws', async () => {
    const store = emptyStore();
    const id = append(store, 'user', { text: 'hello' });
    // As a payload that is not JSON reads (replayed-entry.ts): a StorageError naming file and line.
    const failure = new StorageError('corrupt', 'x.jsonl line 2: the payload is not JSON; move x.jsonl.index aside');
    Object.defineProperty(store.tree.get(id)!, 'payload', {
      get: () => {
        throw failure;
      },
    });
    const stdout = new FakeStdout(120, 30);
    stdout.isTTY = true;
    const result = await runTui(tuiOptions(stdout, new FakeStdin(), { store }));
    expect(result).toMatchObject({ reason: 'crash', exitCode: 1, error: failure });
    const all = stdout.frames.join('');
    expect(all).not.toContain('ERROR');
    expect(all).not.toMatch(/run-tui|\.tsx?:\d+/);
    expect(all.startsWith(ENTER)).toBe(true);
    expect(all.slice(all.lastIndexOf(LEAVE) - 40)).toContain(SHOW_CURSOR);
  });
});
