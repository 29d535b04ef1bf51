import { NS } from '../registers/namespaces';
import type { EventSink } from './events';
import {
  previewRestore,
  restoreFiles,
  restoreTarget,
  resumeRestore,
  type RestoreDeps,
  type RestoreOutcome,
  type RestorePreview,
} from './restore-files';
import type { CommandAgent } from './session-commands';
import type { PendingIntent } from './tool-step';

/**
 * The agent side of `SessionCommands` for a host that runs no turns (`tole restore`): the
 * workspace's checkpoints, one restore at a time, and the restores a stop cut short finished
 * before anything else (restoring is idempotent: it runs again to the end).
 */
export class FileRestorer implements CommandAgent {
  private busy = false;

  constructor(private readonly deps: RestoreDeps) {}

  /** Whether a restore, or the settling of one a stop cut short, runs now. */
  get running(): boolean {
    return this.busy;
  }

  hasCheckpointFor(entryId: string): boolean {
    const { checkpoints, store } = this.deps;
    return checkpoints?.enabled === true && restoreTarget(store, entryId) !== null;
  }

  previewRestore(entryId: string): Promise<RestorePreview> {
    return previewRestore(this.deps, entryId);
  }

  /** How many restores a stop cut short wait to be run again to their end (the files may be partly restored). */
  get cutShort(): number {
    return this.cutShortRestores().length;
  }

  /** Finishes every restore a stop cut short; returns how many. A read-only view settles nothing. */
  async resume(emit: EventSink): Promise<number> {
    if (this.deps.store.readOnly) return 0;
    const restores = this.cutShortRestores();
    return this.exclusive(0, async () => {
      for (const intent of restores) await resumeRestore(this.deps, intent, emit);
      return restores.length;
    });
  }

  restoreFiles(entryId: string, emit: EventSink, signal?: AbortSignal): Promise<RestoreOutcome> {
    return this.exclusive({ ok: false, reason: 'a restore is running already; restore again when it ends' }, () =>
      restoreFiles(this.deps, entryId, emit, signal),
    );
  }

  private cutShortRestores(): PendingIntent[] {
    return this.deps.store.registers
      .entries(NS.pending)
      .map(([, cell]) => cell.value as PendingIntent)
      .filter((intent) => intent.kind === 'restore');
  }

  private async exclusive<T>(refused: T, work: () => Promise<T>): Promise<T> {
    if (this.busy) return refused;
    this.busy = true;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }
}
