import { hostname, userInfo } from 'node:os';
import { connect, redactUrl, type Db } from '../core/sync/database';
import { urlHasPassword } from '../core/sync/url-password';
import { SAFER_PASSWORD_PLACES } from './password-in-argv';
import { ShipCache } from '../core/sync/ship-cache';
import { shipSessions, type ShipReport } from '../core/sync/shipper';
import { UsageError, type CliArgs } from './args';
import { loadConfig, type Config } from './config';
import { listSessionFiles, sessionsDirectory } from './session-files';

/**
 * The server for `tole sync` (`--to`) or a read (`--from`): the flag, else TOLE_SYNC_URL, else
 * config's sync.url. A password in the config file gets a warning through `warn` naming the safer
 * places (one on the command line is warned about by main: `passwordInArgvWarning`); it is used all the same.
 */
export function syncUrlFor(
  given: string | undefined,
  env: NodeJS.ProcessEnv,
  config: Config,
  flag: '--to' | '--from',
  warn: (line: string) => void = () => {},
): string {
  const url = given || env['TOLE_SYNC_URL'] || config.sync?.url;
  if (!url)
    throw new UsageError(
      `${flag} needs a server: ${flag} postgres://USER@HOST:PORT/DATABASE, or set "sync": { "url": ... } in tole.config.json`,
    );
  const fromConfig = config.sync?.url;
  if (url === fromConfig && urlHasPassword(fromConfig)) warn(configPasswordWarning());
  return url;
}

/** The warning for a password written in the config's sync.url. */
function configPasswordWarning(): string {
  return `tole: warning: the config's sync.url holds a password in plain text; remove it from the file and put it in ${SAFER_PASSWORD_PLACES}\n`;
}

/** The password piped to `--password-stdin`: everything read, without the line end; an empty one is refused. */
export async function readPasswordStdin(stdin: NodeJS.ReadableStream | undefined): Promise<string> {
  if (!stdin) throw new UsageError('--password-stdin: this tole has no stdin to read the password from');
  let text = '';
  for await (const chunk of stdin) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  const password = text.replace(/\r?\n$/, '');
  if (password === '')
    throw new UsageError(
      '--password-stdin read no password: pipe it in, e.g. tole sync --password-stdin < password-file',
    );
  return password;
}

interface SyncIdentity {
  readonly person: string;
  readonly host: string;
  readonly batchRecords?: number;
}

function syncIdentity(config: Config, env: NodeJS.ProcessEnv): SyncIdentity {
  let login = env['USER'] || env['LOGNAME'] || '';
  if (!login) {
    try {
      login = userInfo().username;
    } catch {
      login = 'unknown';
    }
  }
  return {
    person: config.sync?.person ?? login,
    host: hostname(),
    ...(config.sync?.batchRecords ? { batchRecords: config.sync.batchRecords } : {}),
  };
}

/** Connects, runs `body`, and always closes the connection. */
export async function withTeamDb<T>(url: string, body: (db: Db) => Promise<T>, password?: string): Promise<T> {
  const db = await connect(url, password === undefined ? {} : { password });
  try {
    return await body(db);
  } finally {
    await db.end();
  }
}

/** Ships every session in `dir` to `url`. */
async function syncSessionsDir(
  url: string,
  dir: string,
  identity: SyncIdentity,
  password?: string,
): Promise<ShipReport> {
  const cache = ShipCache.open(dir, redactUrl(url));
  return withTeamDb(url, (db) => shipSessions(db, listSessionFiles(dir), { ...identity, cache }), password);
}

/** `tole sync [--to postgres://...]`: ships every committed record of every local session, once. */
export async function runSync(
  args: CliArgs,
  io: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
    stdin?: NodeJS.ReadableStream;
  },
): Promise<number> {
  const { config } = loadConfig(io.cwd, io.env, { explicit: args.config, trust: args.trust });
  const url = syncUrlFor(args.to, io.env, config, '--to', (line) => io.stderr.write(line));
  const password = args.passwordStdin ? await readPasswordStdin(io.stdin) : undefined;
  const dir = sessionsDirectory(io.env, config.sessionsDir);
  const report = await syncSessionsDir(url, dir, syncIdentity(config, io.env), password);
  const problems = report.sessions.filter((s) => s.problem);
  for (const p of problems) io.stderr.write(`tole: not shipped: ${p.path}: ${p.problem}\n`);
  const shipped = report.sessions.filter((s) => s.records > 0).length;
  io.stdout.write(
    `shipped ${report.records} record${report.records === 1 ? '' : 's'} of ${shipped} session${shipped === 1 ? '' : 's'} to ${redactUrl(url)} (${report.sessions.length - problems.length} up to date)\n`,
  );
  return problems.length > 0 ? 1 : 0;
}

/**
 * The headless run's sync, when the config has a `sync` section: after the turn, bounded by
 * sync.timeoutMs (15 s by default). A failure is one line on stderr and changes no exit code.
 */
export async function syncAfterHeadlessTurn(
  config: Config,
  io: { env: NodeJS.ProcessEnv; stderr: NodeJS.WritableStream },
): Promise<void> {
  const url = io.env['TOLE_SYNC_URL'] || config.sync?.url;
  if (!url || config.sync?.background === false) return;
  if (url === config.sync?.url && urlHasPassword(url)) io.stderr.write(configPasswordWarning());
  const dir = sessionsDirectory(io.env, config.sessionsDir);
  const timeoutMs = config.sync?.timeoutMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([syncSessionsDir(url, dir, syncIdentity(config, io.env)), timeout]);
  } catch (error) {
    io.stderr.write(
      `tole: sync to ${redactUrl(url)} failed: ${(error as Error).message} (the session is safe in ${dir}; the next sync ships it)\n`,
    );
  } finally {
    clearTimeout(timer);
  }
}
