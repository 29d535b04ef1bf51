import type { Random } from '../core/clock';
import { isStorageError } from '../core/storage/errors';
import type { CliArgs } from './args';
import { openSession, type OpenedSession } from './open-session';

/**
 * Opens the session the screen shows. One that another tole holds (its lock is live) opens
 * read-only instead, with a notice naming the holder: the user can read it, nothing is written.
 */
export function openForTui(args: CliArgs, dir: string, cwd: string, random: Random): OpenedSession {
  try {
    return openSession(args, dir, cwd, random);
  } catch (error) {
    if (!isStorageError(error, 'locked') || args.readOnly) throw error;
    const opened = openSession({ ...args, readOnly: true }, dir, cwd, random);
    const { pid, host } = error.details;
    const holder = pid === undefined ? 'another process' : `pid ${pid}${host ? ` on ${host}` : ''}`;
    const then =
      error.details.holder === 'unknown'
        ? `if no tole is using it, quit and run tole unlock ${opened.store.path}`
        : 'close that tole to continue it here';
    return {
      ...opened,
      notices: [`locked by ${holder}: showing it read-only, nothing will be written; ${then}`, ...opened.notices],
    };
  }
}
