/**
 * A bash call run without a keypress runs in the OS sandbox (bubblewrap here): it cannot remove
 * a file outside the workspace and the temp directory, reach the network, or see tole's own
 * process; it can write in the workspace. A call the user approved with a key runs unconfined.
 * Needs a working bwrap: `npm test` installs it where it can (scripts/install-system-deps.sh); without it these tests skip and say why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/core/tools/sandbox';
import { sandboxedBash, tempWorkspace } from './temp-workspace';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
const hasPython = (() => {
  try {
    execFileSync('python3', ['-c', 'pass']);
    return true;
  } catch {
    return false;
  }
})();
if (!sandbox)
  console.log(
    'skipping the sandbox tests: no working bwrap here (install bubblewrap, as npm test does as root, with user namespaces enabled)',
  );
if (!hasPython) console.log('skipping the sandbox tests: python3 is not installed');

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((socket) => socket.end('hello\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function setup() {
  const ws = await tempWorkspace();
  const keep = path.join(ws.outside, 'keep.txt');
  writeFileSync(keep, 'still here');
  return { ws, keep, ...sandboxedBash(ws, sandbox!) };
}

describe.skipIf(!sandbox || !hasPython)('bash in the sandbox', () => {
  it('a python3 -c that writes outside the workspace is refused, and says the sandbox may be why', async () => {
    const { ws, bash } = await setup();
    const target = '/usr/tole-sandbox-probe.txt';
    const out = await bash.execute({ command: `python3 -c "open('${target}','w').write('x')"` }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(existsSync(target)).toBe(false);
    expect(out.content).toContain('Read-only file system');
    expect(out.content).toContain("ran in tole's sandbox");
    expect(out.content).toContain('outside_sandbox');
  });

  it('sees none of the host /tmp: a file there cannot be removed, it is not even found', async () => {
    const { ws, keep, bash } = await setup();
    const out = await bash.execute({ command: `python3 -c "import os; os.remove('${keep}')"` }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('No such file or directory');
    expect(readFileSync(keep, 'utf8')).toBe('still here');
  });

  it('one that writes inside the workspace and the private /tmp works; /tmp is the session temp directory', async () => {
    const { ws, tempDir, bash } = await setup();
    const out = await bash.execute(
      {
        command: `python3 -c "open('made.txt','w').write('ok'); open('/tmp/t.txt','w').write('ok')" && echo "$TMPDIR" && ls /tmp`,
      },
      ws.ctx,
    );
    expect(out.ok, out.content).toBe(true);
    expect(readFileSync(path.join(ws.root, 'made.txt'), 'utf8')).toBe('ok');
    expect(readFileSync(path.join(tempDir, 't.txt'), 'utf8')).toBe('ok');
    expect(out.content.split('\n')[0]).toBe('/tmp');
  });

  it('has no network, loopback included, and cannot see tole or its environment', async () => {
    const { ws, bash } = await setup();
    const net = await bash.execute(
      { command: `python3 -c "import socket; print(socket.create_connection(('127.0.0.1', ${port}), 2).recv(10))"` },
      ws.ctx,
    );
    expect(net.ok).toBe(false);
    const proc = await bash.execute({ command: `cat /proc/${process.pid}/environ` }, ws.ctx);
    expect(proc.ok).toBe(false);
  });

  it('a call approved with a key runs unconfined', async () => {
    const { ws, bash } = await setup();
    const outsideFile = path.join(ws.outside, 'written.txt');
    const out = await bash.execute(
      {
        command: `python3 -c "open('${outsideFile}','w').write('ok')" && python3 -c "import socket; print(socket.create_connection(('127.0.0.1', ${port}), 2).recv(10))"`,
      },
      { ...ws.ctx, keypress: true },
    );
    expect(out.ok, out.content).toBe(true);
    expect(readFileSync(outsideFile, 'utf8')).toBe('ok');
    expect(out.content).toContain('hello');
  });

  it('a timeout still kills the command and what it left in the background', async () => {
    const { ws, bash } = await setup();
    const out = await bash.execute({ command: 'sleep 317 & sleep 317', timeout_ms: 500 }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('timed out');
    const left = execFileSync('ps', ['-eo', 'args'])
      .toString()
      .split('\n')
      .filter((line) => line.trim() === 'sleep 317');
    expect(left).toEqual([]);
  });
});
