import { homedir } from 'node:os';
import { StorageError } from '../core/storage/errors';
import type { Binding } from '../tui/input/keymap';
import { runPicker } from '../tui/run-picker';
import type { CliArgs } from './args';
import { sessionsForListing } from './sessions-command';
import { clock } from './wiring';

type PickResult = { readonly args: CliArgs } | { readonly exitCode: number };

/** `tole --resume` without an id: the picker runs first; the session chosen is opened as `--resume PATH`. */
export async function pickSession(
  args: CliArgs,
  env: NodeJS.ProcessEnv,
  cwd: string,
  dir: string,
  look: { readonly theme: string; readonly noColor: boolean; readonly keymap: readonly Binding[] },
): Promise<PickResult> {
  // An empty session (opened, never prompted) is nothing to go back to; a broken one is listed, to be told why.
  const sessions = sessionsForListing(dir, cwd, true).filter((s) => s.entries > 0 || s.problem !== null);
  if (sessions.length === 0)
    throw new StorageError('not-found', `no sessions to resume yet (they live in ${dir}): start one with tole`);
  const exit = await runPicker({ sessions, cwd, home: env['HOME'] || homedir(), nowMs: clock.nowMs(), ...look });
  if (exit.reason === 'chosen') return { args: { ...args, resume: exit.session.path } };
  return { exitCode: exit.reason === 'signal' ? exit.exitCode : 0 };
}
