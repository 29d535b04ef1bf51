import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeJournal } from './change-journal';
import { git, GitFailure, type GitTarget } from './git-command';
import { fsmonitorPaths } from './git-fsmonitor';
import { indexIdentity, withOwnIndex } from './own-index';
import { nulJoined } from './path-bytes';
import type { LeftOut } from './restore-plan';
import { sortChanges, workspaceChanges } from './workspace-changes';

/** The workspace as a tree in tole's checkpoint directory, and what it left out. */
export interface ScannedTree {
  readonly tree: string;
  readonly leftOut: LeftOut[];
}

/**
 * A scan of the whole workspace into tole's index, written as a tree: only what changed since the
 * index last took it in is staged (as one git lists it: workspace-changes.ts), in an index of this
 * scan's own (own-index.ts). It remembers the index its last scan published, so that a scan that
 * finds nothing changed since writes no tree again.
 *
 * With a change journal (change-journal.ts), git looks only at the paths the journal names as
 * changed since the token in that index (git-fsmonitor.ts), not at every file; whenever the
 * journal cannot vouch, at every file as without it.
 */
export class WorkspaceScan {
  /** The index this process's last scan published (own-index.ts: which file it is) and the tree it holds. */
  private published: { readonly index: string; readonly tree: string; readonly token: string | null } | null = null;
  /** Why the last scan's git looked at every file though a journal was given (null: it did not, or no journal). */
  lastUnvouched: string | null = null;

  constructor(
    private readonly target: GitTarget,
    private readonly maxFileBytes: number,
    private readonly journal: ChangeJournal | null = null,
  ) {}

  /**
   * The scan, on a fresh index when git cannot read the one it has (damaged, or its shared part
   * removed): the index only spares work, every path is staged again from the workspace.
   */
  async tree(stop: AbortSignal): Promise<ScannedTree> {
    try {
      return await this.stageAndWrite(stop);
    } catch (error) {
      if (!(error instanceof GitFailure) || !UNREADABLE_INDEX.test(error.stderr)) throw error;
      this.startAfresh();
      return this.stageAndWrite(stop);
    }
  }

  /**
   * The next scan starts from no index and stages every path from the workspace again: the index
   * cannot be read, or may name objects that were lost with a checkpoint (checkpoint-store.ts).
   */
  startAfresh(): void {
    const dir = this.target.gitDir;
    for (const name of readdirSync(dir))
      if (name === 'index' || name.startsWith('sharedindex.')) rmSync(join(dir, name), { force: true });
    this.published = null;
  }

  private async stageAndWrite(stop: AbortSignal): Promise<ScannedTree> {
    const scan = await withOwnIndex(this.target, (target, from) => this.stageAndWriteWith(target, from, stop));
    const { token, ...done } = scan.done;
    this.published = scan.published === null ? null : { index: scan.published, tree: done.tree, token };
    return done;
  }

  private async stageAndWriteWith(
    own: GitTarget,
    from: string | null,
    stop: AbortSignal,
  ): Promise<ScannedTree & { readonly token: string | null }> {
    const { target, token, vouched } = await this.withJournal(own, from, stop);
    const listed = await workspaceChanges(target, stop, vouched ? 'read-only' : 'write-index');
    const { candidates, stage, drop, leftOut } = sortChanges(this.target.workTree, listed, this.maxFileBytes);
    // Nothing changed since the index this process published, whose tree it wrote then.
    if (candidates.length === 0 && from !== null && this.published?.index === from)
      return { tree: this.published.tree, leftOut, token: token(own.indexFile!) };
    const update = [...SPLIT_INDEX, 'update-index', '-z'];
    // Dropped first: a folder made a symlink is staged only once what the index held under it is gone.
    if (drop.length > 0) await git(target, [...update, '--force-remove', '--stdin'], stop, nulJoined(drop));
    if (stage.length > 0) await git(target, [...update, '--add', '--remove', '--stdin'], stop, nulJoined(stage));
    const tree = (await git(target, [...SPLIT_INDEX, 'write-tree'], stop)).toString().trim();
    return { tree, leftOut, token: token(own.indexFile!) };
  }

  /**
   * The scan's gits with the journal's answer as their fsmonitor hook (git-fsmonitor.ts), and the
   * token the own index holds when they are done (a function of the index then): the journal's
   * new token if a git wrote the index (each writes the token its hook printed), else the one it
   * held before, known only when it is the index this process published last. Without an answer
   * (no journal, no watchman) the gits run without the hook, and a git that writes the index drops
   * the token and the bits with it.
   */
  private async withJournal(
    own: GitTarget,
    from: string | null,
    stop: AbortSignal,
  ): Promise<{ target: GitTarget; token: (index: string) => string | null; vouched: boolean }> {
    const none = { target: own, token: () => null, vouched: false };
    if (this.journal === null) return none;
    const before = from !== null && this.published?.index === from ? this.published.token : null;
    const answer = await this.journal.ask(before, stop);
    if (answer === null) {
      this.lastUnvouched = 'no answer from the change journal';
      return none;
    }
    this.lastUnvouched = answer.changed === null ? answer.why : null;
    const paths = `${own.indexFile}.changed`;
    writeFileSync(paths, answer.changed === null ? '' : fsmonitorPaths(answer.changed));
    return {
      target: { ...own, fsmonitor: { since: answer.changed === null ? null : before, token: answer.token, paths } },
      token: (index) => (indexIdentity(index) === from ? before : answer.token),
      vouched: answer.changed !== null,
    };
  }
}

/**
 * The gits that write tole's index keep it split (git's core.splitIndex): the entries that did not
 * change stay in a shared file written now and then, and each write is of the few that did, not
 * of every entry (8.8 MB at 100,000 files). Given on the command line, it applies to checkpoint
 * directories made before it too.
 */
const SPLIT_INDEX = ['-c', 'core.splitIndex=true'];

/** What git says when it cannot read an index file (read-cache.c's messages). */
const UNREADABLE_INDEX = /index file|bad signature|bad index|sharedindex|index uses/;
