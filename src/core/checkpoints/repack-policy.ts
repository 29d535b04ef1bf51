import { runGit, type GitTarget } from './git-command';

/**
 * When tole's checkpoint directory is repacked. Each checkpoint writes its new blobs, trees and
 * commit as loose objects (a file each, a 4 KiB block at least); after each checkpoint,
 * `git gc --auto` packs them once there are more than `looseObjects` (git estimates the count
 * from one of its 256 object folders) and merges the packs once there are more than fifty. In a
 * pack, a one-file change costs its compressed blob, its trees as deltas of the ones before and a
 * commit. Nothing a checkpoint holds is pruned: every checkpoint is on the ref's chain, and git
 * also keeps what the index names and any unreachable object younger than two weeks (another
 * tole's commit before its swap).
 */
export interface RepackPolicy {
  /** Loose objects above which they are packed (git's gc.auto). */
  readonly looseObjects: number;
  /** Whether the repack goes on in a git of its own after the checkpoint returns (git's gc.autoDetach). */
  readonly inBackground: boolean;
}

/** git's own threshold: about 6,700 loose objects, some 1,100 one-file checkpoints, or one large first one. */
export const DEFAULT_REPACK: RepackPolicy = { looseObjects: 6700, inBackground: true };

/** Runs `git gc --auto` under `policy`. A repack that fails leaves the objects loose: checkpoints go on. */
export async function repackIfDue(target: GitTarget, policy: RepackPolicy, signal: AbortSignal): Promise<void> {
  const args = ['-c', `gc.auto=${policy.looseObjects}`, '-c', `gc.autoDetach=${policy.inBackground}`];
  await runGit(target, [...args, 'gc', '--auto', '--quiet'], signal).catch(() => undefined);
}
