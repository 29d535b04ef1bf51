import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    reads: async (id) => (await runGitPastLocks(target, ['cat-file', '-e', `${id}^{tree}`], stop)).code === 0,
    head: async () => {
      const read = refInFiles(target.gitDir, CHECKPOINT_REF);
      if (read !== undefined) return read;
      const run = await runGit(target, ['rev-parse', '-q', '--verify', `${CHECKPOINT_REF}^{commit}`], stop);
      return run.code === 0 ? run.stdout.toString().trim() || null : null;
    },
  };
}

/**
 * A ref's id as git's files backend stores it, read as git reads it: the ref's own file (an id
 * and, after whitespace, anything), else its line in `packed-refs`; null when neither holds it.
 * undefined when the files say something else (a symbolic ref, a line this does not parse, a
 * reftable directory): git is asked then. Saves a git start on a checkpoint's first commit.
 * tole's checkpoint ref only ever names its own commits, so the id is taken as git's
 * `^{commit}` would give it.
 */
export function refInFiles(gitDir: string, ref: string): string | null | undefined {
  if (existsSync(join(gitDir, 'reftable'))) return undefined;
  const loose = textOf(join(gitDir, ref));
  if (loose !== null) return loose === undefined ? undefined : LOOSE_REF.exec(loose)?.[1]?.toLowerCase();
  const packed = textOf(join(gitDir, 'packed-refs'));
  if (packed === null || packed === undefined) return packed;
  for (const line of packed.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^') || line === '') continue;
    const entry = PACKED_REF.exec(line);
    if (entry === null) return undefined;
    if (entry[2] === ref) return entry[1]!.toLowerCase();
  }
  return null;
}

/** An id at the start of a loose ref file, ended by whitespace or the end (refs/files-backend.c). */
const LOOSE_REF = /^([0-9a-fA-F]{40}|[0-9a-fA-F]{64})(?:\s|$)/;
/** A line of packed-refs: the id, one space, the ref's name. */
const PACKED_REF = /^([0-9a-fA-F]{40}|[0-9a-fA-F]{64}) (\S+)$/;

/** A file's text; null when it is not there, undefined when it cannot be read as a file (a folder, no permission). */
function textOf(path: string): string | null | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}
