/**
 * Ways out of the sandbox that its rules were not written case by case for, tried from inside
 * as a hostile command would: another view of the root through /proc, bash's /dev/tcp, a new
 * session or user namespace, mount, kill -1, writes through /proc/self/fd and symlinks, setuid
 * programs. Each must leave the host as it was.
 * Needs a working bwrap; without it these tests skip and say why.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/core/tools/sandbox';
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
});
