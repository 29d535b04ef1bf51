import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detachHeadAt } from './checkpoint-directory';
import { CHECKPOINT_REF, refInFiles } from './git-checkpoint-ref';
import { GitFailure, type GitTarget, runGitPastLocks } from './git-command';

/**
 * The newest checkpoint of a workspace's chain, lost: its commit (the checkpoint ref's head, or
 * the HEAD tole's scans compare with) cannot be read, because a crash took it before it reached the
 * disk, or it was removed. A scan (git status against HEAD) and a commit on it (its parent) then
 * fail, each time. `startNewChain` moves the ref and HEAD off it.
 */
export interface LostChain {
  /** The checkpoints that cannot be read. */
  readonly lost: readonly string[];
  /** The newest checkpoint git can still read, the new chain's first parent; null when there is none. */
  readonly parent: string | null;
  /** The ref's head as found (the old value of its compare-and-swap); null when the files hold none. */
  readonly refHead: string | null;
}

/** An id HEAD holds when detached (as tole leaves it), else null. */
function detachedHead(gitDir: string): string | null {
  try {
    return (
      /^([0-9a-f]{40}|[0-9a-f]{64})\s*$/i.exec(readFileSync(join(gitDir, 'HEAD'), 'utf8'))?.[1]?.toLowerCase() ?? null
    );
  } catch {
    return null;
  }
}

/** Whether git can read the commit `id` and find its tree (a commit cut short or empty cannot be read). */
async function readable(target: GitTarget, id: string, stop: AbortSignal): Promise<boolean> {
  const run = await runGitPastLocks(target, ['cat-file', '-e', `${id}^{tree}`], stop);
  return run.code === 0;
}

/** The chain's lost head, or null when the ref's head and HEAD can both be read (the failure was another). */
export async function lostChainHead(target: GitTarget, stop: AbortSignal): Promise<LostChain | null> {
  const found = refInFiles(target.gitDir, CHECKPOINT_REF);
  const refHead = typeof found === 'string' ? found : null;
  const ids = [refHead, detachedHead(target.gitDir)].filter(
    (id, i, all): id is string => id !== null && all.indexOf(id) === i,
  );
  const lost: string[] = [];
  let parent: string | null = null;
  for (const id of ids) {
    if (await readable(target, id, stop)) parent ??= id;
    else lost.push(id);
  }
  return lost.length === 0 ? null : { lost, parent, refHead };
}

/**
 * Moves the ref and HEAD off the lost head: the ref by compare-and-swap from it (to the readable
 * parent, or deleted), so that a chain another tole moved it to meanwhile is never dropped (the
 * swap then fails, and so does this checkpoint; the next one looks again); HEAD to the parent, or
 * onto no commit, where the next scan stages every path.
 */
export async function startNewChain(target: GitTarget, chain: LostChain, stop: AbortSignal): Promise<void> {
  if (chain.refHead !== null && chain.lost.includes(chain.refHead)) {
    const args =
      chain.parent === null
        ? ['update-ref', '-d', CHECKPOINT_REF, chain.refHead]
        : ['update-ref', CHECKPOINT_REF, chain.parent, chain.refHead];
    const run = await runGitPastLocks(target, args, stop);
    if (run.code !== 0) throw new GitFailure(args, run.code, run.stderr);
  }
  if (chain.parent !== null) detachHeadAt(target.gitDir, chain.parent);
  else headOnNoCommit(target.gitDir);
}

/** HEAD onto no commit: the next scan compares with nothing and stages every path. */
export function headOnNoCommit(gitDir: string): void {
  const temp = join(gitDir, `HEAD.tole-${process.pid}-${Math.random().toString(16).slice(2, 10)}`);
  writeFileSync(temp, 'ref: refs/heads/no-checkpoint\n');
  renameSync(temp, join(gitDir, 'HEAD'));
}

/**
 * Why checkpoint `id` cannot be read: its commit is not in `gitDir`, or is there damaged (a loose
 * object left empty or cut short: a crash right after the checkpoint, before the disk had it, or
 * a copied session whose checkpoints stayed on another machine). Nothing is written from it.
 */
export function lostMessage(gitDir: string, id: string): string {
  const loose = join(gitDir, 'objects', id.slice(0, 2), id.slice(2));
  const state = existsSync(loose) ? 'is there damaged' : 'is not there';
  return `checkpoint ${id.slice(0, 12)} is lost: its commit ${state} in ${gitDir} (a crash right after the checkpoint was taken, or a session copied from where its checkpoints are); nothing was written. Restore to another point of the session`;
}
