import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { GitFailure, type GitTarget } from './git-command';
import { PROBE_LIMIT_MS } from './git-stop';

/** The config of a checkpoint directory, set when it is made, as lines of git's config file. */
const CONFIG_TEXT = [
  '[core]',
  '\tbare = false',
  '\tautocrlf = false',
  '\tfilemode = true',
  '\tsymlinks = true',
  '\tquotepath = false',
  // git's own commands never gc this directory by themselves: repackIfDue decides when.
  '[gc]',
  '\tauto = 0',
  '',
].join('\n');

/**
 * Creates the checkpoint directory whole under a name of its own, then renames it into place:
 * several toles starting on one workspace at once never see (or configure) a half-made one.
 * The first rename wins; the others' directories are removed.
 */
export function createDirectory(target: GitTarget): void {
  const dir = target.gitDir;
  mkdirSync(dirname(dir), { recursive: true });
  const temp = `${dir}.new-${process.pid}-${Math.random().toString(16).slice(2, 10)}`;
  try {
    const run = spawnSync(target.binary, ['init', '-q', '--bare', temp], {
      env: { PATH: target.path, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      timeout: PROBE_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
    if (run.status !== 0) throw new GitFailure(['init'], run.status ?? -1, String(run.error ?? run.stderr));
    // Appended to the config init wrote: git takes a key's last value. One write instead of a git run per key.
    writeFileSync(join(temp, 'config'), CONFIG_TEXT, { flag: 'a' });
    writeFileSync(join(temp, 'tole-workspace'), `${target.workTree}\n`);
    try {
      renameSync(temp, dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/**
 * Detaches HEAD at `commit`, the last scan's, whose tree tole's index holds: the scan's `status`
 * compares the index with HEAD (workspace-changes.ts), and that costs a walk of the trees that
 * differ (none, unless another tole's scan published its index since). A HEAD on a branch that
 * does not exist would make git list every file as added, on every scan. Written beside it and
 * renamed over it, so that a git of another tole reading HEAD meanwhile never finds it empty.
 */
export function detachHeadAt(dir: string, commit: string): void {
  const temp = join(dir, `HEAD.tole-${process.pid}-${Math.random().toString(16).slice(2, 10)}`);
  writeFileSync(temp, `${commit}\n`);
  renameSync(temp, join(dir, 'HEAD'));
}

/** Why checkpoints cannot work for this workspace at all (the root or home folder, no git), or null. */
export function offReason(
  workspaceRoot: string,
  userHome: string | undefined,
  binary: string,
  path: string,
): string | null {
  if (workspaceRoot === '/' || relative(workspaceRoot, '/') === '')
    return 'the workspace is the filesystem root; start tole in a project folder';
  if (userHome && workspaceRoot === userHome)
    return 'the workspace is your home directory; start tole in a project folder';
  const key = `${binary}\0${path}`;
  if (answered.has(key)) return null;
  const probe = spawnSync(binary, ['--version'], {
    env: { PATH: path },
    encoding: 'utf8',
    timeout: PROBE_LIMIT_MS,
    killSignal: 'SIGKILL',
  });
  if (probe.error || probe.status !== 0) return `no usable git binary (${binary}): install git to get checkpoints`;
  answered.add(key);
  return null;
}

/**
 * The git binaries (with the PATH they were looked up on) that answered `--version` in this
 * process: another workspace's checkpoints (a sub-agent's, a second session's, a test's) start
 * no probe of their own. Only an answer is kept; a git that failed is asked again. A git that
 * answered and is gone later fails its checkpoints with the error of its start, as any git that
 * fails mid-session does.
 */
const answered = new Set<string>();
