import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotFailureReason } from './checkpoint-failure-reason';
import { GitFailure, runGit, type GitTarget } from './git-command';
import { KnownPathWriter, type Vouched } from './known-path-writer';
import { PipedRef } from './piped-ref';
import { commitOnRef, UnreadableHead } from './ref-chain';
import { CHECKPOINT_REF, gitCheckpointRef } from './git-checkpoint-ref';
import { headOnNoCommit, type LostChain, lostChainHead, lostMessage, startNewChain } from './lost-chain';
import { type LostUnderHead, lostUnderHead, refuseLostInRestore, removeDamagedLoose } from './lost-objects';
import { createDirectory, detachHeadAt, offReason } from './checkpoint-directory';
import { removeOwnIndexesLeftBehind } from './own-index';
import { writeRestore } from './write-restore';
import { restoreDiff } from './restore-diff';
import { WorkspaceScan } from './workspace-scan';
import { type ChangeJournal, journalOf } from './change-journal';
import { type LeftOut, planSize, RestoreIncomplete, type RestorePlan, RestoreWroteNothing } from './restore-plan';

export { type LeftOut, planSize, RestoreIncomplete, type RestorePlan, RestoreWroteNothing } from './restore-plan';
import { DEFAULT_REPACK, type RepackPolicy, repackIfDue } from './repack-policy';
import { ABORTED, abortError, raceAbort } from '../abort';
import { DEFAULT_TIME_LIMIT_MS, realTimer, type StartTimer, stopSignal, stoppedByCaller } from './git-stop';

/**
 * Checkpoints of a workspace, kept in a git directory of tole's own under tole's home (one per
 * workspace, named by a hash of its path), with the workspace as its work tree. The user's
 * repository is never read or written: git runs with GIT_DIR pointing at tole's directory, and
 * git itself never descends into a `.git`. The user's `.gitignore` files are honoured (git reads
 * them from the work tree), and so is the built-in list below.
 */
export const BUILTIN_IGNORES = [
  '.git/',
  'node_modules/',
  '.venv/',
  '__pycache__/',
  '.DS_Store',
  '.tole/',
  // The files watchman makes (and removes at once) to sync with its view of the tree.
  '.watchman-cookie-*',
];

const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

interface CheckpointSettings {
  /** tole's home (`$TOLE_HOME`, else `~/.tole`): checkpoints live under `<home>/checkpoints/`. */
  readonly home: string;
  readonly workspaceRoot: string;
  /** Files larger than this are left out (and the restore preview says so). */
  readonly maxFileBytes?: number;
  /** The user's home directory: a workspace that is the home itself is not snapshotted. */
  readonly userHome?: string;
  readonly gitBinary?: string;
  readonly path?: string;
  /** The repack policy (repack-policy.ts); tests make it small and in the foreground. */
  readonly repack?: RepackPolicy;
  /** How long git runs wait for a lock another git holds (git-command.ts); tests make it short. */
  readonly lockWaitsMs?: readonly number[];
  /** How long one checkpoint's gits may run, all told, before they are killed (git-stop.ts). */
  readonly timeLimitMs?: number;
  /** The timer of that limit; tests fire it themselves. */
  readonly timer?: StartTimer;
  /**
   * The change journal a scan asks which paths changed (change-journal.ts): `watchman` for a
   * running watchman's, through its client found on `path` (`WATCHMAN_SOCK` names another
   * watchman than the user's default one); none by default. Without an answer a scan looks at
   * every file.
   */
  readonly journal?: ChangeJournal | 'watchman' | null;
}

/**
 * A checkpoint, or why none was taken. A failure counts the checkpoints that failed in a row with
 * it (`inARow`, 1 for the first since the last success); a success after failures says how many
 * there were (`afterFailures`). An interruption (Esc) is neither.
 */
type TakeResult =
  | {
      readonly ok: true;
      readonly id: string;
      readonly leftOut: readonly LeftOut[];
      readonly afterFailures?: number;
      /** The newest checkpoint before this one could not be read (lost-chain.ts): this one starts a new chain. */
      readonly lost?: LostChain;
      /** Objects under the newest checkpoint before this one could not be read: this one read every file again. */
      readonly holes?: LostUnderHead;
    }
  | { readonly ok: false; readonly reason: string; readonly interrupted: true };

