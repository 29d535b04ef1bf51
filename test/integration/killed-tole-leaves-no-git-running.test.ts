import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';
import { tempDirs, type TempDirs } from '../support/agent-fixtures';
import { startChild } from '../support/test-children';
import { fileAppears } from '../support/file-appears';

/**
 * A tole killed (SIGKILL) while its checkpoint's git runs: the git must not go on running in
 * tole's checkpoint directory, and the next tole's checkpoint must work.
 */
let dirs: TempDirs;
beforeEach(() => {
  dirs = tempDirs('tole-git-child-');
});
afterEach(() => dirs.remove());

const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

/**
 * A git that runs the real one, except at `step`: there it says its pid and hangs. At update-ref it
 * first takes the ref's lock, as git does before it writes the ref (a tole killed mid-update-ref).
 */
function hangingGit(pidFile: string, step: 'status' | 'update-ref'): string {
  const path = join(dirs.outside, 'git');
  const lock =
    step === 'update-ref' ? ' mkdir -p "$GIT_DIR/refs/tole"; : > "$GIT_DIR/refs/tole/checkpoints.lock";' : '';
  writeFileSync(
    path,
    `#!/bin/sh\ncase " $* " in *" ${step} "*)${lock} echo $$ > '${pidFile}.tmp'; mv '${pidFile}.tmp' '${pidFile}'; exec sleep 1000;; esac\nexec '${realGit}' "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return !/^\S+ \(.*\) [ZX]/.test(stat);
}

/** Resolves once `pid` has ended, or with false after `deadlineMs`. */
async function ends(pid: number, deadlineMs: number): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (alive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

describe('a tole killed while its checkpoint runs git', () => {
  it.each([
    'status',
    'update-ref',
  ] as const)('in %s: takes its git child with it, and the next checkpoint works', async (step) => {
    writeFileSync(join(dirs.root, 'a.txt'), 'a\n');
    const pidFile = join(dirs.outside, 'git.pid');
    const git = hangingGit(pidFile, step);
    const tole = startChild('checkpoint-taker', [dirs.home, dirs.root, git], { timeoutMs: 30_000 });
    await Promise.race([
      fileAppears(pidFile),
      tole.done.then((run) => {
        throw new Error(`the tole ended before its git hung: ${run.stdout}${run.stderr}`);
      }),
    ]);
    const gitPid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(alive(gitPid)).toBe(true);
    tole.child.kill('SIGKILL');
    await tole.done;
    const ended = await ends(gitPid, 5_000);
    if (!ended) process.kill(gitPid, 'SIGKILL');
    expect(ended).toBe(true);

    const next = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    if (step === 'update-ref') expect(existsSync(join(next.directory, 'refs/tole/checkpoints.lock'))).toBe(true);
    expect(await next.take()).toMatchObject({ ok: true });
  });
});
