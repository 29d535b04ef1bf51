/**
 * fifo-watch.ts sees a process waiting on a FIFO in /proc, whatever its name: blocked opening one
 * (no writer), or blocked reading one whose writer opened it and writes nothing, in any thread or
 * in a process it started; it names the FIFO by its path. A process waiting on an anonymous pipe
 * (git's own stdin from tole) is not such a wait. Real processes (`cat`, `sh`), real FIFOs.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fifoMessage, gitOnFifo, watchForFifo } from '../../../src/core/fifo-watch';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';

function started(
  command: string,
  args: readonly string[],
  cwd: string,
  stdin: 'pipe' | 'ignore' = 'ignore',
): ChildProcess {
  // Its own process group, killed whole when the test ends: a shell's children go with it.
  const child = spawn(command, args, { cwd, stdio: [stdin, 'ignore', 'ignore'], detached: true });
  afterTheTest(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  });
  return child;
}

/** The kernel function the process's only thread waits in, once it waits in one. */
async function waitsIn(pid: number, where: string): Promise<void> {
  await vi.waitFor(() => expect(readFileSync(`/proc/${pid}/wchan`, 'utf8')).toBe(where), { timeout: 10_000 });
}

function watched(pid: number): Promise<string | null> {
  return new Promise((resolve) => watchForFifo(pid, (found) => resolve(found.path)));
}

describe.runIf(process.platform === 'linux')('a process waiting on a FIFO is seen and named', () => {
  it('blocked opening a FIFO (no writer), by a relative name', async () => {
    const dir = tempDirForTest('tole-fifo-watch-');
    execFileSync('/usr/bin/mkfifo', [join(dir, '.gitignore')]);
    const reader = started('cat', ['.gitignore'], dir);
    await waitsIn(reader.pid!, 'wait_for_partner');
    expect(gitOnFifo(reader.pid!)).toEqual({ path: join(dir, '.gitignore') });
    expect(await watched(reader.pid!)).toBe(join(dir, '.gitignore'));
  });

  it('blocked reading a FIFO whose writer opened it and writes nothing', async () => {
    const dir = tempDirForTest('tole-fifo-watch-');
    const fifo = join(dir, 'sub', '.gitattributes');
    execFileSync('/usr/bin/mkdir', [join(dir, 'sub')]);
    execFileSync('/usr/bin/mkfifo', [fifo]);
    started('/bin/sh', ['-c', 'exec 3>"$1"; exec sleep 100000', 'sh', fifo], dir);
    const reader = started('cat', [fifo], dir);
    await waitsIn(reader.pid!, 'anon_pipe_read');
    expect(await watched(reader.pid!)).toBe(fifo);
  });

  it('in a process the watched one started', async () => {
    const dir = tempDirForTest('tole-fifo-watch-');
    execFileSync('/usr/bin/mkfifo', [join(dir, '.gitmodules')]);
    const parent = started('/bin/sh', ['-c', 'cat .gitmodules; exit 0'], dir);
    await vi.waitFor(
      () => {
        const children = readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, 'utf8').trim();
        expect(children).not.toBe('');
        expect(readFileSync(`/proc/${children}/wchan`, 'utf8')).toBe('wait_for_partner');
      },
      { timeout: 10_000 },
    );
    expect(gitOnFifo(parent.pid!)).toEqual({ path: join(dir, '.gitmodules') });
  });

  it('a socket pair (a stdin from node, as tole gives git) or an anonymous pipe is no FIFO wait', async () => {
    const dir = tempDirForTest('tole-fifo-watch-');
    const reader = started('cat', [], dir, 'pipe');
    await waitsIn(reader.pid!, 'unix_stream_read_generic');
    expect(gitOnFifo(reader.pid!)).toBeNull();
    const pipeline = started('/bin/sh', ['-c', 'sleep 100000 | cat'], dir);
    await vi.waitFor(
      () => {
        const children = readFileSync(`/proc/${pipeline.pid}/task/${pipeline.pid}/children`, 'utf8').trim().split(' ');
        expect(children.map((pid) => readFileSync(`/proc/${pid}/wchan`, 'utf8'))).toContain('anon_pipe_read');
      },
      { timeout: 10_000 },
    );
    expect(gitOnFifo(pipeline.pid!)).toBeNull();
  });

  it('the notice names the FIFO and what to do', () => {
    expect(fifoMessage({ path: '/w/.gitignore' })).toMatch(/the FIFO \/w\/\.gitignore, where git reads.*remove it/);
    expect(fifoMessage({ path: null })).toContain('a FIFO (a named pipe) in the workspace');
  });
});
