import { git, type GitTarget } from './git-command';
import { nulJoined } from './path-bytes';
import { removeInWorkspace } from './remove-in-workspace';
import { type RestorePlan, RestoreWroteNothing } from './restore-plan';

/**
 * Writes a restore's plan into the workspace: removes what the checkpoint does not hold, then
 * checks out what differs (git checks out, so it never writes through a symlink). `midway` runs
 * between the two steps (fault tests). Throws at the first step that fails (a RestoreWroteNothing
 * when that is the first removal); git's checkout writes every path it can before it fails, so
 * some files may be restored and others not.
 */
export async function writeRestore(
  target: GitTarget,
  plan: RestorePlan,
  stop: AbortSignal,
  midway?: () => void,
): Promise<void> {
  plan.bytes.removed.forEach((path, i) => {
    try {
      removeInWorkspace(target.workTree, path);
    } catch (error) {
      throw i === 0 ? new RestoreWroteNothing(error) : error;
    }
  });
  midway?.();
  const writes = [...plan.bytes.added, ...plan.bytes.changed];
  if (writes.length === 0) return;
  await git(
    target,
    ['checkout', plan.checkpoint, '--pathspec-from-file=-', '--pathspec-file-nul'],
    stop,
    nulJoined(writes),
  );
}
