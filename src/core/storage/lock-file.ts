import { hostname } from 'node:os';
import { StorageError } from './errors';
import type { FileOps } from './file-ops';

/** One writer per session file: `<file>.lock`, created exclusively, holding pid, host and a nonce. */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
  readonly createdAt: number;
}

export interface HeldLock {
  readonly path: string;
  release(): void;
}

export function lockPathFor(sessionPath: string): string {
  return `${sessionPath}.lock`;
}

export function readLockOwner(ops: FileOps, lockPath: string): LockOwner | null {
  try {
    const owner = JSON.parse(ops.readFileSync(lockPath).toString('utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return null;
    return owner as LockOwner;
  } catch {
    return null;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock is stale when it was taken on this host by a process that is gone. */
export function isStale(owner: LockOwner | null): boolean {
  if (owner === null) return false;
  return owner.host === hostname() && !pidAlive(owner.pid);
}

export function acquireLock(ops: FileOps, sessionPath: string, nonce: string, nowMs: number): HeldLock {
  const path = lockPathFor(sessionPath);
  const owner: LockOwner = { pid: process.pid, host: hostname(), nonce, createdAt: nowMs };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      ops.writeFileExclusive(path, JSON.stringify(owner));
      return { path, release: () => releaseIfOurs(ops, path, nonce) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readLockOwner(ops, path);
      if (attempt === 0 && isStale(current)) {
        ops.unlinkSync(path);
        continue;
      }
      throw lockedError(sessionPath, current);
    }
  }
  throw lockedError(sessionPath, readLockOwner(ops, path));
}

function lockedError(sessionPath: string, owner: LockOwner | null): StorageError {
  const message = owner
    ? `session is locked by pid ${owner.pid} on ${owner.host}: close that tole, or open this session read-only (--read-only)`
    : `session is locked by another process (its lock file ${lockPathFor(sessionPath)} is unreadable): if no tole is using it, delete that file`;
  return new StorageError('locked', message, { path: sessionPath, ...(owner ? { pid: owner.pid, host: owner.host } : {}) });
}

function releaseIfOurs(ops: FileOps, path: string, nonce: string): void {
  const owner = readLockOwner(ops, path);
  if (owner?.nonce === nonce) {
    try {
      ops.unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}
