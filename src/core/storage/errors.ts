/** Expected storage failures: typed, handled by the caller, shown in words that say what to do. */
type StorageErrorKind =
  | 'corrupt'
  | 'version'
  | 'locked'
  /** The writer's own lock file was removed or replaced while it held the session: it stops writing. */
  | 'lock-lost'
  | 'not-committed'
  | 'poisoned'
  | 'not-found'
  /** Not a regular file (a FIFO, a directory, a device), or the OS refused to open it. */
  | 'unreadable'
  | 'read-only'
  | 'invalid-commit'
  /** A commit over MAX_COMMIT_BYTES: not written (nothing on disk or in memory changed). */
  | 'too-large'
  /** A file that would be overwritten (tole never overwrites a session file). */
  | 'exists'
  /** An optional backend whose package is not installed (SQLite without better-sqlite3). */
  | 'unavailable';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly kind: StorageErrorKind,
    message: string,
    readonly details: {
      readonly path?: string;
      readonly line?: number;
      readonly pid?: number;
      readonly host?: string;
      /** For a lock: whether its holder is known to be running, or tole cannot tell (then `tole unlock` decides). */
      readonly holder?: 'running' | 'unknown';
      readonly cause?: unknown;
      /** The message itself says what to do: no general advice is added where it is shown. */
      readonly ownRemedy?: boolean;
    } = {},
  ) {
    super(message);
  }
}

export function isStorageError(error: unknown, kind?: StorageErrorKind): error is StorageError {
  return error instanceof StorageError && (kind === undefined || error.kind === kind);
}

/** An I/O error in a message: its code and text (`ENOSPC no space left on device`), else its message. */
export function describeIoError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  // Node's own messages begin with their code ("ENOSPC: no space left on device, write"): said once.
  if (e?.code && typeof e.message === 'string' && !e.message.includes(e.code)) return `${e.code} ${e.message}`;
  return String(e?.message ?? error);
}
