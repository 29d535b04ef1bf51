/**
 * Two toles on one workspace, one of them in its own pid namespace (a container, `unshare -p`):
 * its scan works on an index of its own, named with its pid as its namespace numbers it. The
 * other tole's first checkpoint removes the own indexes of toles that are gone (own-index.ts);
 * a pid this namespace does not have must not count as gone, or the scan's index goes from under
 * it and its checkpoint holds a tree without the workspace's files. Real namespaces, real processes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';
import { tempDirs, type TempDirs } from '../support/agent-fixtures';
import { fileAppears } from '../support/file-appears';
import { childScript, startChild } from '../support/test-children';

let dirs: TempDirs;
beforeEach(() => {
  dirs = tempDirs('tole-pidns-index-');
});
afterEach(() => dirs.remove());

const probe = spawnSync('unshare', ['-p', '-f', '--mount-proc', '--kill-child', 'true'], { encoding: 'utf8' });
const unshareWorks = probe.status === 0;
const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

/**
 * A git that runs the real one, except that before `write-tree` it says so and waits until `go`
 * exists. (Not a wait on a FIFO: tole stops a checkpoint git it finds waiting on one, fifo-watch.ts,
 * which killed this pause whenever the other tole took longer than one of its looks.)
 */
function gitPausingBeforeWriteTree(ready: string, go: string): string {
  const path = join(dirs.outside, 'git');
  writeFileSync(
    path,
    `#!/bin/sh\ncase " $* " in *" write-tree "*) : > '${ready}.tmp'; mv '${ready}.tmp' '${ready}'; while [ ! -e '${go}' ]; do sleep 0.02; done;; esac\nexec '${realGit}' "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe.skipIf(!unshareWorks)('a tole in another pid namespace, mid-scan', () => {
  it("keeps its scan's own index while a tole here takes its first checkpoint, and its checkpoint holds every file", async () => {
    writeFileSync(join(dirs.root, 'a.txt'), 'a\n');
    writeFileSync(join(dirs.root, 'b.txt'), 'b\n');
    const seed = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    expect(await seed.take()).toMatchObject({ ok: true });
    seed.close();
    writeFileSync(join(dirs.root, 'a.txt'), 'a changed\n');

    const ready = join(dirs.outside, 'ready');
    const go = join(dirs.outside, 'go');
    const git = gitPausingBeforeWriteTree(ready, go);
    // Two hundred processes first, so that the tole's pid in its namespace (about 200, a child of
    // the namespace's init, sh) is one this namespace does not use (its low pids are the kernel's
    // and init's).
    const inner = `i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i+1)); done; '${process.execPath}' '${childScript('checkpoint-taker')}' '${dirs.home}' '${dirs.root}' '${git}'; exit $?`;
    const tole = spawn('unshare', ['-p', '-f', '--mount-proc', '--kill-child', 'sh', '-c', inner], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    tole.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    tole.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const ended = new Promise<void>((resolve) => tole.on('close', () => resolve()));
    try {
      await Promise.race([
        fileAppears(ready),
        ended.then(() => {
          throw new Error(`the tole in its namespace ended before its scan wrote its tree: ${out}`);
        }),
      ]);
      const dir = Checkpoints.directoryFor(dirs.home, dirs.root);
      const own = readdirSync(dir).filter((name) => /^index\.tole-/.test(name) && !name.endsWith('.lock'));
      expect(own).toHaveLength(1);
      const pid = /^index\.tole-(\d+)-/.exec(own[0]!)![1]!;
      // The precondition: that pid is nobody here.
      expect(existsSync(`/proc/${pid}`), `pid ${pid} ${own[0]}`).toBe(false);

      const here = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
      try {
        expect(await here.take()).toMatchObject({ ok: true });
      } finally {
        here.close();
      }
      expect(existsSync(join(dir, own[0]!))).toBe(true);

      writeFileSync(go, 'go\n');
      await ended;
      const id = /^ok ([0-9a-f]{40})$/m.exec(out)?.[1];
      expect(id, out).toBeDefined();
      const files = spawnSync(realGit, ['ls-tree', '-r', '--name-only', id!], {
        env: { PATH: process.env.PATH, GIT_DIR: dir },
        encoding: 'utf8',
      }).stdout;
      expect(files.split('\n').filter(Boolean).sort()).toEqual(['a.txt', 'b.txt']);
    } finally {
      tole.kill('SIGKILL');
    }
  });
});

describe.skipIf(!unshareWorks)('a tole here, mid-scan', () => {
  it("keeps its scan's own index while a tole in another pid namespace takes its first checkpoint", async () => {
    writeFileSync(join(dirs.root, 'a.txt'), 'a\n');
    writeFileSync(join(dirs.root, 'b.txt'), 'b\n');
    const seed = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    expect(await seed.take()).toMatchObject({ ok: true });
    seed.close();
    writeFileSync(join(dirs.root, 'a.txt'), 'a changed\n');
    const ready = join(dirs.outside, 'ready');
    const go = join(dirs.outside, 'go');
    const here = startChild('checkpoint-taker', [dirs.home, dirs.root, gitPausingBeforeWriteTree(ready, go)]);
    try {
      await Promise.race([
        fileAppears(ready),
        here.done.then((run) => {
          throw new Error(`the tole here ended before its scan wrote its tree: ${run.stdout}${run.stderr}`);
        }),
      ]);
      const dir = Checkpoints.directoryFor(dirs.home, dirs.root);
      const own = readdirSync(dir).filter((name) => /^index\.tole-/.test(name) && !name.endsWith('.lock'));
      expect(own).toHaveLength(1);
      // A tole in a new pid namespace (pid 1 there) takes its first checkpoint: this tole's pid is nobody there.
      const inner = spawnSync(
        'unshare',
        [
          '-p',
          '-f',
          '--mount-proc',
          '--kill-child',
          process.execPath,
          childScript('checkpoint-taker'),
          dirs.home,
          dirs.root,
          realGit,
        ],
        { encoding: 'utf8' },
      );
      expect(inner.stdout, inner.stderr).toMatch(/^ok /);
      expect(existsSync(join(dir, own[0]!))).toBe(true);
      writeFileSync(go, 'go\n');
      const run = await here.done;
      const id = /^ok ([0-9a-f]{40})$/m.exec(run.stdout)?.[1];
      expect(id, run.stdout + run.stderr).toBeDefined();
      const files = spawnSync(realGit, ['ls-tree', '-r', '--name-only', id!], {
        env: { PATH: process.env.PATH, GIT_DIR: dir },
        encoding: 'utf8',
      }).stdout;
      expect(files.split('\n').filter(Boolean).sort()).toEqual(['a.txt', 'b.txt']);
    } finally {
      here.child.kill('SIGKILL');
    }
  });
});

describe('an own index left by a killed tole of this pid namespace', () => {
  it('is removed by the next checkpoint, named with its namespace as a scan names it now', async () => {
    const namespace = /^pid:\[(\d+)\]$/.exec(readlinkSync('/proc/self/ns/pid'))![1]!;
    const checkpoints = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    try {
      writeFileSync(join(dirs.root, 'a.txt'), 'a\n');
      expect(await checkpoints.take()).toMatchObject({ ok: true });
      // No process has pid 2^22 + 1 (the kernel's largest is 2^22).
      const left = [`index.tole-4194305-1-${namespace}`, `index.tole-4194305-1-${namespace}.lock`];
      for (const name of left) writeFileSync(join(checkpoints.directory, name), '');
      const next = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
      try {
        expect(await next.take()).toMatchObject({ ok: true });
      } finally {
        next.close();
      }
      expect(left.filter((name) => existsSync(join(checkpoints.directory, name)))).toEqual([]);
    } finally {
      checkpoints.close();
    }
  });
});
