import { NS } from '../registers/namespaces';
import type { SessionStore } from '../storage/session-store';
import { checkout, currentHead } from './cursor';
import type { EventSink } from './events';
import { labelOf, setLabel } from './labels';
import { MAX_QUEUED_PROMPTS, type PromptRunner } from './prompt-runner';
import type { RestoreOutcome, RestorePreview } from './restore-files';
import { retryPoint } from './retry-point';
import { nameSession, sessionName } from './session-name';
import { shellCommandOf } from './shell-command';
import type { PendingIntent } from './tool-step';

/** Why a session command was not carried out; `message` is one line for the user that says what to do. */
export interface Refusal {
  readonly ok: false;
  readonly reason:
    | 'turn-running'
    | 'turn-unsettled'
    | 'read-only'
    | 'no-entry'
    | 'already-checked-out'
    | 'no-checkpoints'
    | 'no-checkpoint'
    | 'not-committed'
    | 'not-restored'
    | 'nothing-to-retry'
    | 'no-turns'
    | 'queue-full'
    | 'not-queued';
  readonly message: string;
}

type CheckoutResult = { readonly ok: true; readonly entryId: string; readonly leaf: boolean } | Refusal;
/** `label`: the label as stored (null: the entry has none now) and whether it had one before. */
type LabelResult = { readonly ok: true; readonly label: string | null; readonly had: boolean } | Refusal;
/** `name`: the name as stored (null: the session has none now) and whether it had one before. */
type NameResult = { readonly ok: true; readonly name: string | null; readonly had: boolean } | Refusal;
/** `retryFrom`: the entry a retry asks the model again from (the prompt or tool result the answer followed). */
type RetryPoint = { readonly ok: true; readonly from: string } | Refusal;
/**
 * A restore that failed once it wrote files: the message names what was restored and what not;
 * restoring to `undoEntryId` (the restore's own entry) puts every file back as it was before it.
 */
export interface PartlyRestored {
  readonly ok: false;
  readonly reason: 'partly-restored';
  readonly message: string;
  readonly undoEntryId: string;
}
type RestoreResult = Extract<RestoreOutcome, { ok: true }> | Refusal | PartlyRestored;
/** `previewRestore`: what restoring the files to an entry would change now (nothing is changed). */
type PreviewResult = Extract<RestorePreview, { ok: true }> | Refusal;
/** `send`: where the prompt went (started a turn, into the running one, or behind it). */
type SendResult = { readonly ok: true; readonly how: 'sent' | 'steered' | 'queued' } | Refusal;
/** `takeQueued`: the prompt taken out of the queue, and how many are left in it. */
type QueuedResult = { readonly ok: true; readonly text: string; readonly left: number } | Refusal;

/** What the commands need of the agent: its checkpoints, and its own lock around a restore. */
export interface CommandAgent {
  hasCheckpointFor?(entryId: string): boolean;
  previewRestore?(entryId: string): Promise<RestorePreview>;
  restoreFiles?(entryId: string, emit: EventSink, signal?: AbortSignal): Promise<RestoreOutcome>;
}

/**
 * The session's commands from a screen or a headless host: check-out, labels, the session's
 * name and restoring files. Each refuses what the session's state does not allow (a turn runs,
 * the session is read-only, the entry is not there) with a typed result the host renders; none
 * throws for the world's failures (a commit storage refused comes back as `not-committed`).
 */
export class SessionCommands {
  constructor(
    private readonly store: SessionStore,
    private readonly agent: CommandAgent,
    /** Whether a turn, or work in a turn's place (a `/compact`, a restore), runs in the session now. */
    private readonly running: () => boolean,
    /** The host's runner of turns, which prompts are sent, steered and queued through (none: a host that runs no turns). */
    private readonly prompts?: PromptRunner,
  ) {}

  /**
   * A prompt typed now. With nothing running it starts a turn. While a prompt's turn runs,
   * `steer` sends it into that turn at its next model call (a `!command` never: the model does
   * not read it mid-turn, it runs after the turn) and `queue` keeps it for after the turn; behind
   * other work (a resume, a `/compact`) it is queued. Refused read-only, or when the queue is full.
   */
  send(text: string, how: 'steer' | 'queue' = 'steer'): SendResult {
    const { prompts } = this;
    if (this.store.readOnly)
      return refuse('read-only', 'read-only session: prompts cannot be sent (nothing is written)');
    if (!prompts) return refuse('no-turns', 'this view runs no turns: open the session in tole to send prompts');
    // Nothing runs: a runner that will not start a turn now (a read-only view) never gets a queue it would not send.
    if (prompts.work === 'none')
      return prompts.start(text)
        ? { ok: true, how: 'sent' }
        : refuse('read-only', 'this view is read-only: prompts cannot be sent (nothing is written)');
    if (how === 'steer' && prompts.work === 'turn' && shellCommandOf(text) === null && prompts.steer(text))
      return { ok: true, how: 'steered' };
    if (prompts.queued.length >= MAX_QUEUED_PROMPTS)
      return refuse(
        'queue-full',
        `the queue is full (${MAX_QUEUED_PROMPTS} prompts wait): wait for the running turn, or Esc to stop it`,
      );
    prompts.enqueue(text);
    return { ok: true, how: 'queued' };
  }

