import type { Checkpoints, RestorePlan } from '../checkpoints/checkpoint-store';
import { planSize, RestoreIncomplete, RestoreWroteNothing } from '../checkpoints/checkpoint-store';
import { planPaths } from '../checkpoints/plan-text';
import { NS } from '../registers/namespaces';
import type { SessionStore } from '../storage/session-store';
import type { AnyEntry, Entry } from '../tree/entry-types';
import type { FaultPoint } from './agent-deps';
import { AppendBatch } from './cursor';
import type { EventSink } from './events';
import type { PendingIntent } from './tool-step';

/** What a restore needs: the session, the workspace's checkpoints and the fault hook. */
export interface RestoreDeps {
  readonly store: SessionStore;
  readonly checkpoints?: Checkpoints;
  readonly fault?: (point: FaultPoint) => void;
}

/** The checkpoint an entry holds: taken before its effect (intent, approval) or before a restore. */
export function checkpointOf(entry: AnyEntry): string | undefined {
  switch (entry.type) {
    case 'tool_intent':
    case 'approval':
    case 'restore':
      return entry.payload.checkpoint;
    default:
      return undefined;
  }
}

/** Every entry that names a checkpoint, in commit order. */
export function checkpointedEntries(store: SessionStore): AnyEntry[] {
  return [...store.tree.all()].filter((entry) => checkpointOf(entry) !== undefined).sort((a, b) => a.seq - b.seq);
}

interface RestoreTarget {
  /** The entry the user picked. */
  readonly entryId: string;
  /** The entry whose checkpoint holds the files as they were at `entryId`. */
  readonly heldBy: string;
  readonly checkpoint: string;
  /**
   * Calls that changed files after `entryId` and before `heldBy` with no checkpoint of their own
   * (the checkpoint failed or ran past its time limit): what they changed is in `checkpoint`, so
   * the files restored are as they were after those calls, not at `entryId`.
   */
  readonly uncheckpointed: number;
}

/**
 * The files as they were at an entry are the first checkpoint taken at or after it (by commit
 * order, on any branch): nothing tole ran changed the files between that entry and that
 * checkpoint, unless a call ran without one (counted in `uncheckpointed`). Null when no
 * checkpoint was taken after the entry.
 */
export function restoreTarget(store: SessionStore, entryId: string): RestoreTarget | null {
  const walked = walkToCheckpoint(store, entryId);
  return walked ? targetOf(entryId, walked) : null;
}

function targetOf(entryId: string, walked: Walked): RestoreTarget | null {
  const { heldBy, uncheckpointed } = walked;
  return heldBy ? { entryId, heldBy: heldBy.id, checkpoint: checkpointOf(heldBy)!, uncheckpointed } : null;
}

interface Walked {
  /** The first entry at or after the one asked for that names a checkpoint; null when none came. */
  readonly heldBy: AnyEntry | null;
  readonly uncheckpointed: number;
}

/**
 * One walk in commit order from `entryId` to the first entry at or after it that names a
 * checkpoint, counting on the way the calls after it that were let change files with no
 * checkpoint taken before: an intent that may change files, naming none, approved at intent time
 * or by an approval that named none either. A call denied, or stopped by Esc at its checkpoint,
 * changed nothing and is not counted. Undefined when the session has no such entry.
 */
function walkToCheckpoint(store: SessionStore, entryId: string): Walked | undefined {
  const entry = store.entry(entryId);
  if (!entry) return undefined;
  const waiting = new Set<string>();
  let uncheckpointed = 0;
  for (const e of store.tree.all()) {
    if (e.seq < entry.seq) continue;
    if (checkpointOf(e) !== undefined) return { heldBy: e, uncheckpointed };
    if (e.seq === entry.seq) continue;
    if (e.type === 'tool_intent') {
      const { risk, approval, callId } = e.payload;
      if (risk === 'ReadOnly') continue;
      if (approval === null) waiting.add(callId);
      else if (approval.approved) uncheckpointed += 1;
    } else if (e.type === 'approval' && waiting.delete(e.payload.callId) && e.payload.decision.approved) {
      uncheckpointed += 1;
    }
  }
  return { heldBy: null, uncheckpointed };
}

