import { describeIoError, StorageError } from './errors';
import type { FileOps } from './file-ops';
import { systemProbe, type ProcessProbe } from './process-probe';

/**
 * One writer per session file: `<file>.lock`, created exclusively. It names its holder in a way
 * that survives pid reuse: pid, host, boot id, pid namespace and the process's start time.
 */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly nonce: string;
  readonly createdAt: number;
  readonly startTime?: string | null;
  readonly bootId?: string | null;
  readonly pidNamespace?: string | null;
}

export interface HeldLock {
  readonly path: string;
  /**
   * Throws a `lock-lost` StorageError when the lock file is no longer the one this opener created
   * (removed by `tole unlock`, or replaced by another tole): one stat, before each commit.
   */
  check(): void;
  release(): void;
}

/** Whether the holder a lock names still holds it: `stale` may be taken over, `unknown` needs the user. */
interface LockVerdict {
  readonly state: 'held' | 'stale' | 'unknown';
  /** Why, in words for the user. */
  readonly reason: string;
}

/** Nonces of the locks this process holds: a lock naming this pid is live only when it is one of them. */
const heldHere = new Set<string>();

export function lockPathFor(sessionPath: string): string {
  return `${sessionPath}.lock`;
}

function probeOf(ops: FileOps): ProcessProbe {
  return ops.processes ?? systemProbe;
}

