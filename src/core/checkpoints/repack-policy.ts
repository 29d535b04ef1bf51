import { readdirSync } from 'node:fs';
import { join } from 'node:path';
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
 *
 * A known-path checkpoint writes its objects as one small pack (object-pack.ts): once there are
 * more than SMALL_PACKS packs, `git repack --geometric=2 -d` merges the small ones (each pack is
 * left at least twice the size of all smaller ones together, so the first checkpoint's large pack
 * is not written again, and the packs stay a few: logarithmic in the objects). It runs in the
 * foreground: a few hundred small objects. gc's own merge of every pack into one (past fifty) is
 * then never due from known-path checkpoints alone.
 *
 * git's own check is a process (a git start, 5–50 ms here, on every bash call); tole makes the
 * same estimate first with one `readdir` of that folder (and one of the packs) and starts
 * `gc --auto` only when the estimate says it is due. git still decides: the estimate may only
 * start it more often than needed, never less (see `repackMayBeDue`).
 */
export interface RepackPolicy {
  /** Loose objects above which they are packed (git's gc.auto). */
  readonly looseObjects: number;
  /** Whether the repack goes on in a git of its own after the checkpoint returns (git's gc.autoDetach). */
  readonly inBackground: boolean;
}

/** git's own threshold: about 6,700 loose objects, some 1,100 one-file checkpoints, or one large first one. */
export const DEFAULT_REPACK: RepackPolicy = { looseObjects: 6700, inBackground: true };

/** Packs above which `gc --auto` merges them (git's gc.autoPackLimit, left at its default). */
const PACK_LIMIT = 50;

/** Runs `git gc --auto` under `policy` when it may be due. A repack that fails leaves the objects loose: checkpoints go on. */
export async function repackIfDue(target: GitTarget, policy: RepackPolicy, signal: AbortSignal): Promise<void> {
  if (policy.looseObjects > 0 && packsIn(target.gitDir) > SMALL_PACKS)
    await runGit(target, ['repack', '--geometric=2', '-d', '-q'], signal).catch(() => undefined);
  if (!repackMayBeDue(target.gitDir, policy)) return;
  const args = ['-c', `gc.auto=${policy.looseObjects}`, '-c', `gc.autoDetach=${policy.inBackground}`];
  await runGit(target, [...args, 'gc', '--auto', '--quiet'], signal).catch(() => undefined);
}

/** Packs above which the small ones are merged (a known-path checkpoint adds one). */
export const SMALL_PACKS = 16;

/** The packs in `gitDir` (0 when the folder cannot be read: gc's estimate asks git then). */
function packsIn(gitDir: string): number {
  return (namesIn(join(gitDir, 'objects', 'pack')) ?? []).filter((name) => name.endsWith('.pack')).length;
}

/**
 * Whether `gc --auto` may find work in `gitDir`: git's own estimate (builtin/gc.c) made without
 * a process. Loose objects: more in `objects/17` than a 256th of the threshold, rounded up (any
 * name of hex digits of an object's length counts, as git counts them). Packs: more than
 * PACK_LIMIT, counting every pack, kept or not (git leaves out `.keep` ones: counting them too
 * only asks git more often). A folder that cannot be read asks git.
 */
export function repackMayBeDue(gitDir: string, policy: RepackPolicy): boolean {
  if (policy.looseObjects <= 0) return false;
  const loose = namesIn(join(gitDir, 'objects', '17'));
  const packs = namesIn(join(gitDir, 'objects', 'pack'));
  if (loose === null || packs === null) return true;
  const perFolder = Math.ceil(policy.looseObjects / 256);
  if (loose.filter((name) => LOOSE_NAME.test(name)).length > perFolder) return true;
  return packs.filter((name) => name.endsWith('.pack')).length > PACK_LIMIT;
}

/** A loose object's file name in its folder: the id's hex digits after the first two (SHA-1 or SHA-256). */
const LOOSE_NAME = /^(?:[0-9a-f]{38}|[0-9a-f]{62})$/;

/** The names in a folder; [] when it does not exist (git counts nothing there), null when it cannot be read. */
function namesIn(folder: string): string[] | null {
  try {
    return readdirSync(folder);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : null;
  }
}
