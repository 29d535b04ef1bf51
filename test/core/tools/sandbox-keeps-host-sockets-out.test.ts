/**
 * A confined command cannot talk to a daemon outside the sandbox through a Unix socket, which
 * would then act unconfined: a real tmux server (`send-keys` runs anything in the user's shell)
 * and a real PostgreSQL are reachable from outside and not from inside, whether their socket sits
 * in the host's /tmp (hidden behind the session's private /tmp) or in plain sight in the
 * workspace (refused by the seccomp filter). With the network allowed, an abstract socket is
 * refused the same way. Ordinary commands still work inside.
 * Needs bwrap, tmux and PostgreSQL (scripts/install-system-deps.sh installs them as root);
 * without one, the tests that need it skip and say why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/core/tools/sandbox';
import { NO_POSTGRES_REASON, POSTGRES_BIN, type PostgresServer, startPostgres } from '../../support/postgres-server';
import { sandboxedBash, tempWorkspace } from './temp-workspace';
import { tempDirForFile } from '../../support/after-the-test';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
const has = (program: string): boolean => spawnSync(program, ['-V'], { stdio: 'ignore' }).status === 0;
const hasTmux = has('tmux');
const psql = POSTGRES_BIN && existsSync(path.join(POSTGRES_BIN, 'psql')) ? path.join(POSTGRES_BIN, 'psql') : null;
if (!sandbox) console.log('skipping the socket tests: no working bwrap here (install bubblewrap)');
if (!hasTmux) console.log('skipping the tmux socket tests: tmux is not installed (scripts/install-system-deps.sh)');
if (!psql) console.log(`skipping the PostgreSQL socket tests: ${NO_POSTGRES_REASON}`);

const hostDir = tempDirForFile('tole-host-sockets-');

async function setup(network = false) {
  const ws = await tempWorkspace();
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/root' };
  return { ws, bash: sandboxedBash(ws, sandbox!, { env, network }).bash };
}

describe.skipIf(!sandbox || !hasTmux)('a tmux server outside the sandbox', () => {
  const servers: number[] = [];
  const tmux = (socket: string, ...args: string[]) =>
    spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', env: { ...process.env, TMUX: '' } });
  const startTmux = (socket: string): void => {
    const started = tmux(socket, 'new-session', '-d', '-s', 'victim', 'sleep 600');
    expect(started.status, started.stderr).toBe(0);
    servers.push(Number(tmux(socket, 'display-message', '-p', '#{pid}').stdout.trim()));
  };
  // Ended by pid: a socket in a test's workspace is gone with the workspace before this runs, and
  // `kill-server` through it left the server (and its sleep) running for ten minutes.
  afterAll(() => {
    for (const pid of servers) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });

  it('in the host /tmp: send-keys works from outside, not from inside', async () => {
    const socket = path.join(hostDir, 'tmux-default');
    startTmux(socket);
    expect(tmux(socket, 'send-keys', '-t', 'victim', '').status).toBe(0);
    const { ws, bash } = await setup();
    const out = await bash.execute(
      { command: `tmux -S ${socket} send-keys -t victim 'touch /tmp/owned' Enter` },
      ws.ctx,
    );
    expect(out.ok).toBe(false);
    expect(out.content).toMatch(/no server running|No such file or directory|error connecting/);
  });

  it('in the workspace, in plain sight: refused by the seccomp filter', async () => {
    const { ws, bash } = await setup();
    const socket = path.join(ws.root, 'tmux.sock');
    startTmux(socket);
    expect(tmux(socket, 'send-keys', '-t', 'victim', '').status).toBe(0);
    const out = await bash.execute(
      { command: `tmux -S ${socket} send-keys -t victim 'touch /tmp/owned' Enter` },
      ws.ctx,
    );
    expect(out.ok).toBe(false);
    expect(out.content).toContain('Operation not permitted');
    expect(out.content).toContain("ran in tole's sandbox");
    const keyed = await bash.execute(
      { command: `tmux -S ${socket} has-session -t victim` },
      { ...ws.ctx, keypress: true },
    );
    expect(keyed.ok, keyed.content).toBe(true);
    // Unconfined, a tmux command that runs one is refused: the server runs it without tole's git and guard.
    const sent = await bash.execute(
      { command: `tmux -S ${socket} send-keys -t victim 'touch /tmp/owned' Enter` },
      { ...ws.ctx, keypress: true },
    );
    expect(sent.ok, sent.content).toBe(false);
    expect(sent.content).toContain('runs tmux, which runs commands in an environment of its own');
  });
});

describe.skipIf(!sandbox || !psql)('a PostgreSQL server outside the sandbox', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });
  // The answer is a word no error message holds: a bare 42 turned up in the socket's name when the
  // server's port held those digits (/tmp/tole-pg-…/.s.PGSQL.42169), and the check of no answer failed.
  const answer = 'answered-42';
  const query = (host: string) =>
    `${psql} -h ${host} -p ${server.port} -U tole -d postgres -Atc "select concat('answered-', 40+2)"`;

  it('through its socket in the host /tmp: answers outside, cannot be reached inside', async () => {
    const outside = execFileSync('bash', ['-c', query(server.dataDir)], { encoding: 'utf8' });
    expect(outside.trim()).toBe(answer);
    const { ws, bash } = await setup();
    const out = await bash.execute({ command: query(server.dataDir) }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).not.toContain(answer);
  });

  it('through a hard link to its socket in the workspace: refused by the seccomp filter', async () => {
    const { ws, bash } = await setup();
    const dir = path.join(ws.root, 'pg');
    mkdirSync(dir);
    const name = `.s.PGSQL.${server.port}`;
    linkSync(path.join(server.dataDir, name), path.join(dir, name));
    expect(execFileSync('bash', ['-c', query(dir)], { encoding: 'utf8' }).trim()).toBe(answer);
    const out = await bash.execute({ command: query(dir) }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('Operation not permitted');
  });
});

describe.skipIf(!sandbox)('Unix sockets with the network allowed', () => {
  let server: Server;
  const name = `tole-abstract-${process.pid}`;
  beforeAll(async () => {
    server = createServer((socket) => socket.end('hello\n'));
    await new Promise<void>((resolve) => server.listen(`\0${name}`, resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  // node on both ends: it binds an abstract name with the whole sun_path, and must connect alike.
  const connect = `node -e "require('node:net').connect('\\0${name}').on('data', (d) => process.stdout.write(d)).on('error', (e) => { console.log(e.message); process.exit(1); })"`;

  it('an abstract socket of the host answers outside and is refused inside', async () => {
    const { ws, bash } = await setup(true);
    const keyed = await bash.execute({ command: connect }, { ...ws.ctx, keypress: true });
    expect(keyed.content).toContain('hello');
    const out = await bash.execute({ command: connect }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('EPERM');
    expect(out.content).not.toContain('hello');
  });
});

describe.skipIf(!sandbox)('ordinary commands in the sandbox', () => {
  it('git, node, python, ls and a pipe work', async () => {
    const { ws, bash } = await setup();
    const out = await bash.execute(
      {
        command: [
          'git init -q repo && git -C repo -c user.email=t@t -c user.name=t commit -q --allow-empty -m first && git -C repo log --oneline | wc -l',
          `node -e "require('node:child_process').execFileSync('true'); console.log('node ok')"`,
          `python3 -c "import subprocess; print(subprocess.run(['echo','python ok'],capture_output=True,text=True).stdout.strip())"`,
          'ls | sort | tr a-z A-Z',
        ].join(' && '),
      },
      ws.ctx,
    );
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('node ok');
    expect(out.content).toContain('python ok');
    expect(out.content).toContain('REPO');
  });
});