export function readLockOwner(ops: FileOps, lockPath: string): LockOwner | null {
  try {
    // Not a FIFO or a device: reading one waits for a writer, and the open would hang with no word.
    if (ops.kindOf(lockPath) !== 'file') return null;
    const owner = JSON.parse(ops.readFileSync(lockPath).toString('utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return null;
    return owner as LockOwner;
  } catch {
    return null;
  }
}

/** Decides whether the process a lock names is still the one that took it. */
export function judgeLock(owner: LockOwner | null, probe: ProcessProbe): LockVerdict {
  if (owner === null) return { state: 'unknown', reason: 'the lock file cannot be read' };
  const who = `pid ${owner.pid} on ${owner.host}`;
  if (owner.host !== probe.host)
    return {
      state: 'unknown',
      reason: `it was taken on another host (${who}), whose processes cannot be checked from here`,
    };
  const bootId = probe.bootId();
  if (owner.bootId && bootId && owner.bootId !== bootId)
    return { state: 'stale', reason: `it was taken by ${who} before the machine restarted` };
  // The namespace first: pid 1 in another container is not this process, even when this one is pid 1 too.
  const namespace = probe.pidNamespace();
  if (owner.pidNamespace && namespace && owner.pidNamespace !== namespace)
    return judgeInOtherNamespace(owner, owner.pidNamespace, probe);
  if (owner.pid === probe.pid) {
    // This pid is this process: the lock is live only if this process took it and holds it still
    // (a tole restarted in a container gets the same pid as the one that crashed).
    return heldHere.has(owner.nonce)
      ? { state: 'held', reason: `this tole (${who}) holds it` }
      : { state: 'stale', reason: `it names this process's own pid (${owner.pid}), which took no such lock` };
  }
  if (!probe.exists(owner.pid)) return { state: 'stale', reason: `${who} is gone` };
  const now = probe.startTime(owner.pid);
  if (owner.startTime && now) {
    return owner.startTime === now
      ? { state: 'held', reason: `${who} is running` }
      : { state: 'stale', reason: `pid ${owner.pid} now belongs to another process` };
  }
  return {
    state: 'unknown',
    reason: `pid ${owner.pid} is running, but tole cannot tell whether it is the process that took the lock`,
  };
}

/**
 * A holder in another pid namespace (`unshare -p`, a container) numbers itself in that namespace.
 * From an outer namespace it is still visible: the process whose namespace is the lock's and whose
 * innermost pid (NSpid) is the lock's pid, with the same start time, is the holder.
 */
function judgeInOtherNamespace(owner: LockOwner, namespace: string, probe: ProcessProbe): LockVerdict {
  const who = `pid ${owner.pid} of pid namespace ${namespace}`;
  const located = probe.locate?.(namespace, owner.pid) ?? { state: 'unseen' as const };
  switch (located.state) {
    case 'found':
      if (owner.startTime && located.startTime && owner.startTime !== located.startTime)
        return { state: 'stale', reason: `${who} now belongs to another process` };
      return owner.startTime && located.startTime
        ? { state: 'held', reason: `${who} is running` }
        : { state: 'unknown', reason: `${who} is running, but tole cannot tell whether it took the lock` };
    case 'absent':
      return { state: 'stale', reason: `${who} is gone` };
    case 'unseen':
      return {
        state: 'unknown',
        reason: `it was taken by ${who} (another container?), whose processes cannot be seen from here`,
      };
  }
}

/** A lock whose holder is provably gone (as this process sees it). */
export function isStale(owner: LockOwner | null, probe: ProcessProbe = systemProbe): boolean {
  return owner !== null && judgeLock(owner, probe).state === 'stale';
}

export function acquireLock(
  ops: FileOps,
  sessionPath: string,
  nonce: string,
  nowMs: number,
  /** True when the session is being made: a lock that cannot be made is then said as a session not made. */
  creating = false,
): HeldLock {
  try {
    return acquireLockOnce(ops, sessionPath, nonce, nowMs);
  } catch (error) {
    if (error instanceof LockNotMade) throw lockNotMadeError(error.lockPath, error.cause, creating);
    throw error;
  }
}

function acquireLockOnce(ops: FileOps, sessionPath: string, nonce: string, nowMs: number): HeldLock {
  const path = lockPathFor(sessionPath);
  const probe = probeOf(ops);
  const owner: LockOwner = {
    pid: probe.pid,
    host: probe.host,
    nonce,
    createdAt: nowMs,
    startTime: probe.startTime(probe.pid),
    bootId: probe.bootId(),
    pidNamespace: probe.pidNamespace(),
  };
  const held = (): HeldLock => {
    heldHere.add(nonce);
    // The lock file is kept open while held, so that its inode number cannot go to a new file:
    // a file at the path with another inode is another lock.
    const fd = ops.openSync(path, 'r');
    const created = ops.fileIdOf(path);
    let lost: StorageError | null = null;
    let released = false;
    return {
      path,
      check: () => {
        if (lost === null && ops.fileIdOf(path) !== created) lost = lockLostError(ops, sessionPath);
        if (lost !== null) throw lost;
      },
      release: () => {
        if (released) return;
        released = true;
        ops.closeSync(fd);
        releaseIfOurs(ops, path, nonce);
      },
    };
  };
  if (createLock(ops, path, owner)) return held();
  const current = readLockOwner(ops, path);
  const verdict = judgeLock(current, probe);
  if (verdict.state !== 'stale' || current === null) throw lockedError(sessionPath, current, verdict);
  if (takeOver(ops, path, current, owner)) return held();
  // Another opener took it over first (or is taking it over now): say who holds it now.
  const now = readLockOwner(ops, path);
  throw lockedError(
    sessionPath,
    now,
    now?.nonce === current.nonce
      ? { state: 'unknown', reason: 'another tole is taking over its stale lock right now' }
      : judgeLock(now, probe),
  );
}

function createLock(ops: FileOps, path: string, owner: LockOwner): boolean {
  try {
    ops.writeFileExclusive(path, JSON.stringify(owner));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new LockNotMade(path, error);
    return false;
  }
}

/** A lock file (or takeover marker) the disk would not let be made: said by `acquireLock`, which knows why it was wanted. */
class LockNotMade extends Error {
  constructor(
    readonly lockPath: string,
    override readonly cause: unknown,
  ) {
    super(`lock file ${lockPath} could not be made`);
  }
}

/**
 * A lock that could not be made for a reason of the disk (full, read-only, not permitted): the
 * session is not opened for writing and nothing in it was changed, or, for a session being made,
 * no session file was written. Said in those words, with what to do, instead of surfacing as an
 * internal error.
 */
function lockNotMadeError(lockPath: string, error: unknown, creating: boolean): StorageError {
  const sessionPath = lockPath.replace(/\.lock(\.takeover-.*)?$/, '');
  const code = (error as NodeJS.ErrnoException).code;
  const what = creating ? whatToDoForANewSession(code) : whatToDoForAnOpen(code);
  const said = creating
    ? `the new session ${sessionPath} was not made: its lock file ${lockPath} could not be made (${describeIoError(error)}); no session file was written`
    : `the session ${sessionPath} was not opened for writing: its lock file ${lockPath} could not be made (${describeIoError(error)}); nothing in the session was changed`;
  return new StorageError('not-committed', `${said}. ${what[0]!.toUpperCase()}${what.slice(1)}`, {
    path: sessionPath,
    cause: error,
    ownRemedy: true,
  });
}

function whatToDoForAnOpen(code: string | undefined): string {
  if (code === 'EROFS')
    return 'its folder is on a read-only file system: open it read-only (--read-only), or copy it to a writable folder and open the copy';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk holding it is full: free some space, then open it again';
  if (code === 'EACCES' || code === 'EPERM')
    return "its folder cannot be written by this user: open it read-only (--read-only), or fix the folder's permissions";
  return 'open it again, or read-only (--read-only)';
}

function whatToDoForANewSession(code: string | undefined): string {
  if (code === 'EROFS')
    return 'its folder is on a read-only file system: set TOLE_HOME to a writable folder (sessions go in $TOLE_HOME/sessions)';
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return 'the disk holding it is full: free some space, then start tole again';
  if (code === 'EACCES' || code === 'EPERM')
    return "its folder cannot be written by this user: fix the folder's permissions, or set TOLE_HOME to a folder you can write";
  return 'start tole again';
}

/**
 * Replaces a stale lock so that of several openers taking it over at once exactly one wins:
 * each must first create `<lock>.takeover-<stale nonce>` exclusively. The winner removes the
 * stale lock only if it is still that one, then creates its own exclusively.
 */
function takeOver(ops: FileOps, path: string, stale: LockOwner, owner: LockOwner): boolean {
  const marker = takeoverMarker(path, stale.nonce);
  if (!createLock(ops, marker, owner)) return false;
  try {
    if (readLockOwner(ops, path)?.nonce === stale.nonce) unlinkQuietly(ops, path);
    return createLock(ops, path, owner);
  } finally {
    unlinkQuietly(ops, marker);
  }
}

function takeoverMarker(lockPath: string, staleNonce: string): string {
  return `${lockPath}.takeover-${String(staleNonce).replace(/[^0-9A-Za-z_-]/g, '_')}`;
}

function lockedError(sessionPath: string, owner: LockOwner | null, verdict: LockVerdict): StorageError {
  const details = {
    path: sessionPath,
    holder: verdict.state === 'held' ? ('running' as const) : ('unknown' as const),
    ...(owner ? { pid: owner.pid, host: owner.host } : {}),
  };
  if (verdict.state === 'held') {
    return new StorageError(
      'locked',
      `session is locked by pid ${owner!.pid} on ${owner!.host}, a running tole: close that tole, or open this session read-only (--read-only)`,
      details,
    );
  }
  const who = owner ? `pid ${owner.pid} on ${owner.host}` : 'another process';
  const why = owner ? verdict.reason : `its lock file ${lockPathFor(sessionPath)} cannot be read`;
  return new StorageError(
    'locked',
    `session is locked by ${who}, and ${why}: if no tole is using this session, run tole unlock ${sessionPath} (it checks first); or open it read-only (--read-only)`,
    details,
  );
}

function lockLostError(ops: FileOps, sessionPath: string): StorageError {
  const path = lockPathFor(sessionPath);
  const now = readLockOwner(ops, path);
  const what =
    now === null && !ops.existsSync(path)
      ? `its lock file ${path} was removed (by tole unlock --force, or by hand)`
      : `its lock file ${path} was replaced${now ? ` by pid ${now.pid} on ${now.host}` : ''}`;
  return new StorageError(
    'lock-lost',
    `not committed: ${what}, so another tole may be writing ${sessionPath}; nothing more is written from here. Close this tole, make sure only one tole has the session open, then run tole check ${sessionPath} and open it again`,
    { path: sessionPath, ownRemedy: true, ...(now ? { pid: now.pid, host: now.host } : {}) },
  );
}

function unlinkQuietly(ops: FileOps, path: string): void {
  try {
    ops.unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function releaseIfOurs(ops: FileOps, path: string, nonce: string): void {
  heldHere.delete(nonce);
  const owner = readLockOwner(ops, path);
  if (owner?.nonce === nonce) unlinkQuietly(ops, path);
}

/** What `tole unlock PATH` found and did. */
interface UnlockResult {
  readonly removed: boolean;
  readonly owner: LockOwner | null;
  readonly verdict: LockVerdict | null;
}

/**
 * Removes a session's lock when its holder is provably gone. A holder tole cannot check (another
 * host, a pid namespace not visible from here) may still be writing: its lock is removed only
 * with `force`, the user having been told why.
 */
export function unlockSession(ops: FileOps, sessionPath: string, force = false): UnlockResult {
  const path = lockPathFor(sessionPath);
  if (!ops.existsSync(path)) return { removed: false, owner: null, verdict: null };
  const owner = readLockOwner(ops, path);
  const verdict = judgeLock(owner, probeOf(ops));
  if (verdict.state === 'held' || (verdict.state === 'unknown' && !force)) return { removed: false, owner, verdict };
  unlinkQuietly(ops, path);
  if (owner) unlinkQuietly(ops, takeoverMarker(path, owner.nonce));
  return { removed: true, owner, verdict };
}