/** A checkpoint that failed: `firstReport` when it is the first in a row (the one told in full). */
export type FailedCheckpoint = {
  readonly ok: false;
  readonly reason: string;
  readonly firstReport: boolean;
  readonly inARow: number;
  /** Checkpoints cannot work here at all (`offReason`): none will be taken while this tole runs. */
  readonly standing?: true;
};

export class Checkpoints {
  private initialized = false;
  /** Checkpoints that failed since the last one taken (the failures a caller tells). */
  private failedInARow = 0;
  /** The newest checkpoint this process made (the next one's parent): saves a git run per checkpoint. */
  private newest: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The newest checkpoint this process made, while it vouches that it holds the workspace as it
   * was then (see `take`); null until a scan and after `rescan`.
   */
  private vouched: Vouched | null = null;
  /** Paths tole's own calls named since the last checkpoint (`noteChanges`), by their bytes. */
  private readonly named = new Map<string, Buffer>();
  /** Counts `rescan`s: a checkpoint that ran across one is not vouched for. */
  private rescans = 0;
  private writer: KnownPathWriter | null = null;
  /** The gits every checkpoint commits and moves the ref through (piped-ref.ts). */
  private piped: PipedRef | null = null;

  /** The scans of the whole workspace into tole's index (workspace-scan.ts). */
  private readonly scan: WorkspaceScan;

  private constructor(
    private readonly target: GitTarget,
    private readonly maxFileBytes: number,
    private readonly settings: CheckpointSettings,
  ) {
    this.scan = new WorkspaceScan(
      target,
      maxFileBytes,
      journalOf(settings.journal, settings.workspaceRoot, target.path),
    );
  }

  /** Why the last scan looked at every file though a journal was given, or null (test and bench hook). */
  get lastUnvouched(): string | null {
    return this.scan.lastUnvouched;
  }

  private probed: { reason: string | null } | null = null;

  /**
   * Why checkpoints cannot work here at all (no git binary, a workspace that is / or the home
   * directory), or null. Probed once, on first use, so that opening tole does not wait for git.
   */
  get offReason(): string | null {
    this.probed ??= {
      reason: offReason(this.settings.workspaceRoot, this.settings.userHome, this.target.binary, this.target.path),
    };
    return this.probed.reason;
  }

