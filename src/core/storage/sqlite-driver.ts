import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { StorageError } from './errors';

/**
 * better-sqlite3 is an optional dependency: tole installs, bundles and runs without it. It is
 * loaded here, on first use, never by a top-level import.
 */
export type SqliteDriver = typeof BetterSqlite3;
export type SqliteDatabase = BetterSqlite3.Database;

export const SQLITE_PACKAGE = 'better-sqlite3@12.11.1';

let cached: SqliteDriver | StorageError | undefined;

/** The driver, or a StorageError of kind 'unavailable' that says how to install it. */
export function loadSqliteDriver(load: () => unknown = requireDriver): SqliteDriver {
  if (load === requireDriver && cached !== undefined) {
    if (cached instanceof StorageError) throw cached;
    return cached;
  }
  let result: SqliteDriver | StorageError;
  try {
    result = load() as SqliteDriver;
    if (typeof result !== 'function') throw new Error('it does not export a Database constructor');
  } catch (error) {
    result = unavailable(error);
  }
  if (load === requireDriver) cached = result;
  if (result instanceof StorageError) throw result;
  return result;
}

/** Null when the SQLite backend can be used here, else why not. */
export function sqliteUnavailableReason(): string | null {
  try {
    loadSqliteDriver();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Requires the package and opens an in-memory database, which loads its native addon. */
function requireDriver(): unknown {
  const Driver = createRequire(import.meta.url)('better-sqlite3') as SqliteDriver;
  new Driver(':memory:').close();
  return Driver;
}

function unavailable(error: unknown): StorageError {
  const e = error as NodeJS.ErrnoException;
  const missing = e?.code === 'MODULE_NOT_FOUND' && String(e.message).includes('better-sqlite3');
  const why = missing
    ? 'better-sqlite3 is not installed'
    : `better-sqlite3 could not be loaded (${String(e?.message ?? error).split('\n')[0]})`;
  return new StorageError(
    'unavailable',
    `the SQLite session backend needs better-sqlite3, and ${why}: enable it with \`npm install ${SQLITE_PACKAGE}\` where tole is installed, or use the default JSONL backend (--storage jsonl)`,
    { cause: error },
  );
}