  /** Takes the queued prompt at `index` (0: the next to go) out of the queue, to edit it or to drop it. */
  takeQueued(index: number): QueuedResult {
    const text = this.prompts?.dequeue(index) ?? null;
    if (text === null || !this.prompts)
      return refuse('not-queued', `no prompt ${index + 1} in the queue: it went, or was taken out already`);
    return { ok: true, text, left: this.prompts.queued.length };
  }

  /** Why `checkout(entryId)` would be refused now, or null when it would be carried out. */
  checkoutRefusal(entryId: string): Refusal | null {
    if (this.running())
      return refuse('turn-running', 'a turn is running: wait for it to end (or Esc to stop it) before checking out');
    if (currentHead(this.store).entryId === entryId)
      return refuse('already-checked-out', `${entryId} is already checked out (◀)`);
    if (this.store.readOnly)
      return refuse('read-only', 'read-only session: nothing can be checked out (nothing is written)');
    return this.existing(entryId);
  }

  /** Moves the head to an entry (files untouched): the next prompt continues from it. */
  checkout(entryId: string): CheckoutResult {
    const refused = this.checkoutRefusal(entryId);
    if (refused) return refused;
    const leaf = this.store.tree.isLeaf(entryId);
    const failed = attempt(`could not check out ${entryId}`, () => checkout(this.store, entryId));
    return failed ?? { ok: true, entryId, leaf };
  }

  /** Before an edited prompt is sent: its parent is checked out (none: the root), so it starts a sibling branch. */
  branchBeside(entryId: string, parentId: string | null): CheckoutResult {
    const refused =
      this.writable(
        `send the edit of ${entryId}`,
        `send the edit of ${entryId} once it ends (it stays in the editor)`,
      ) ?? (parentId === null ? null : this.existing(parentId));
    if (refused) return refused;
    const failed = attempt(`could not branch beside ${entryId}`, () => checkout(this.store, parentId));
    return failed ?? { ok: true, entryId: parentId ?? entryId, leaf: false };
  }

  /**
   * Where asking again about `entryId` starts (`r` in the tree, `/retry`): the point its answer
   * followed; the host then runs the turn from there. Refused while a turn runs, read-only, or
   * when nothing above the entry was sent.
   */
  retryFrom(entryId: string | null): RetryPoint {
    if (this.store.readOnly)
      return refuse('read-only', 'this session is open read-only: nothing can be asked again here');
    if (entryId === null) return refuse('nothing-to-retry', 'nothing to ask again yet: send a prompt first');
    if (this.running()) return refuse('turn-running', 'a turn is running: ask again once it ends (or Esc to stop it)');
    const missing = this.existing(entryId);
    if (missing) return missing;
    const from = retryPoint(this.store.tree, entryId);
    if (from === null)
      return refuse(
        'nothing-to-retry',
        `${entryId} has no prompt above it to ask again (a prompt a hook blocked is never sent)`,
      );
    return { ok: true, from };
  }

  /** Sets an entry's label; empty text removes it. */
  label(entryId: string | null, text: string): LabelResult {
    if (this.store.readOnly) return refuse('read-only', 'read-only session: labels cannot be written');
    if (entryId === null) return refuse('no-entry', 'nothing to label yet: send a prompt first');
    const missing = this.existing(entryId);
    if (missing) return missing;
    const had = labelOf(this.store, entryId) !== undefined;
    let label: string | null = null;
    const failed = attempt(`could not label ${entryId}`, () => {
      label = setLabel(this.store, entryId, text);
    });
    return failed ?? { ok: true, label, had };
  }

  /** Names the session; empty text removes the name. */
  name(text: string): NameResult {
    if (this.store.readOnly) return refuse('read-only', 'read-only session: its name cannot be written');
    const had = sessionName(this.store) !== null;
    let name: string | null = null;
    const failed = attempt('could not name the session', () => {
      name = nameSession(this.store, text);
    });
    return failed ?? { ok: true, name, had };
  }

