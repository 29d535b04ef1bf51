import { StorageError } from './errors';
import { nodeFileOps, type FileKind, type FileOps } from './file-ops';
import { type JsonlOpenOptions, JsonlStorage } from './jsonl-storage';
import type { SessionHeader } from './records';
import { SqliteStorage } from './sqlite-storage';
import type { Storage } from './storage';

/** Where a session's commits live: one JSONL file (the default), or one SQLite database. */
export type StorageBackend = 'jsonl' | 'sqlite';

export function isStorageBackend(value: unknown): value is StorageBackend {
  return value === 'jsonl' || value === 'sqlite';
}

/** A `.db` file is SQLite; anything else is read as JSONL. */
export function backendOfPath(path: string): StorageBackend {
  return path.endsWith('.db') ? 'sqlite' : 'jsonl';
}

export function extensionOf(backend: StorageBackend): '.jsonl' | '.db' {
  return backend === 'sqlite' ? '.db' : '.jsonl';
}

interface BackendOptions {
  readonly ops?: FileOps;
  readonly nonce: string;
  readonly nowMs: number;
}

export function createStorage(
  backend: StorageBackend,
  path: string,
  header: SessionHeader,
  options: BackendOptions,
): Storage {
  return backend === 'sqlite'
    ? SqliteStorage.create(path, header, options)
    : JsonlStorage.create(path, header, options);
}

/** Opens `path` with the backend its extension names. */
export function openStorage(
  path: string,
  /** JsonlOpenOptions' own say what each does (SQLite replays on one thread and never calls onRestart). */
  options: BackendOptions &
    Pick<
      JsonlOpenOptions,
      'readOnly' | 'onCommit' | 'onRestart' | 'asideMinBytes' | 'asideWorker' | 'onSaved' | 'indexKey'
    >,
): Storage {
  assertSessionFile(options.ops ?? nodeFileOps, path);
  return backendOfPath(path) === 'sqlite' ? SqliteStorage.open(path, options) : JsonlStorage.open(path, options);
}

const KIND_WORDS: Readonly<Record<Exclude<FileKind, 'file'>, string>> = {
  directory: 'a directory',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  device: 'a device',
  other: 'not a regular file',
};

/**
 * A session is a regular file. Anything else is refused before it is opened: opening a FIFO
 * blocks until a writer comes, and a directory cannot be read as lines.
 */
function assertSessionFile(ops: FileOps, path: string): void {
  const kind = ops.kindOf(path);
  if (kind === null) throw new StorageError('not-found', `no session file at ${path}`, { path });
  if (kind !== 'file')
    throw new StorageError(
      'unreadable',
      `${path}: cannot be read as a session: it is ${KIND_WORDS[kind]}, not a session file`,
      { path },
    );
}