/** What a restore to `entryId` cannot bring back: the calls after it that ran with no checkpoint. */
export function uncheckpointedText(entryId: string, calls: number): string {
  return calls === 1
    ? `1 call after ${entryId} ran without a checkpoint: its file changes cannot be undone`
    : `${calls} calls after ${entryId} ran without a checkpoint: their file changes cannot be undone`;
}

/** The preview's warning when calls between the entry and its checkpoint ran without one, or null. */
export function uncheckpointedWarning(target: RestoreTarget): string | null {
  if (target.uncheckpointed === 0) return null;
  const them = target.uncheckpointed === 1 ? 'it' : 'them';
  return `${uncheckpointedText(target.entryId, target.uncheckpointed)}, so the files would be restored to how they were after ${them}, at ${target.heldBy}`;
}

export type RestorePreview =
  | { readonly ok: true; readonly target: RestoreTarget; readonly plan: RestorePlan }
  | { readonly ok: false; readonly reason: string };

/** What restoring the files to `entryId` would change, as the workspace is now. Changes nothing. */
export async function previewRestore(deps: RestoreDeps, entryId: string): Promise<RestorePreview> {
  const found = findTarget(deps, entryId);
  if (!found.ok) return found;
  try {
    return { ok: true, target: found.target, plan: await found.checkpoints.plan(found.target.checkpoint) };
  } catch (error) {
    return { ok: false, reason: (error as Error)?.message ?? String(error) };
  }
}

export type RestoreOutcome =
  | {
      readonly ok: true;
      readonly plan: RestorePlan;
      readonly entryId: string;
      /** The restore's own entry: restoring to it undoes this restore. */
      readonly undoEntryId: string;
    }
  | {
      readonly ok: false;
      readonly reason: string;
      readonly interrupted?: true;
      /** The restore failed once it wrote files: restoring to this entry (its own) puts them back. */
      readonly undoEntryId?: string;
    };

/** What a restore the user stopped with Esc before it wrote any file (while it planned or checkpointed the present files) says. */
export const RESTORE_INTERRUPTED =
  'interrupted by the user before any file was written: nothing was restored, the files are as they were';

/** What a restore that failed before it wrote any file says first: the files are as they were. */
export const RESTORE_WROTE_NOTHING =
  'the restore failed before it wrote any file: nothing was written, the files are as they were';

/** The restore to `entryId` stopped by Esc before any file was touched: the session says so in a notice. */
function interrupted(store: SessionStore, entryId: string, emit: EventSink): RestoreOutcome {
  commitNotice(store, emit, {
    level: 'info',
    source: 'checkpoint',
    text: `restore of the files to ${entryId} ${RESTORE_INTERRUPTED}`,
  });
  return { ok: false, reason: RESTORE_INTERRUPTED, interrupted: true };
}

/**
 * Restores the workspace files to how they were at `entryId`, as an effect of its own: a
 * checkpoint of the files as they are now, then the intent (naming both checkpoints), then the
 * file changes, then the settlement. The restore can itself be undone by restoring to its entry.
 *
 * `signal` (Esc) stops it until the intent is committed: the plan's and the checkpoint's gits are
 * killed, no file is touched and the session holds only a notice saying so. Once the files are being
 * written it is refused: the write phase finishes whole (or fails at the checkpoint time limit),
 * and a notice says so at the moment Esc comes. Stopping between files would leave a workspace
 * that is neither the files before nor the files restored, and git writes each file in place, so
 * a file cut short could be half written; a whole restore is one the user can undo exactly, by
 * restoring to its entry (the checkpoint taken first holds every file as it was).
 */
