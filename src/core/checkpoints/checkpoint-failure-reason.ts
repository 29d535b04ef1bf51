/**
 * What the user is told when a checkpoint could not be taken: a full disk, tole's own directory
 * not writable, or anything else the snapshot met, each with what to do about it.
 */
import { GitFailure } from './git-command';

/** The reason a failed snapshot gives, naming tole's checkpoint directory `gitDir`. */
export function snapshotFailureReason(error: unknown, gitDir: string): string {
  const message = (error as Error)?.message ?? String(error);
  if (diskFull(error)) {
    return `the disk holding tole's checkpoint directory ${gitDir} is full (${message}): free some space there; the next checkpoint is taken once there is room, and the newest one taken before is kept whole`;
  }
  if (cannotWrite(error)) {
    return `tole's checkpoint directory ${gitDir} cannot be written (${message}): make it writable, or set TOLE_HOME to a writable folder`;
  }
  return `the workspace could not be snapshotted: ${message}`;
}

/** A full disk or a spent quota under tole's own directory, from node or from git (whose words vary by where it failed). */
function diskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return (
    error instanceof GitFailure && /No space left on device|Out of diskspace|Disk quota exceeded/i.test(error.stderr)
  );
}

/** A failure to write tole's own directory (read-only filesystem, permissions), from node or from git. */
function cannotWrite(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return true;
  return error instanceof GitFailure && /Read-only file system|Permission denied/.test(error.stderr);
}
