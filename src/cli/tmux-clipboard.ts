import { execFile } from 'node:child_process';
import type { TmuxClipboard, TmuxClipboardRoute } from '../tui/commands/copy-answer';

/** Long enough for a busy tmux server to answer; a hung one must not hold `/copy` up. */
const TMUX_TIMEOUT_MS = 3_000;

interface TmuxRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `tmux ARGS` (found on the env's PATH), `input` on its stdin; a tmux that cannot start rejects. */
function runTmux(env: NodeJS.ProcessEnv, args: readonly string[], input?: string): Promise<TmuxRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'tmux',
      args,
      { env, timeout: TMUX_TIMEOUT_MS, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(new Error(`tmux did not run: ${error.message}`));
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    // A tmux that reads no stdin (every command but load-buffer) may close it first: not a failure.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });
}

/**
 * What tmux's options say of a clipboard sequence sent from tole's pane (`TMUX_PANE`):
 * `allow-passthrough` on or all passes it through; a tmux before 3.3 has no such option and
 * always did; otherwise `set-clipboard on` has tmux take OSC 52 itself; else it is dropped.
 */
export function tmuxClipboard(env: NodeJS.ProcessEnv): TmuxClipboard {
  const pane = env['TMUX_PANE'] ? ['-t', env['TMUX_PANE']] : [];
  return {
    async route(): Promise<TmuxClipboardRoute> {
      const passthrough = await runTmux(env, ['show-options', '-Apv', ...pane, 'allow-passthrough']);
      if (passthrough.code !== 0) {
        if (/invalid option|unknown option/i.test(passthrough.stderr)) return 'passthrough';
        throw new Error(`tmux show-options failed: ${passthrough.stderr.trim() || `exit ${passthrough.code}`}`);
      }
      if (['on', 'all'].includes(passthrough.stdout.trim())) return 'passthrough';
      const clipboard = await runTmux(env, ['show-options', '-sv', 'set-clipboard']);
      return clipboard.code === 0 && clipboard.stdout.trim() === 'on' ? 'set-clipboard' : 'blocked';
    },
    async loadBuffer(text: string): Promise<void> {
      const loaded = await runTmux(env, ['load-buffer', '-'], text);
      if (loaded.code !== 0)
        throw new Error(`tmux load-buffer failed: ${loaded.stderr.trim() || `exit ${loaded.code}`}`);
    },
  };
}