export async function restoreFiles(
  deps: RestoreDeps,
  entryId: string,
  emit: EventSink = () => {},
  signal?: AbortSignal,
): Promise<RestoreOutcome> {
  const { store } = deps;
  if (store.readOnly)
    return { ok: false, reason: 'this session is open read-only; open it for writing to restore files' };
  const found = findTarget(deps, entryId);
  if (!found.ok) return found;
  const { target, checkpoints } = found;
  let plan: RestorePlan;
  try {
    plan = await checkpoints.plan(target.checkpoint, signal);
  } catch (error) {
    if (signal?.aborted) return interrupted(store, entryId, emit);
    return { ok: false, reason: (error as Error)?.message ?? String(error) };
  }
  if (signal?.aborted) return interrupted(store, entryId, emit);
  const before = await checkpoints.take('scan', signal, 'apart');
  if (!before.ok && 'interrupted' in before) return interrupted(store, entryId, emit);
  if (!before.ok)
    return {
      ok: false,
      reason: `the files as they are now could not be checkpointed first, so the restore could not be undone: ${before.reason}`,
    };
  deps.fault?.('after-checkpoint');
  // Esc that came as the checkpoint finished still stops it: nothing is written yet.
  if (signal?.aborted) return interrupted(store, entryId, emit);
  const restoreId = `restore_${store.lastSeq + 1}`;
  const batch = new AppendBatch(store);
  const intentId = batch.entry('restore', {
    restoreId,
    targetEntryId: entryId,
    target: target.checkpoint,
    checkpoint: before.id,
    added: plan.added.length,
    changed: plan.changed.length,
    removed: plan.removed.length,
  });
  batch.register(NS.pending, restoreId, {
    entryId: intentId,
    callId: restoreId,
    tool: 'restore',
    approved: true,
    kind: 'restore',
  } satisfies PendingIntent);
  store.commit(batch.build());
  // The stop is named by the signal's reason when the host gives one ('Ctrl-C'), else it is the screen's Esc.
  const refuseEsc = (): void =>
    commitNotice(store, emit, {
      level: 'warn',
      source: 'checkpoint',
      text: `${typeof signal?.reason === 'string' ? signal.reason : 'Esc'} came while the files were being written: the restore goes on to its end rather than leave some files restored and others not (its result says how it ended). To undo it, restore to its entry ${intentId}.`,
    });
  signal?.addEventListener('abort', refuseEsc, { once: true });
  try {
    return await applyAndSettle(
      deps,
      checkpoints,
      { restoreId, intentId, entryId, checkpoint: target.checkpoint },
      false,
      emit,
    );
  } finally {
    signal?.removeEventListener('abort', refuseEsc);
  }
}

function commitNotice(store: SessionStore, emit: EventSink, notice: Entry<'notice'>['payload']): void {
  const batch = new AppendBatch(store);
  batch.entry('notice', notice);
  store.commit(batch.build());
  emit({ type: 'notice', level: notice.level, text: notice.text });
}

/** Settles a restore a crash interrupted: restoring is idempotent, so it runs again to the end. */
export async function resumeRestore(deps: RestoreDeps, intent: PendingIntent, emit: EventSink): Promise<void> {
  const entry = deps.store.entry(intent.entryId) as Entry<'restore'> | undefined;
  if (!entry || entry.type !== 'restore')
    throw new Error(`assert: pending restore ${intent.callId} names no restore entry`);
  const { restoreId, targetEntryId, target } = entry.payload;
  if (!deps.checkpoints) {
    settle(
      deps.store,
      restoreId,
      targetEntryId,
      {
        ok: false,
        reason: 'interrupted by a stop, and checkpoints are not available now: the files may be partly restored',
      },
      true,
      emit,
    );
    return;
  }
  await applyAndSettle(
    deps,
    deps.checkpoints,
    { restoreId, intentId: entry.id, entryId: targetEntryId, checkpoint: target },
    true,
    emit,
  );
}

