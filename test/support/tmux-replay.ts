/**
 * A real tmux of a test's own (its own socket, no config) that replays the bytes a writer sent in a
 * pane of a given size and says what the pane holds: the screen tests compare what tmux shows after
 * tole's writer against what it shows after the plain one. The server is killed and its directory
 * removed when the test ends. Call it inside a test.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterTheTest, tempDirForTest } from './after-the-test';

export interface TmuxReplay {
  /** The test's directory (removed when it ends), for files a pane reads or writes. */
  readonly dir: string;
  /** The server's socket (`tmux -S`), in `dir`: removed with it, where a socket of `tmux -L` stayed behind. */
  readonly socket: string;
  /** Runs tmux on the test's own server and returns what it printed. */
  tmux(...args: string[]): string;
  /** A new session `name` of the replay's size whose pane runs `command` and is kept once it ends. */
  run(name: string, command: string): void;
  /** A new session `name` whose pane has written `bytes`: its capture with style codes and rows unjoined (`-p -e -N`). */
  replay(name: string, bytes: string): string;
  /** The whole of session `name`'s pane copied through tmux's copy mode, as a user copies it. */
  copied(name: string): string;
}

export function tmuxReplay(prefix: string, width: number, height: number): TmuxReplay {
  const dir = tempDirForTest(`${prefix}-`);
  const socket = join(dir, 'tmux.sock');
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  // Registered after the directory: a test's undos run last first, so the server is gone before
  // its socket is (a server whose socket was removed could no longer be told to quit).
  afterTheTest(() => {
    try {
      tmux('kill-server');
    } catch {
      // Never started, or already gone.
    }
  });
  const run = (name: string, command: string): void => {
    tmux('new-session', '-d', '-s', name, '-x', String(width), '-y', String(height));
    tmux('set-option', '-t', name, 'remain-on-exit', 'on');
    tmux('respawn-pane', '-k', '-t', name, command);
  };
  return {
    dir,
    socket,
    tmux,
    run,
    replay(name, bytes) {
      const file = join(dir, `${name}.bin`);
      writeFileSync(file, bytes);
      // The pane signals once cat has written everything; the replay waits for that signal.
      run(name, `cat '${file}'; tmux -S '${socket}' wait-for -S ${name}-done; exec cat`);
      tmux('wait-for', `${name}-done`);
      return tmux('capture-pane', '-p', '-e', '-N', '-t', name);
    },
    copied(name) {
      tmux('copy-mode', '-t', name);
      for (const command of ['history-top', 'start-of-line', 'begin-selection', 'history-bottom', 'end-of-line'])
        tmux('send-keys', '-t', name, '-X', command);
      tmux('send-keys', '-t', name, '-X', 'copy-selection-and-cancel');
      return tmux('show-buffer');
    },
  };
}

/** The DEC special graphics set's letters and the box-drawing characters they stand for. */
const LINE_SET = new Map(
  Object.entries({ q: '─', x: '│', l: '┌', k: '┐', m: '└', j: '┘', t: '├', u: '┤', w: '┬', v: '┴', n: '┼' }),
);

/**
 * A tmux capture with each graphics-set cell read as its character: tmux marks the set's cells with
 * SO and SI (an SI that ends a row comes at the start of the next); style codes are kept as they are.
 */
export function lineSetRead(capture: string): string {
  let inSet = false;
  let screen = '';
  for (const [token] of capture.matchAll(/\x1b\[[0-9;]*m|[\s\S]/gu)) {
    if (token === '\x0e' || token === '\x0f') inSet = token === '\x0e';
    else screen += inSet ? (LINE_SET.get(token) ?? token) : token;
  }
  return screen;
}
