/**
 * The team server's password: `tole sync` takes it from the environment, a .pgpass-style file or
 * stdin (`--password-stdin`), so that it need never be on a command line where `ps` shows it; a
 * password on the command line or in a config file is used with a warning naming those places;
 * tole's own credential variables never reach the commands it starts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import type { Config } from '../../src/cli/config';
import { argvWithoutPasswords, passwordInArgvWarning, SAFER_PASSWORD_PLACES } from '../../src/cli/password-in-argv';
import { readPasswordStdin, syncUrlFor } from '../../src/cli/sync-command';
import { childEnv } from '../../src/core/child-env';
import { serverEnvironment } from '../../src/core/mcp/mcp-env';
import { withPassword } from '../../src/core/sync/database';
import { POSTGRES_BIN, startPostgres, type PostgresServer } from '../support/postgres-server';
import { TOLE_JS } from '../support/built-tole';
import { tempDirForFile, tempDirForTest } from '../support/after-the-test';

const PASSWORD = 'pg-secret-in-sight-42';

describe('tole’s own credential variables never reach a child', () => {
  const env = {
    PATH: '/usr/bin',
    TOLE_SYNC_URL: `postgres://tole:${PASSWORD}@db/tole`,
    TOLE_OTHER_URL: `postgres://u:${PASSWORD}@h/d`,
    TOLE_HOME: '/home/u/.tole',
    OPENAI_BASE_URL: 'http://x/v1',
  };

  it('childEnv drops TOLE_SYNC_URL and any TOLE_* URL with a password, even when passEnv names them', () => {
    const out = childEnv(env, { passEnv: ['TOLE_SYNC_URL', 'TOLE_OTHER_URL', 'OPENAI_BASE_URL'] });
    expect(out).toEqual({ PATH: '/usr/bin', TOLE_HOME: '/home/u/.tole' });
  });

  it('a provider key variable the config names is dropped even when passEnv names it', () => {
    expect(childEnv({ MY_LLM: 'k' }, { passEnv: ['MY_LLM'], drop: ['MY_LLM'] })).toEqual({});
  });

  it('an MCP server’s passEnv cannot pass them either', () => {
    const out = serverEnvironment(env, ['TOLE_SYNC_URL', 'TOLE_OTHER_URL', 'TOLE_HOME'], {});
    expect(out).toEqual({ PATH: '/usr/bin', TOLE_HOME: '/home/u/.tole' });
  });
});

describe('where the sync URL comes from, and the warnings about a password in sight', () => {
  const noConfig = {} as Config;
  const warned = (given: string | undefined, env: NodeJS.ProcessEnv, config: Config): string[] => {
    const lines: string[] = [];
    syncUrlFor(given, env, config, '--to', (line) => lines.push(line));
    return lines;
  };

  it('a password in sync --to or any --from is warned about, naming the safer places; the warning never shows it', () => {
    const url = `postgres://tole:${PASSWORD}@db/tole`;
    for (const argv of [
      ['sync', '--to', url],
      ['sessions', '--from', url],
      ['export', 'e1', '--from', url],
      ['--resume', 'e1', '--from', url],
    ]) {
      const line = passwordInArgvWarning(parseArgs(argv));
      expect(line, argv.join(' ')).toContain('visible to every user of this machine (ps)');
      expect(line).toContain(SAFER_PASSWORD_PLACES);
      expect(line).not.toContain(PASSWORD);
    }
    expect(passwordInArgvWarning(parseArgs(['sync', '--to', 'postgres://tole@db/tole']))).toBeNull();
    expect(passwordInArgvWarning(parseArgs(['convert', 'x.jsonl', '--to', 'sqlite']))).toBeNull();
    expect(warned(url, {}, noConfig)).toEqual([]);
  });

  it('a password in the config’s sync.url gets a warning; in TOLE_SYNC_URL or with none, nothing is said', () => {
    const config = { sync: { url: `postgres://tole:${PASSWORD}@db/tole` } } as Config;
    expect(warned(undefined, {}, config)).toEqual([expect.stringContaining('holds a password in plain text')]);
    expect(warned(undefined, { TOLE_SYNC_URL: `postgres://tole:${PASSWORD}@db/tole` }, noConfig)).toEqual([]);
    expect(warned('postgres://tole@db/tole', {}, noConfig)).toEqual([]);
  });

  it('--password-stdin belongs to sync, and reads one password without its line end', async () => {
    expect(parseArgs(['sync', '--password-stdin']).passwordStdin).toBe(true);
    expect(() => parseArgs(['sessions', '--password-stdin'])).toThrow('--password-stdin is for tole sync');
    expect(await readPasswordStdin(Readable.from([`${PASSWORD}\n`]))).toBe(PASSWORD);
    await expect(readPasswordStdin(Readable.from(['\n']))).rejects.toThrow('read no password');
  });

  it('the driver gets the password inside the URL unless the URL has one (the driver prefers the URL’s)', () => {
    expect(withPassword('postgres://tole@db:5432/tole', 'p@ss:w/rd')).toBe(
      'postgres://tole:p%40ss%3Aw%2Frd@db:5432/tole',
    );
    expect(withPassword('postgres://tole:mine@db/tole', 'other')).toBe('postgres://tole:mine@db/tole');
    expect(withPassword('postgres://tole@db/tole', undefined)).toBe('postgres://tole@db/tole');
  });
});

describe('a password on the command line leaves ps once tole has started', () => {
  it('argvWithoutPasswords hides the password of a URL given alone or as --flag=URL, and nothing else', () => {
    expect(
      argvWithoutPasswords([
        'sync',
        '--to',
        `postgres://tole:${PASSWORD}@db/t`,
        `--from=postgres://u:${PASSWORD}@h/d`,
        '-p',
        'a:b@c',
      ]),
    ).toEqual(['sync', '--to', 'postgres://tole:***@db/t', '--from=postgres://u:***@h/d', '-p', 'a:b@c']);
  });

  it('the running tole’s /proc cmdline no longer holds it', async () => {
    // A server that takes the connection and never answers: tole waits there, running.
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    const home = tempDirForTest('tole-ps-');
    const url = `postgres://tole:${PASSWORD}@127.0.0.1:${port}/tole`;
    const child = spawn(process.execPath, [TOLE_JS, 'sync', '--to', url], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, TOLE_HOME: join(home, '.tole') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let stderr = '';
      child.stderr.setEncoding('utf8');
      while (!stderr.includes('warning')) stderr += String((await once(child.stderr, 'data'))[0]);
      const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      expect(cmdline).toContain('postgres://tole:***@127.0.0.1');
      expect(cmdline).not.toContain(PASSWORD);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'close');
      for (const socket of held) socket.destroy();
      silent.close();
    }
  }, 60_000);
});

describe.skipIf(POSTGRES_BIN === null)('tole sync against a server that asks for the password', () => {
  let pg: PostgresServer;
  const home = tempDirForFile('tole-pw-home-');
  let url: string;

  beforeAll(async () => {
    pg = await startPostgres({ password: PASSWORD });
    url = pg.createDatabase('pw');
    mkdirSync(join(home, '.tole', 'sessions'), { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await pg?.destroy();
  });

  /** `tole sync` from source, in a clean environment (no PGPASSWORD of the runner's), with `stdin` piped in. */
  function sync(
    args: readonly string[],
    env: NodeJS.ProcessEnv,
    stdin = '',
  ): Promise<{ code: number | null; out: string }> {
    const child = spawn(process.execPath, [TOLE_JS, 'sync', ...args], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, TOLE_HOME: join(home, '.tole'), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stdin.end(stdin);
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
  }

  it('without a password it is refused, and the error says so', async () => {
    const run = await sync(['--to', url], {});
    expect(run.code).not.toBe(0);
    expect(run.out).toMatch(/password/i);
  }, 60_000);

  it('--password-stdin: connects, nothing about the password on the command line', async () => {
    const run = await sync(['--to', url, '--password-stdin'], {}, `${PASSWORD}\n`);
    expect(run.out).toContain('shipped 0 records');
    expect(run.out).not.toContain('warning');
    expect(run.code).toBe(0);
  }, 60_000);

  it('PGPASSWORD, and TOLE_SYNC_URL carrying it, connect without a warning', async () => {
    expect((await sync(['--to', url], { PGPASSWORD: PASSWORD })).out).toContain('shipped 0 records');
    const inUrl = withPassword(url, PASSWORD);
    const run = await sync([], { TOLE_SYNC_URL: inUrl });
    expect(run.out).toContain('shipped 0 records');
    expect(run.out).not.toContain('warning');
    expect(run.out).not.toContain(PASSWORD);
  }, 60_000);

  it('a .pgpass-style file (PGPASSFILE) connects', async () => {
    const file = join(home, 'pgpass');
    writeFileSync(file, `127.0.0.1:${pg.port}:*:tole:${PASSWORD}\n`);
    chmodSync(file, 0o600);
    const run = await sync(['--to', url], { PGPASSFILE: file });
    expect(run.out).toContain('shipped 0 records');
    expect(run.code).toBe(0);
  }, 60_000);

  it('a password in --to connects and warns, and neither output shows it', async () => {
    const run = await sync(['--to', withPassword(url, PASSWORD)], {});
    expect(run.out).toContain('shipped 0 records');
    expect(run.out).toContain('visible to every user of this machine (ps)');
    expect(run.out).not.toContain(PASSWORD);
  }, 60_000);
});
