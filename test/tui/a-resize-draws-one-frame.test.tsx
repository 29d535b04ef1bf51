/**
 * A resize draws one frame: the screen laid out for the new size, drawn whole on a screen cleared
 * in the same write. Ink's own resize listener drew the tree at once, laid out for the old size,
 * then tole drew that frame whole again, and only then came the frame of the new size: three
 * frames. Through runTui on the renderer the bundle ships, after a shrink, a grow and a burst of
 * resizes (as a window drag sends), the bytes are those of the first frame of a screen started at
 * that size (the clear aside), and a terminal shows what that screen shows.
 */
import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/core/storage/session-store';
import { runTui } from '../../src/tui/run-tui';
import { eventually, FakeStdin, FakeStdout, KEYS, tuiOptions } from './harness';
import { append, emptyStore } from './session-fixture';
import { cells, flush, terminal, type Terminal } from './xterm-screen';

const SYNC_START = '\x1b[?2026h';
const CLEAR = '\x1b[2J';

const turnOfTheLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Turns of the event loop until none of the last twenty brought a write (a bound on turns, not on time). */
async function settled(stdout: FakeStdout): Promise<void> {
  let seen = stdout.frames.length;
  for (let quiet = 0; quiet < 20; quiet++) {
    await turnOfTheLoop();
    if (stdout.frames.length !== seen) {
      seen = stdout.frames.length;
      quiet = 0;
    }
  }
}

/** A screen on `store` opened on a terminal of that size, once its first frame is drawn and nothing more comes. */
async function opened(store: SessionStore, columns: number, rows: number) {
  const stdout = new FakeStdout(columns, rows);
  stdout.isTTY = true;
  const stdin = new FakeStdin();
  const exit = runTui(tuiOptions(stdout, stdin, { store }));
  await eventually(() => expect(stdout.frames.join('')).toContain('why does the build fail on a clean clone?'));
  await settled(stdout);
  const quit = async (): Promise<void> => {
    stdin.write(KEYS.ctrlC);
    await exit;
  };
  return { stdout, quit };
}

/** The one frame a screen started at that size draws first. */
async function firstFrame(store: SessionStore, columns: number, rows: number): Promise<string> {
  const fresh = await opened(store, columns, rows);
  const frames = fresh.stdout.frames.filter((write) => write.startsWith(SYNC_START));
  await fresh.quit();
  expect(frames).toHaveLength(1);
  return frames[0]!;
}

function aSession(): SessionStore {
  const store = emptyStore();
  append(store, 'user', { text: 'why does the build fail on a clean clone?' });
  append(store, 'assistant', {
    text: 'The bundle test reads node_modules through a symlink; a clean clone has a real folder.',
    toolCalls: [],
    model: 'gpt-4.1',
    finishReason: 'stop',
  });
  return store;
}

/** Resizes the screen's terminal to each size in turn, all at once, and returns what was written for it. */
async function resized(stdout: FakeStdout, sizes: readonly (readonly [number, number])[]): Promise<string[]> {
  const before = stdout.frames.length;
  for (const [columns, rows] of sizes) {
    stdout.columns = columns;
    stdout.rows = rows;
    stdout.emit('resize');
  }
  await eventually(() => expect(stdout.frames.length).toBeGreaterThan(before));
  await settled(stdout);
  return stdout.frames.slice(before);
}

/** The terminal shows what a terminal of its size shows once `frame` is drawn on it. */
async function showsAsDrawnWhole(term: Terminal, frame: string): Promise<void> {
  const fresh = terminal(term.cols, term.rows);
  await flush(fresh, frame);
  expect(cells(term)).toEqual(cells(fresh));
  fresh.dispose();
}

describe('a resize', () => {
  it('draws one frame of the new size, shrinking and growing back', async () => {
    const store = aSession();
    const screen = await opened(store, 120, 40);
    const term = terminal(120, 40);
    await flush(term, screen.stdout.frames.join(''));
    for (const [columns, rows] of [
      [80, 24],
      [120, 40],
    ] as const) {
      const written = await resized(screen.stdout, [[columns, rows]]);
      const fresh = await firstFrame(store, columns, rows);
      expect(written).toEqual([fresh.replace(SYNC_START, SYNC_START + CLEAR)]);
      term.resize(columns, rows);
      await flush(term, written.join(''));
      await showsAsDrawnWhole(term, fresh);
    }
    term.dispose();
    await screen.quit();
  });

  it('draws one frame of the last size for a burst of resizes, also one back to the size it had', async () => {
    const store = aSession();
    const screen = await opened(store, 120, 40);
    const term = terminal(120, 40);
    await flush(term, screen.stdout.frames.join(''));
    const drag = [
      [110, 36],
      [96, 30],
      [80, 24],
    ] as const;
    const written = await resized(screen.stdout, drag);
    const fresh = await firstFrame(store, 80, 24);
    expect(written).toEqual([fresh.replace(SYNC_START, SYNC_START + CLEAR)]);
    term.resize(80, 24);
    await flush(term, written.join(''));
    await showsAsDrawnWhole(term, fresh);

    // Dragged away and back within one burst: the terminal may have cut the screen meanwhile, so
    // it is drawn again whole, once.
    const back = await resized(screen.stdout, [
      [60, 20],
      [80, 24],
    ]);
    expect(back).toEqual(written);
    term.dispose();
    await screen.quit();
  });
});
