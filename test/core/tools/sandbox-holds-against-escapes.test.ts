/**
 * Ways out of the sandbox that its rules were not written case by case for, tried from inside
 * as a hostile command would: another view of the root through /proc, bash's /dev/tcp, a new
 * session or user namespace, mount, kill -1, writes through /proc/self/fd and symlinks, setuid
 * programs. Each must leave the host as it was.
 * Needs a working bwrap; without it these tests skip and say why.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch } from 'node:os';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confinedCommand, detectSandbox } from '../../../src/core/tools/sandbox';
import { sandboxedBash, tempWorkspace } from './temp-workspace';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
if (!sandbox) console.log('skipping the sandbox escape tests: no working bwrap here (install bubblewrap)');

let server: Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function setup() {
  const ws = await tempWorkspace();
  const secret = path.join(ws.outside, 'secret.txt');
  writeFileSync(secret, 'host only');
  return { ws, bash: sandboxedBash(ws, sandbox!).bash, secret };
}

describe.skipIf(!sandbox)('the sandbox against escapes', () => {
  it("/proc/1/root is the sandbox's own root, not the host's", async () => {
    const { ws, bash, secret } = await setup();
    const out = await bash.execute({ command: `cat /proc/1/root${secret}` }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).not.toContain('host only');
  });

  it("tole's own process is not in sight, nor its root", async () => {
    const { ws, bash } = await setup();
    const out = await bash.execute({ command: `ls /proc/${process.pid}/root/` }, ws.ctx);
    expect(out.ok).toBe(false);
  });

  it("bash's /dev/tcp reaches no loopback server", async () => {
    const { ws, bash } = await setup();
    const before = connections;
    const out = await bash.execute({ command: `echo hi > /dev/tcp/127.0.0.1/${port}` }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(connections).toBe(before);
  });

  it('a process that leaves with setsid and nohup ends with the call', async () => {
    const { ws, bash } = await setup();
    const out = await bash.execute({ command: 'setsid nohup sleep 331 > /dev/null 2>&1 & echo started' }, ws.ctx);
    expect(out.content).toContain('started');
    const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() === 'sleep 331');
    expect(left).toEqual([]);
  });

  it('kill -9 -1 reaches no process outside', async () => {
    const { ws, bash } = await setup();
    const victim: ChildProcess = spawn('sleep', ['337'], { stdio: 'ignore' });
    try {
      await bash.execute({ command: 'kill -9 -1; true' }, ws.ctx);
      // Alive, not a zombie waiting for its exit to be read.
      const state = readFileSync(`/proc/${victim.pid}/stat`, 'utf8').split(') ')[1]?.[0];
      expect(state).not.toBe('Z');
      expect(victim.signalCode).toBeNull();
    } finally {
      victim.kill('SIGKILL');
    }
  });

  it('no new user namespace, no mount, no chroot, no setuid way back to privileges', async () => {
    const { ws, bash } = await setup();
    for (const command of [
      'unshare -U -r sh -c "mount --bind . /usr"',
      'mount -t tmpfs none /usr',
      `python3 -c "import os; os.chroot('/')"`,
      'grep -q "NoNewPrivs:\\s*1" /proc/self/status && grep -q "CapEff:\\s*0*$" /proc/self/status && exit 1',
    ]) {
      const out = await bash.execute({ command }, ws.ctx);
      expect(out.ok, `${command}: ${out.content}`).toBe(false);
    }
  });

  it('writes through a symlink or /proc/self/fd to a read-only file outside fail', async () => {
    const { ws, bash } = await setup();
    const target = '/etc/hostname';
    const before = readFileSync(target, 'utf8');
    for (const command of [
      `ln -s ${target} h && echo owned > h`,
      `exec 3<${target}; echo owned > /proc/self/fd/3`,
      `ln ${target} hard 2>/dev/null || cp /dev/null /proc/self/root${target}`,
    ]) {
      const out = await bash.execute({ command }, ws.ctx);
      expect(out.ok, `${command}: ${out.content}`).toBe(false);
    }
    expect(readFileSync(target, 'utf8')).toBe(before);
    expect(existsSync(path.join(ws.root, 'hard'))).toBe(false);
  });

  it.skipIf(!existsSync('/usr/bin/perl'))(
    "adds no key to the session keyring of the process that started it (the user's login keyring)",
    async () => {
      const { ws } = await setup();
      // The kernel's numbers, written here apart from the filter under test.
      const nr = arch() === 'arm64' ? { add_key: 217, keyctl: 219 } : { add_key: 248, keyctl: 250 };
      const tempDir = path.join(path.dirname(ws.root), 'keys-tmp');
      mkdirSync(tempDir, { mode: 0o700 });
      // add_key("user", NAME, "x", 1, KEY_SPEC_SESSION_KEYRING) from inside.
      const inner = `perl -e 'my ($t, $d, $p) = ("user", "tole-sandbox-probe", "x"); print syscall(${nr.add_key}, $t, $d, $p, 1, -3) < 0 ? "refused: $!" : "added", "\\n"'`;
      const confined = confinedCommand(
        sandbox!,
        { workspaceRoot: ws.root, tempDir, network: false },
        ['bash', '-c', inner],
        0,
      );
      // The wrapper joins a fresh anonymous session keyring first (KEYCTL_JOIN_SESSION_KEYRING,
      // NULL), so the try touches no keyring of the machine's; it then searches that keyring.
      const wrapper = [
        `syscall(${nr.keyctl}, 1, 0) >= 0 or die "join: $!";`,
        'system(@ARGV);',
        `my ($t, $d) = ("user", "tole-sandbox-probe");`,
        `print syscall(${nr.keyctl}, 10, -3, $t, $d, 0) >= 0 ? "outside: found\\n" : "outside: absent\\n";`,
      ].join(' ');
      const run = spawnSync('perl', ['-e', wrapper, '--', confined.program, ...confined.args], {
        input: confined.seccomp!,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^refused: Operation not permitted$/m);
      expect(run.stdout).toMatch(/^outside: absent$/m);
    },
  );
});
