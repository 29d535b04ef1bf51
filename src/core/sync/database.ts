/**
 * The connection to the team's PostgreSQL (the `pg` driver), and the schema check every sync,
 * listing and pull starts with. Failures are SyncErrors whose words never hold the password.
 */
import type pg from 'pg';
import { urlHasPassword } from './url-password';
import { BOOTSTRAP_SQL, MIGRATION_LOCK_KEY, MIGRATIONS, SCHEMA_VERSION } from './schema';

type SyncErrorKind = 'url' | 'connect' | 'schema-newer' | 'query' | 'not-found';

export class SyncError extends Error {
  override readonly name = 'SyncError';
  constructor(
    readonly kind: SyncErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export function isSyncError(error: unknown, kind?: SyncErrorKind): error is SyncError {
  return error instanceof SyncError && (kind === undefined || error.kind === kind);
}

/** The URL with any password replaced, fit to show. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

function checkSyncUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SyncError(
      'url',
      `"${redactUrl(url)}" is not a URL: give postgres://USER@HOST:PORT/DATABASE (the password goes in PGPASSWORD or ~/.pgpass, not in a file)`,
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new SyncError('url', `"${redactUrl(url)}" is not a PostgreSQL URL: give postgres://USER@HOST:PORT/DATABASE`);
  }
}

export interface Db {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Runs `body` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(body: () => Promise<T>): Promise<T>;
  end(): Promise<void>;
}

interface ConnectOptions {
  readonly connectTimeoutMs?: number;
  readonly queryTimeoutMs?: number;
  /** The password, when it came from somewhere other than the URL, PGPASSWORD or ~/.pgpass (stdin). */
  readonly password?: string;
}

/**
 * `url` with `password` in it, for the driver only (never shown, never in argv): the driver takes
 * a URL's empty password over one given beside it, so it goes into the URL. A password already in
 * the URL is kept.
 */
export function withPassword(url: string, password: string | undefined): string {
  if (password === undefined || urlHasPassword(url)) return url;
  const parsed = new URL(url);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** Opens one connection and brings the schema up to this tole's version (or refuses a newer one). */
export async function connect(url: string, options: ConnectOptions = {}): Promise<Db> {
  checkSyncUrl(url);
  const shown = redactUrl(url);
  // Loaded on first use: the driver is not part of every tole's start-up.
  const { default: driver } = await import('pg');
  const client = new driver.Client({
    connectionString: withPassword(url, options.password),
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    query_timeout: options.queryTimeoutMs ?? 60_000,
    application_name: 'tole',
  });
  // A connection lost while idle is reported here; the next query fails and says so.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new SyncError('connect', `cannot reach PostgreSQL at ${shown}: ${reason(error)}`);
  }
  const wrap = async <T>(what: () => Promise<T>): Promise<T> => {
    try {
      return await what();
    } catch (error) {
      if (error instanceof SyncError) throw error;
      throw new SyncError('query', `PostgreSQL at ${shown}: ${reason(error)}`);
    }
  };
  const db: Db = {
    query: (text, values) => wrap(() => client.query(text, values)),
    async transaction<T>(body: () => Promise<T>): Promise<T> {
      await db.query('BEGIN');
      try {
        const result = await body();
        await db.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },
    end: () => client.end().catch(() => {}),
  };
  try {
    await migrate(db);
  } catch (error) {
    await db.end();
    throw error;
  }
  return db;
}

/**
 * Applies the migrations this database lacks, in order, under one advisory lock so that two toles
 * never migrate at once. A database migrated by a newer tole is refused, untouched: this tole
 * would not know what its rows mean.
 */
export async function migrate(db: Db): Promise<number> {
  return db.transaction(async () => {
    await db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await db.query(BOOTSTRAP_SQL);
    const { rows } = await db.query<{ v: number | null }>('SELECT max(version) AS v FROM tole.schema_migrations');
    const current = rows[0]?.v ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new SyncError(
        'schema-newer',
        `the database's tole schema is version ${current}, newer than this tole knows (${SCHEMA_VERSION}): upgrade tole on this machine; nothing was read or written`,
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      await db.query(migration.sql);
      await db.query('INSERT INTO tole.schema_migrations (version, description) VALUES ($1, $2)', [
        migration.version,
        migration.description,
      ]);
    }
    return SCHEMA_VERSION;
  });
}

function reason(error: unknown): string {
  const e = error as { message?: string; code?: string };
  const text = e?.message || e?.code || String(error);
  return text.replace(/postgres(ql)?:\/\/[^\s]*/g, (u) => redactUrl(u));
}
