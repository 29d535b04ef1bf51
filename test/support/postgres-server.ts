/**
 * A real PostgreSQL for tests: `initdb` in a temp dir, `postgres` on a random loopback port, and
 * stopped (and the dir removed) at the end. PostgreSQL refuses to run as root, and CI runs as
 * root: then the cluster belongs to `nobody` and its processes run under that uid (setpriv).
 * Where no server binaries are installed (`npm test` installs Debian's postgresql-15 where it can), the
 * tests that need one are skipped with the reason printed.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NOBODY = 65534;

/** The directory holding `initdb` and `postgres`, or null when PostgreSQL is not installed. */
export function postgresBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  }
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  } catch {
    // No pg_config either.
  }
  return null;
}

export const POSTGRES_BIN = postgresBinDir();
export const NO_POSTGRES_REASON =
  'skipped: no PostgreSQL server binaries (initdb, postgres) are installed; npm test installs postgresql-15 when it runs as root with apt-get';
if (POSTGRES_BIN === null) process.stderr.write(`postgres tests ${NO_POSTGRES_REASON}\n`);

const asRoot = process.getuid?.() === 0;

/** argv that runs `bin` as the cluster's owner. */
function asOwner(bin: string, args: readonly string[]): [string, string[]] {
  if (!asRoot) return [bin, [...args]];
  return ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', bin, ...args]];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresServer {
  readonly port: number;
  readonly dataDir: string;
  /** `postgres://tole@127.0.0.1:PORT/DB` */
  url(database?: string): string;
  /** A fresh empty database, so that each test has its own. */
  createDatabase(name: string): string;
  /** Fast shutdown; resolves once the server has exited. */
  stop(): Promise<void>;
  /** Starts the server again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes the data dir. */
  destroy(): Promise<void>;
}

export interface StartOptions {
  /** Keep the server's own fsync (for the bench); tests run without it. */
  readonly durable?: boolean;
  /** The role `tole` needs this password (scram-sha-256); without it every connection is trusted. */
  readonly password?: string;
}

export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  const bin = POSTGRES_BIN;
  if (bin === null) throw new Error(NO_POSTGRES_REASON);
  const dataDir = mkdtempSync(join(tmpdir(), 'tole-pg-'));
  if (asRoot) chownSync(dataDir, NOBODY, NOBODY);
  // initdb wants an empty data dir: the password file sits beside it, readable by the owner.
  const passwordFile = `${dataDir}.password`;
  if (options.password !== undefined) {
    writeFileSync(passwordFile, `${options.password}\n`);
    if (asRoot) chownSync(passwordFile, NOBODY, NOBODY);
  }
  const [initCmd, initArgs] = asOwner(join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'tole',
    '-A',
    ...(options.password === undefined ? ['trust'] : ['scram-sha-256', `--pwfile=${passwordFile}`]),
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  execFileSync(initCmd, initArgs, { stdio: 'pipe', cwd: dataDir });
  rmSync(passwordFile, { force: true });
  const port = await freePort();
  let child: ChildProcess | null = null;
  let stopping: Promise<void> = Promise.resolve();
  const settings = options.durable
    ? []
    : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

  const start = async (): Promise<void> => {
    await stopping;
    const [cmd, args] = asOwner(join(bin, 'postgres'), [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      dataDir,
      '-c',
      'max_connections=40',
      ...settings,
    ]);
    const started = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dataDir });
    let log = '';
    started.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-4000)));
    child = started;
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    for (let waited = 0; ; waited += 50) {
      if (started.exitCode !== null) throw new Error(`postgres exited at start: ${log}`);
      if (/ready to accept connections/.test(log)) return;
      if (waited > 30_000) {
        started.kill('SIGKILL');
        await exited;
        throw new Error(`postgres did not start in 30 s: ${log}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const stop = (): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return stopping;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGINT');
    const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    stopping = exited.then(() => clearTimeout(timer));
    return stopping;
  };

  await start();
  const url = (database = 'postgres'): string => `postgres://tole@127.0.0.1:${port}/${database}`;
  return {
    port,
    dataDir,
    url,
    createDatabase(name: string): string {
      const [cmd, args] = asOwner(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'tole', name]);
      const env = options.password === undefined ? process.env : { ...process.env, PGPASSWORD: options.password };
      execFileSync(cmd, args, { stdio: 'pipe', cwd: dataDir, env });
      return url(name);
    },
    stop,
    start,
    async destroy(): Promise<void> {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
