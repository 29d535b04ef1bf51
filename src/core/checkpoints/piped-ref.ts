import type { GitTarget } from './git-command';
import { NO_COMMIT } from './git-checkpoint-ref';
import { GitPipe, lines } from './git-pipe';
import { syncRefFolder, writeLooseObject } from './loose-object';
import type { CheckpointRef } from './ref-chain';

/**
 * The checkpoint ref's two writes, commit and compare-and-swap: the commit object written by tole
 * itself as `commit-tree` would write it (loose-object.ts), and the ref moved through a git that
 * keeps running (git-pipe.ts), `update-ref --stdin`, in a transaction with the old value it must
 * hold. Every checkpoint ends with both, a scan's as a known-path one's: no git start for either
 * on a bash call. The git ends after two idle minutes, or with `close`.
 */
export class PipedRef {
  private readonly refs: GitPipe;
  /** Ends the gits once no checkpoint has needed them for a while (a session left open idle). */
  private idle: NodeJS.Timeout | null = null;
  constructor(
    private readonly target: GitTarget,
    private readonly ref: string,
  ) {
    this.refs = new GitPipe(target, ['update-ref', '--stdin', '-z']);
  }

  /** The commit object as `commit-tree` writes it (tole's name and address, UTC), written into the directory. */
  async commit(tree: string, parents: readonly string[], message: string): Promise<string> {
    return writeLooseObject(this.target.gitDir, 'commit', commitBody(tree, parents, message), tree.length);
  }

  /**
   * Moves the ref to `next` if it is at `expected` (null: it must not exist yet). Throws with
   * git's answer when git refused: the ref moved, or another git holds its lock (the git ends,
   * and the next request starts another).
   */
  async swap(next: string, expected: string | null, signal: AbortSignal): Promise<void> {
    this.touch();
    const old = expected ?? NO_COMMIT;
    const answer = await this.refs.ask(
      Buffer.from(`start\0update ${this.ref}\0${next}\0${old}\0commit\0`, 'latin1'),
      lines(2),
      signal,
    );
    if (answer[1] !== 'commit: ok') throw new Error(answer.join('; '));
    // git synced the ref's file before renaming it into place; its new name is made durable here,
    // before the session names the checkpoint (a ref a power loss took back would leave the
    // checkpoint off the chain, for git's gc to prune in time).
    syncRefFolder(this.target.gitDir, this.ref);
  }

  /**
   * The ref as the chain moves it (ref-chain.ts), through these gits; `byProcess` (the ref moved
   * by a git per step) reads the head, and makes a swap these gits could not: it waits out
   * another git's lock or removes a stale one (git-command.ts; these gits, idle by then, do not
   * count as gits holding it: idle-gits.ts), and reports git's own failure.
   */
  chainRef(byProcess: CheckpointRef, signal: AbortSignal): CheckpointRef {
    return {
      commit: (tree, parents, message) => this.commit(tree, parents, message),
      swap: async (next, expected) => {
        try {
          await this.swap(next, expected, signal);
          return { ok: true };
        } catch (error) {
          if (signal.aborted) throw error;
          const swapped = await byProcess.swap(next, expected);
          if (swapped.ok) syncRefFolder(this.target.gitDir, this.ref);
          return swapped;
        }
      },
      head: () => byProcess.head(),
      ...(byProcess.reads ? { reads: byProcess.reads } : {}),
    };
  }

  close(): void {
    if (this.idle) clearTimeout(this.idle);
    this.refs.close();
  }

  private touch(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(), IDLE_MS);
    this.idle.unref();
  }
}

/** A checkpoint commit object's text as `commit-tree` writes it: tole's name and address, the time now in UTC. */
export function commitBody(tree: string, parents: readonly string[], message: string): string {
  const seconds = Math.floor(Date.now() / 1000);
  const who = `tole <tole@localhost> ${seconds} +0000`;
  const parentLines = parents.map((p) => `parent ${p}\n`).join('');
  return `tree ${tree}\n${parentLines}author ${who}\ncommitter ${who}\n\n${message}\n`;
}

/** How long the git stays after the last checkpoint: a turn's calls come seconds apart. */
const IDLE_MS = 120_000;
