import { git, GitFailure, type GitTarget, runGit, runGitPastLocks } from './git-command';
import type { CheckpointRef } from './ref-chain';

/** The checkpoint ref in tole's git directory. */
export const CHECKPOINT_REF = 'refs/tole/checkpoints';

/** `update-ref`'s old value saying "the ref must not exist yet" (tole's git directories use SHA-1). */
export const NO_COMMIT = '0'.repeat(40);

/** The chain's ref (ref-chain.ts) as git moves it, `update-ref REF NEW OLD` being git's compare-and-swap; its gits stop on `stop`. */
export function gitCheckpointRef(target: GitTarget, stop: AbortSignal): CheckpointRef {
  return {
    commit: async (tree, parents, message) =>
      (await git(target, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], stop))
        .toString()
        .trim(),
    swap: async (next, expected) => {
      const run = await runGitPastLocks(target, ['update-ref', CHECKPOINT_REF, next, expected ?? NO_COMMIT], stop);
      return run.code === 0
        ? { ok: true }
        : { ok: false, error: new GitFailure(['update-ref', CHECKPOINT_REF], run.code, run.stderr) };
    },
    head: async () => {
      const run = await runGit(target, ['rev-parse', '-q', '--verify', `${CHECKPOINT_REF}^{commit}`], stop);
      return run.code === 0 ? run.stdout.toString().trim() || null : null;
    },
  };
}
