/**
 * Marks a directory as the top of a hierarchy for ext4 (`chattr +T`), so that the kernel places
 * each directory made in it in a block group of its own choosing (the Orlov allocator) instead of
 * in the group of its parent.
 *
 * Why: on an ext4 without a journal (this machine's /), making an inode skips every free inode of
 * the group that was deleted in the last 5 s, or 5 min while its inode table block is not yet on
 * disk (the kernel's recently_deleted), one block lookup each. The tests make and remove hundreds of
 * thousands of files, and every one was made in /tmp's group: perf put 15-19% of the CPU of
 * `npx vitest run --project process test/core/checkpoints test/cli` in __ext4_new_inode, against
 * 0.7-2.4% with the directories the files' TMPDIRs are made in marked (run-tmpdir.ts,
 * bench/RESULTS.md).
 *
 * Nothing else changes: the directories stay where they were, with the same modes and contents. On
 * another file system, or without chattr (e2fsprogs), the mark is not made and nothing fails.
 */
import { spawnSync } from 'node:child_process';

/** True when `dir` now carries the mark; false where it cannot (not ext4, no chattr). */
export function spreadInodesUnder(dir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const run = spawnSync('chattr', ['+T', dir], { stdio: 'ignore', env });
  return run.error === undefined && run.status === 0;
}