  /** Why the files cannot be restored to `entryId` now, or null when they can be asked for. */
  restoreRefusal(entryId: string): Refusal | null {
    const refused = this.writable('restore files', 'restore files when it ends (Esc stops it)');
    if (refused) return refused;
    if (!this.agent.restoreFiles) return refuse('no-checkpoints', 'checkpoints are not set up for this session');
    return this.existing(entryId) ?? this.unsettled();
  }

  /**
   * Why a restore to `entryId` would be refused by the session's state (no such entry, calls a
   * stop cut short still unsettled), leaving out the view's own being read-only: what a dry run
   * says before it shows a plan the real restore would not carry out.
   */
  restoreRefusalOfState(entryId: string): Refusal | null {
    return this.existing(entryId) ?? this.unsettled();
  }

  /** What restoring the files to `entryId` would change, as they are now; changes nothing (a read-only view may ask). */
  async previewRestore(entryId: string): Promise<PreviewResult> {
    const { previewRestore } = this.agent;
    if (!previewRestore) return refuse('no-checkpoints', 'checkpoints are not set up for this session');
    const missing = this.existing(entryId);
    if (missing) return missing;
    // The preview's own reasons say more than `hasCheckpointFor` (checkpoints off, and why).
    const preview = await previewRestore.call(this.agent, entryId);
    return preview.ok ? preview : refuse('not-restored', preview.reason);
  }

  /**
   * Restores the workspace files to how they were at an entry. The agent holds its turn lock for
   * it (a host runs it in a turn's place); a turn already running refuses it. `signal` (Esc) stops it
   * while it checkpoints the files as they are now; once it writes files it finishes (restore-files.ts).
   */
  async restore(entryId: string, emit: EventSink, signal?: AbortSignal): Promise<RestoreResult> {
    if (this.store.readOnly) return refuse('read-only', 'read-only: files cannot be restored from this view');
    const { restoreFiles } = this.agent;
    if (!restoreFiles) return refuse('no-checkpoints', 'checkpoints are not set up for this session');
    const refused = this.existing(entryId) ?? this.unsettled();
    if (refused) return refused;
    if (this.agent.hasCheckpointFor?.(entryId) === false) return noCheckpoint(entryId);
    const outcome = await restoreFiles.call(this.agent, entryId, emit, signal);
    if (outcome.ok) return outcome;
    if (outcome.undoEntryId !== undefined)
      return { ok: false, reason: 'partly-restored', message: outcome.reason, undoEntryId: outcome.undoEntryId };
    return refuse('not-restored', `files not restored: ${outcome.reason}`);
  }

  /** Refuses while a turn runs or when the session is read-only; `what` is the refused action. */
  private writable(what: string, later = `${what} once it ends (Esc stops it)`): Refusal | null {
    if (this.running()) return refuse('turn-running', `a turn is running: ${later}`);
    if (this.store.readOnly) return refuse('read-only', `read-only session: cannot ${what} (nothing is written)`);
    return null;
  }

  /**
   * Refuses while a call a stop cut short waits to be settled: settling it may run it again (a
   * write is idempotent), which would undo part of a restore made before it. Opening the session
   * in tole settles it (a restore cut short is not counted: it is finished by running it again).
   */
  private unsettled(): Refusal | null {
    const calls = this.store.registers
      .entries(NS.pending)
      .filter(([, cell]) => (cell.value as PendingIntent).kind !== 'restore');
    if (calls.length === 0) return null;
    return refuse(
      'turn-unsettled',
      `a turn a stop cut short has ${calls.length} call(s) not settled yet: open the session in tole to settle them first, then restore`,
    );
  }

  private existing(entryId: string): Refusal | null {
    if (this.store.tree.has(entryId)) return null;
    return refuse('no-entry', `no entry ${entryId} in this session: pick one in the tree (t)`);
  }
}

function noCheckpoint(entryId: string): Refusal {
  return refuse('no-checkpoint', `files not restored: no checkpoint holds the files as they were at ${entryId}`);
}

function refuse(reason: Refusal['reason'], message: string): Refusal {
  return { ok: false, reason, message };
}

/** Runs a commit; a storage failure (disk full, a failed fsync) comes back as a refusal that says so. */
function attempt(what: string, commit: () => void): Refusal | null {
  try {
    commit();
    return null;
  } catch (error) {
    return refuse('not-committed', `${what}: ${(error as Error)?.message ?? String(error)}`);
  }
}
