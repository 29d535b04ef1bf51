import { planSize } from '../../core/checkpoints/checkpoint-store';
import type { SessionCommands } from '../../core/session/session-commands';
import { flashRefusal } from '../commands/refusal-flash';
import type { TurnController } from '../screen/turn-controller';
import type { FilesDialog, UiAction } from '../screen/ui-state';

/** What the files prompt's keys need from the screen: the preview and the restore go through the session's commands. */
export interface FilesKeyContext {
  readonly dialog: FilesDialog | null;
  readonly dispatch: (action: UiAction) => void;
  readonly session: Pick<SessionCommands, 'previewRestore' | 'restore' | 'restoreRefusal'>;
  readonly turns: Pick<TurnController, 'runTask'>;
}

function flash(ctx: FilesKeyContext, level: 'info' | 'warn' | 'error', text: string): void {
  ctx.dispatch({ type: 'flash', flash: { level, text } });
}

/**
 * Opens a files prompt for an entry and asks the session's commands for its preview in the
 * background (as `tole restore` does); a refusal is shown in the prompt in its own words.
 */
export function openFilesDialog(ctx: FilesKeyContext, kind: FilesDialog['kind'], entryId: string): void {
  ctx.dispatch({ type: 'dialog', dialog: { kind, entryId, preview: null } });
  void ctx.session.previewRestore(entryId).then(
    (result) =>
      ctx.dispatch({
        type: 'dialog-preview',
        entryId,
        preview: result.ok ? result : { ok: false, reason: result.message },
      }),
    (error: unknown) =>
      ctx.dispatch({
        type: 'dialog-preview',
        entryId,
        preview: { ok: false, reason: (error as Error)?.message ?? String(error) },
      }),
  );
}

/** `u` in the tree: what restoring the files to the selected entry would change, then y/n. */
export function askRestore(ctx: FilesKeyContext, entryId: string): void {
  const refused = ctx.session.restoreRefusal(entryId);
  if (refused) return flashRefusal(ctx, refused);
  openFilesDialog(ctx, 'restore', entryId);
}

/** y in the restore prompt: restores once the preview is in and has something to change. */
export function confirmRestore(ctx: FilesKeyContext): void {
  const { dialog } = ctx;
  if (!dialog || dialog.kind !== 'restore') return;
  if (!dialog.preview) return flash(ctx, 'info', 'still looking at what would change: press y again in a moment');
  ctx.dispatch({ type: 'dialog', dialog: null });
  if (!dialog.preview.ok || planSize(dialog.preview.plan) === 0) return;
  runRestore(ctx, dialog.entryId);
}

/** c or f in the check-out prompt: check out, and with f restore the files too. */
export function answerCheckout(
  ctx: FilesKeyContext,
  withFiles: boolean,
  checkoutEntry: (entryId: string) => boolean,
): void {
  const { dialog } = ctx;
  if (!dialog || dialog.kind !== 'checkout') return;
  if (withFiles && !dialog.preview)
    return flash(ctx, 'info', 'still looking at what would change: press f again in a moment');
  ctx.dispatch({ type: 'dialog', dialog: null });
  if (!checkoutEntry(dialog.entryId)) return;
  // Checked out first: the restore's entries start the new branch from there.
  if (withFiles && dialog.preview?.ok && planSize(dialog.preview.plan) > 0) runRestore(ctx, dialog.entryId);
}

function runRestore(ctx: FilesKeyContext, entryId: string): void {
  void ctx.turns
    .runTask('restoring files', (signal, emit) => ctx.session.restore(entryId, emit, signal))
    .then((outcome) => {
      if (outcome === null) flash(ctx, 'warn', 'a turn is running: restore files when it ends');
      else if (outcome.ok)
        flash(ctx, 'info', `files restored to ${entryId} (undo: u on the restore entry, ${outcome.undoEntryId})`);
      else if (outcome.reason === 'partly-restored')
        flash(
          ctx,
          'error',
          `the restore failed part way (the transcript names the files restored and not): u on ${outcome.undoEntryId} puts them all back`,
        );
      else flashRefusal(ctx, outcome);
    })
    .catch((error: unknown) =>
      flash(ctx, 'error', `files not restored: ${(error as Error)?.message ?? String(error)}`),
    );
}
