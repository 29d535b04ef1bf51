/**
 * The checkpoint scan as tole ran it before one `git status` listed what changed: `diff-files`
 * beside `ls-files --others`, staged with `update-index` into the directory's own index and
 * written with `write-tree`. Kept as the reference the status scan is compared with on generated
 * workspaces; it writes into a checkpoint directory of its own. What it does with each listed path
 * is tole's own `sortChanges`: the two scans differ in how they list, and that is what is compared.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_IGNORES } from '../../src/core/checkpoints/checkpoint-store';
import { createDirectory } from '../../src/core/checkpoints/checkpoint-directory';
import { git, type GitTarget } from '../../src/core/checkpoints/git-command';
import { nulBuffers, nulJoined } from '../../src/core/checkpoints/path-bytes';
import { sortChanges } from '../../src/core/checkpoints/workspace-changes';
import type { LeftOut } from '../../src/core/checkpoints/restore-plan';

export interface TwoGitScan {
  /** The tree of the workspace as the old scan stages it, and what it left out. */
  scan(): Promise<{ tree: string; leftOut: LeftOut[] }>;
}

export function twoGitScan(gitDir: string, workTree: string, maxFileBytes: number): TwoGitScan {
  const target: GitTarget = { gitDir, workTree, binary: 'git', path: process.env['PATH'] ?? '/usr/bin:/bin' };
  createDirectory(target);
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'info', 'exclude'), `${BUILTIN_IGNORES.join('\n')}\n`);
  const stop = new AbortController().signal;
  return {
    async scan() {
      const [tracked, untracked] = await Promise.all([
        git(target, ['diff-files', '-z', '--name-only'], stop),
        git(target, ['ls-files', '-z', '--others', '--exclude-standard'], stop),
      ]);
      const listed = [...nulBuffers(tracked), ...nulBuffers(untracked)];
      const { stage, drop, leftOut } = sortChanges(workTree, listed, maxFileBytes);
      if (drop.length > 0)
        await git(target, ['update-index', '-z', '--force-remove', '--stdin'], stop, nulJoined(drop));
      if (stage.length > 0)
        await git(target, ['update-index', '-z', '--add', '--remove', '--stdin'], stop, nulJoined(stage));
      return { tree: (await git(target, ['write-tree'], stop)).toString().trim(), leftOut };
    },
  };
}