  /** Where a workspace's checkpoints live under tole's home. */
  static directoryFor(home: string, workspaceRoot: string): string {
    const key = createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 16);
    return join(home, 'checkpoints', key);
  }

  static create(settings: CheckpointSettings): Checkpoints {
    const binary = settings.gitBinary ?? 'git';
    const path = settings.path ?? process.env['PATH'] ?? '/usr/bin:/bin';
    // The directory's name (a SHA-256 of the path) is worked out when git first needs it: a
    // session opens before its first checkpoint, and hashing loads the crypto module.
    let gitDir: string | undefined;
    const target: GitTarget = {
      get gitDir() {
        gitDir ??= Checkpoints.directoryFor(settings.home, settings.workspaceRoot);
        return gitDir;
      },
      workTree: settings.workspaceRoot,
      binary,
      path,
      ...(settings.lockWaitsMs ? { lockWaitsMs: settings.lockWaitsMs } : {}),
    };
    return new Checkpoints(target, settings.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, settings);
  }

  get directory(): string {
    return this.target.gitDir;
  }

  get enabled(): boolean {
    return this.offReason === null;
  }

  /**
   * Snapshots the workspace as a commit in tole's checkpoint directory. A failure is data: the
   * reason, and how many checkpoints failed in a row with it (the first is told in full, the
   * later ones each in a short line, until one is taken again).
   *
   * `scan` (the default) reads the whole workspace. `known-paths` is the caller's word that,
   * since this tole's last checkpoint, the workspace changed only at the paths its calls named
   * (`noteChanges`): the checkpoint is then the last one's tree with only those paths read again,
   * in time that does not grow with the workspace. What such a checkpoint vouches for: every path
   * tole named holds its bytes of now; every other path holds what the last scan (or the chain of
   * known-path checkpoints since it) saw. A change made meanwhile by another process is not in
   * it; a restore's preview compares the checkpoint with the workspace as it is then, so such a
   * file is named there, and the restore checkpoints it first. tole scans anyway when it cannot
   * vouch: no scan yet in this process, a `rescan` since, another tole moved the ref, or a named
   * path whose meaning a few stats cannot settle (known-changes.ts).
   *
   * Its gits stop when `signal` aborts (the user's Esc: the result says `interrupted`, at once, even
   * while an earlier checkpoint still runs) or when the time limit passes (a failed checkpoint).
   *
   * `apart` (a restore's checkpoint) leaves the run of failed call checkpoints as it is: a restore
   * that cannot checkpoint is refused, so no effect runs without one, and its refusal tells why.
   */
  async take(
    how: 'scan' | 'known-paths' = 'scan',
    signal?: AbortSignal,
    run: 'counted' | 'apart' = 'counted',
  ): Promise<TakeResult | FailedCheckpoint> {
    if (this.offReason !== null) return { ...this.off(this.offReason), standing: true };
    const interrupted = { ok: false, reason: 'interrupted by the user', interrupted: true } as const;
    try {
      const running = this.serial(async (stop) => {
        this.init();
        const rescans = this.rescans;
        const named = [...this.named.values()];
        this.named.clear();
        // Until this checkpoint is made, no earlier one vouches for the paths just taken off `named`.
        const from = this.vouched;
        this.vouched = null;
        const known = how === 'known-paths' ? await this.knownPathCheckpoint(from, named, stop) : null;
        const { checkpoint, lost, holes } = known ? { checkpoint: known } : await this.scanOnReadableChain(stop);
        this.newest = checkpoint.commit;
        this.vouched = rescans === this.rescans ? checkpoint : null;
        return {
          ok: true as const,
          id: checkpoint.commit,
          leftOut: [...checkpoint.leftOut],
          ...(lost ? { lost } : {}),
          ...(holes ? { holes } : {}),
        };
      }, signal);
      const taken = signal ? await raceAbort(running, signal) : await running;
      if (taken === ABORTED) return interrupted;
      const afterFailures = run === 'counted' ? this.failedInARow : 0;
      if (run === 'counted') this.failedInARow = 0;
      // The directory is kept bounded (repack-policy.ts), off the caller's path: checked after each
      // checkpoint by a look at one object folder, git started only when a repack may be due.
      void this.serial((stop) => repackIfDue(this.target, this.settings.repack ?? DEFAULT_REPACK, stop));
      return afterFailures > 0 ? { ...taken, afterFailures } : taken;
    } catch (error) {
      if (stoppedByCaller(error) || signal?.aborted) return interrupted;
      const reason = snapshotFailureReason(error, this.target.gitDir);
      if (run === 'apart') return { ok: false, reason, firstReport: false, inARow: 0 };
      return this.off(reason);
    }
  }

  /**
   * Tells the checkpoints that a call of tole's own is about to change (or has changed) these
   * workspace paths (relative to the workspace root): the next known-path checkpoint reads them.
   */
  noteChanges(paths: readonly string[]): void {
    for (const path of paths) this.named.set(path, Buffer.from(path));
  }

  /** The next checkpoint scans the whole workspace: something changed that tole cannot name. */
  rescan(): void {
    this.rescans++;
    this.vouched = null;
  }

  /** Ends the gits known-path checkpoints keep running (they start again when needed). */
  close(): void {
    this.writer?.close();
    this.piped?.close();
  }

  /**
   * A scan's checkpoint; when it fails because the newest checkpoint's commit (the ref's head, or
   * the HEAD the scan compares with) cannot be read, lost in a crash before it reached the disk or
   * removed, a new chain is started (its first parent the newest checkpoint git can still read, or
   * none) and the scan runs once more, from no index. Without this, every later checkpoint of the
   * session failed the same way and every later call ran without one.
   */
  private async scanOnReadableChain(
    stop: AbortSignal,
  ): Promise<{ checkpoint: Vouched; lost?: LostChain | null; holes?: LostUnderHead }> {
    // This process's first checkpoint takes the ref's head as its parent unread (tole writes its
    // commit objects itself): after a crash that head may be lost though HEAD still reads, and a
    // commit on it would chain on a hole. Looked at once, before the scan, with its trees and
    // blobs, which a scan reuses by id (lost-objects.ts).
    if (this.newest === null) {
      const lost = await lostChainHead(this.target, stop);
      if (lost !== null) return this.scanOnNewChain(lost, stop);
      const holes = await lostUnderHead(this.target, stop);
      if (holes !== null) return this.scanAfresh(holes, stop);
    }
    try {
      return { checkpoint: await this.scanCheckpoint(stop), lost: null };
    } catch (error) {
      if (stop.aborted || !(error instanceof GitFailure || error instanceof UnreadableHead)) throw error;
      const lost = await lostChainHead(this.target, stop);
      if (lost !== null) return this.scanOnNewChain(lost, stop);
      const holes = await lostUnderHead(this.target, stop);
      if (holes === null) throw error;
      return this.scanAfresh(holes, stop);
    }
  }

  /**
   * The head reads but objects under it do not: the scan stages every file again (writing their
   * objects anew), compared with no HEAD (whose trees it cannot read); the ref keeps its head.
   */
  private async scanAfresh(
    holes: LostUnderHead,
    stop: AbortSignal,
  ): Promise<{ checkpoint: Vouched; holes: LostUnderHead }> {
    await removeDamagedLoose(this.target, holes.lost, stop);
    headOnNoCommit(this.target.gitDir);
    this.scan.startAfresh();
    this.writer?.close();
    this.writer = null;
    return { checkpoint: await this.scanCheckpoint(stop), holes };
  }

  private async scanOnNewChain(lost: LostChain, stop: AbortSignal): Promise<{ checkpoint: Vouched; lost: LostChain }> {
    await startNewChain(this.target, lost, stop);
    this.scan.startAfresh();
    this.writer?.close();
    this.writer = null;
    this.newest = lost.parent;
    return { checkpoint: await this.scanCheckpoint(stop), lost };
  }

  private async scanCheckpoint(stop: AbortSignal): Promise<Vouched> {
    const snap = await this.scan.tree(stop);
    const commit = await this.commitOnRef(snap.tree, checkpointMessage(snap.leftOut), stop);
    detachHeadAt(this.target.gitDir, commit);
    return { commit, tree: snap.tree, leftOut: snap.leftOut };
  }

  /** The known-path checkpoint after the vouched one, or null when only a scan can say (see `take`). */
  private async knownPathCheckpoint(
    from: Vouched | null,
    named: readonly Buffer[],
    stop: AbortSignal,
  ): Promise<Vouched | null> {
    if (from === null || from.commit !== this.newest) return null;
    this.writer ??= new KnownPathWriter(this.target, this.pipedRef());
    try {
      const taken = await this.writer.take(from, named, this.maxFileBytes, checkpointMessage, stop);
      return taken.ok ? taken.checkpoint : null;
    } catch (error) {
      // A git of the writer that failed or ended: the scan says what the workspace holds.
      this.writer.close();
      if (stop.aborted) throw error;
      return null;
    }
  }

  /** Resolves once every checkpoint, plan, restore and repack asked for so far has finished. */
  settled(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  /**
   * Commits `tree` on the checkpoint ref by compare-and-swap (ref-chain.ts), other toles on the
   * workspace moving it too; through the gits that keep running, a git per step where they cannot.
   */
  private async commitOnRef(tree: string, message: string, stop: AbortSignal): Promise<string> {
    const ref = this.pipedRef().chainRef(gitCheckpointRef(this.target, stop), stop);
    this.newest = await commitOnRef(ref, tree, message, this.newest);
    return this.newest;
  }

  private pipedRef(): PipedRef {
    this.piped ??= new PipedRef(this.target, CHECKPOINT_REF);
    return this.piped;
  }

  /** Takes a failure back out of the run: its call did not run after all (Esc came as it failed). */
  withdraw(failed: FailedCheckpoint): void {
    if (failed.inARow > 0 && failed.inARow === this.failedInARow) this.failedInARow--;
  }

  private off(reason: string): FailedCheckpoint {
    this.failedInARow++;
    return { ok: false, reason, firstReport: this.failedInARow === 1, inARow: this.failedInARow };
  }

  /** Whether a checkpoint id names a checkpoint that still exists here. */
  async has(id: string): Promise<boolean> {
    const stop = this.stopOn(undefined);
    try {
      return await this.exists(id, stop.signal);
    } finally {
      stop.release();
    }
  }

  private async exists(id: string, stop: AbortSignal): Promise<boolean> {
    if (!/^[0-9a-f]{40,64}$/.test(id) || !existsSync(join(this.target.gitDir, 'HEAD'))) return false;
    const run = await runGit(this.target, ['cat-file', '-e', `${id}^{commit}`], stop);
    return run.code === 0;
  }

  /**
   * What restoring `id` would create, overwrite and remove in the workspace as it is now. When
   * `signal` aborts its gits stop and it throws at once, even while an earlier checkpoint runs.
   */
  async plan(id: string, signal?: AbortSignal): Promise<RestorePlan> {
    const running = this.serial((stop) => this.planNow(id, stop), signal);
    if (!signal) return running;
    const planned = await raceAbort(running, signal);
    if (planned === ABORTED) throw abortError('interrupted by the user');
    return planned;
  }

  /**
   * Brings the workspace back to checkpoint `id` (writeRestore). Running it again after a crash
   * finishes the job: it is idempotent. `midway` runs between its two steps (fault tests). What
   * the workspace holds after is read again and compared with the checkpoint: a restore that did
   * not take, or failed part way (a folder where a file must go), throws a RestoreIncomplete that
   * says which files were restored and which not; one its time limit stopped cannot be read again;
   * one that failed before it wrote anything throws a RestoreWroteNothing.
   */
  async restore(id: string, midway?: () => void): Promise<RestorePlan> {
    return this.serial(async (stop) => {
      // A restore changes files no call named: the checkpoint after it scans.
      this.rescan();
      const plan = await this.planNow(id, stop).catch((error: unknown) =>
        Promise.reject(new RestoreWroteNothing(error)),
      );
      try {
        await writeRestore(this.target, plan, stop, midway);
      } catch (error) {
        if (stop.aborted || error instanceof RestoreWroteNothing) throw error;
        const left = await this.planNow(id, stop).catch(() => null);
        throw left ? new RestoreIncomplete(left, plan, error) : error;
      }
      const left = await this.planNow(id, stop);
      if (planSize(left) > 0) throw new RestoreIncomplete(left, plan);
      return plan;
    });
  }

  private async planNow(id: string, stop: AbortSignal): Promise<RestorePlan> {
    if (this.offReason !== null) throw new Error(`checkpoints are off: ${this.offReason}`);
    if (!(await this.exists(id, stop))) throw new Error(lostMessage(this.target.gitDir, id));
    this.init();
    const now = await this.scan.tree(stop);
    const plan = await restoreDiff(this.target, id, now.tree, stop).catch((error: unknown) =>
      refuseLostInRestore(this.target, id, null, stop, error).then(() => Promise.reject(error)),
    );
    await refuseLostInRestore(this.target, id, [...plan.bytes.added, ...plan.bytes.changed], stop);
    return plan;
  }

  private init(): void {
    if (this.initialized) return;
    const dir = this.target.gitDir;
    if (!existsSync(join(dir, 'HEAD'))) createDirectory(this.target);
    removeOwnIndexesLeftBehind(dir);
    mkdirSync(join(dir, 'info'), { recursive: true });
    writeFileSync(join(dir, 'info', 'exclude'), `# tole's built-in ignore list\n${BUILTIN_IGNORES.join('\n')}\n`);
    this.initialized = true;
  }

  /**
   * Checkpoint runs one at a time: git's index is one file. Each runs with the signal its gits
   * stop on, from when it starts: `caller` aborting or the time limit passing.
   */
  private serial<T>(work: (stop: AbortSignal) => Promise<T>, caller?: AbortSignal): Promise<T> {
    const run = async (): Promise<T> => {
      const stop = this.stopOn(caller);
      try {
        return await work(stop.signal);
      } finally {
        stop.release();
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private stopOn(caller: AbortSignal | undefined): ReturnType<typeof stopSignal> {
    return stopSignal(caller, this.settings.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS, this.settings.timer ?? realTimer);
  }
}

function checkpointMessage(leftOut: readonly LeftOut[]): string {
  return JSON.stringify({ tole: 'checkpoint', leftOut });
}
