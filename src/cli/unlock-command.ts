import { resolve } from 'node:path';
import { nodeFileOps } from '../core/storage/file-ops';
import { lockPathFor, unlockSession } from '../core/storage/lock-file';
import { UsageError, type CliArgs } from './args';

/** `tole unlock PATH [--force]`: removes a session's lock when the tole holding it is gone (or, forced, cannot be checked). */
export function runUnlock(
  args: CliArgs,
  io: { cwd: string; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): number {
  const target = args.positional[0];
  if (!target) throw new UsageError('tole unlock needs a session file: tole unlock PATH');
  const path = resolve(io.cwd, target);
  const result = unlockSession(nodeFileOps, path, args.force);
  const who = result.owner ? `pid ${result.owner.pid} on ${result.owner.host}` : 'an unreadable lock file';
  if (result.verdict === null) {
    io.stdout.write(`tole: ${path} is not locked (no ${lockPathFor(path)})\n`);
    return 0;
  }
  if (!result.removed && result.verdict.state === 'unknown') {
    io.stderr.write(
      `tole: not unlocked: the lock names ${who}, and ${result.verdict.reason}. It may still be writing this session; a second writer would corrupt it. If you are sure no tole has it open, run tole unlock ${path} --force\n`,
    );
    return 1;
  }
  if (!result.removed) {
    io.stderr.write(
      `tole: not unlocked: ${result.verdict.reason}; close that tole first, or open the session read-only (--read-only)\n`,
    );
    return 1;
  }
  io.stdout.write(`tole: removed the lock of ${who} (${result.verdict.reason}); ${path} can be opened now\n`);
  return 0;
}