async function applyAndSettle(
  deps: RestoreDeps,
  checkpoints: Checkpoints,
  restore: {
    readonly restoreId: string;
    readonly intentId: string;
    readonly entryId: string;
    readonly checkpoint: string;
  },
  resumed: boolean,
  emit: EventSink,
): Promise<RestoreOutcome> {
  const { restoreId, intentId, entryId, checkpoint } = restore;
  emit({ type: 'restore-writing', entryId: intentId });
  let outcome: RestoreOutcome;
  try {
    const plan = await checkpoints.restore(checkpoint, () => deps.fault?.('during-restore'));
    outcome = { ok: true, plan, entryId, undoEntryId: intentId };
  } catch (error) {
    // Run again after a stop, the restore may have written files the first time: only a first run
    // that wrote nothing leaves the files as they were.
    outcome =
      error instanceof RestoreWroteNothing && !resumed
        ? { ok: false, reason: `${RESTORE_WROTE_NOTHING}: ${error.message}` }
        : { ok: false, reason: failedPartWay(error, intentId), undoEntryId: intentId };
  }
  settle(deps.store, restoreId, entryId, outcome, resumed, emit);
  return outcome;
}

function settle(
  store: SessionStore,
  restoreId: string,
  entryId: string,
  outcome: RestoreOutcome,
  resumed: boolean,
  emit: EventSink,
): void {
  const counts = outcome.ok
    ? { added: outcome.plan.added.length, changed: outcome.plan.changed.length, removed: outcome.plan.removed.length }
    : { added: 0, changed: 0, removed: 0 };
  const content = outcome.ok ? restoredText(entryId, outcome.plan) : outcome.reason;
  const batch = new AppendBatch(store);
  batch.entry('restore_result', {
    restoreId,
    targetEntryId: entryId,
    outcome: outcome.ok ? 'ok' : 'error',
    content,
    ...counts,
    ...(resumed ? { resumed } : {}),
  });
  batch.remove(NS.pending, restoreId);
  store.commit(batch.build());
  emit({ type: 'notice', level: outcome.ok ? 'info' : 'error', text: content });
}

/**
 * What a restore that failed once it wrote files says: why, which files were restored and which
 * not (read again from the workspace), and the one action that puts every file back as it was
 * before it: restoring to its own entry, whose checkpoint holds them all.
 */
function failedPartWay(error: unknown, intentId: string): string {
  const undo = `to put every file back as it was before this restore, restore to its entry ${intentId}`;
  if (!(error instanceof RestoreIncomplete))
    return `the restore failed part way: ${messageOf(error)}. Which of its files were written could not be read again: restore again to finish it, or ${undo} (its checkpoint holds them all)`;
  const { restored, planned, left } = error;
  const why =
    error.cause === undefined
      ? 'its files were written, and some still differ (another process may be changing them, or they cannot be written)'
      : messageOf(error.cause);
  return `the restore failed part way: ${why}. Restored ${planSize(restored)} of ${planSize(planned)}${planSize(restored) > 0 ? ` (${planPaths(restored)})` : ''}; not restored: ${planPaths(left)}; ${undo}`;
}

function messageOf(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

function restoredText(entryId: string, plan: RestorePlan): string {
  if (planSize(plan) === 0) return `files already as they were at ${entryId}: nothing to change`;
  const left =
    plan.leftOut.length > 0 ? `; ${plan.leftOut.length} left out (not in the checkpoint) and left as they are` : '';
  return `files restored to ${entryId}: ${plan.added.length} created, ${plan.changed.length} overwritten, ${plan.removed.length} removed${left}`;
}

function findTarget(
  deps: RestoreDeps,
  entryId: string,
): { ok: true; target: RestoreTarget; checkpoints: Checkpoints } | { ok: false; reason: string } {
  const { checkpoints, store } = deps;
  if (!checkpoints) return { ok: false, reason: 'checkpoints are not set up for this session' };
  if (checkpoints.offReason !== null) return { ok: false, reason: `checkpoints are off: ${checkpoints.offReason}` };
  if (!store.tree.has(entryId)) return { ok: false, reason: `no entry ${entryId} in this session` };
  const walked = walkToCheckpoint(store, entryId)!;
  const target = targetOf(entryId, walked);
  if (!target) {
    const calls = walked.uncheckpointed;
    return {
      ok: false,
      reason:
        calls > 0
          ? `${uncheckpointedText(entryId, calls)}, and no checkpoint was taken after them: there is nothing to restore the files from`
          : `no call changed files after ${entryId}: the files are as they were there (apart from changes made outside tole)`,
    };
  }
  return { ok: true, target, checkpoints };
}
