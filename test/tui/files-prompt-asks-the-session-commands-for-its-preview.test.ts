/**
 * The files prompt (`u` in the tree, and Enter's check-out prompt) asks the session's commands
 * for what a restore would change, as `tole restore` does, never the agent: a refusal from them
 * is shown in the prompt in their words, and a restore they refuse up front opens no prompt.
 */
import { describe, expect, it } from 'vitest';
import type { RestorePlan } from '../../src/core/checkpoints/restore-plan';
import type { Refusal } from '../../src/core/session/session-commands';
import type { RestorePreview } from '../../src/core/session/restore-files';
import { askRestore, type FilesKeyContext, openFilesDialog } from '../../src/tui/dialogs/files-dialog-keys';
import { filesDialogLines } from '../../src/tui/dialogs/files-dialog-lines';
import type { UiAction } from '../../src/tui/screen/ui-state';

const PLAN: RestorePlan = {
  checkpoint: 'c'.repeat(40),
  added: [],
  changed: ['a.txt'],
  removed: ['b.txt'],
  leftOut: [],
  bytes: { added: [], changed: [Buffer.from('a.txt')], removed: [Buffer.from('b.txt')] },
};

const PREVIEW: Extract<RestorePreview, { ok: true }> = {
  ok: true,
  target: { entryId: 'e1', heldBy: 'e2', checkpoint: PLAN.checkpoint, uncheckpointed: 0 },
  plan: PLAN,
};

/** A files context whose session answers as told and records what it was asked; it has no agent to reach. */
function context(answers: {
  preview?: Awaited<ReturnType<FilesKeyContext['session']['previewRestore']>>;
  refusal?: Refusal;
}) {
  const actions: UiAction[] = [];
  const asked: string[] = [];
  let settle: () => void = () => {};
  const previewed = new Promise<void>((resolve) => (settle = resolve));
  const ctx: FilesKeyContext = {
    dialog: null,
    dispatch: (action) => {
      actions.push(action);
      if (action.type === 'dialog-preview') settle();
    },
    session: {
      restoreRefusal: () => answers.refusal ?? null,
      previewRestore: async (entryId) => {
        asked.push(entryId);
        return answers.preview ?? PREVIEW;
      },
      restore: async () => {
        throw new Error('the prompt only previews');
      },
    },
    turns: {
      runTask: async () => {
        throw new Error('the prompt only previews');
      },
    },
  };
  return { ctx, actions, asked, previewed };
}

describe("the files prompt's preview comes from the session's commands", () => {
  it('u opens the prompt, then shows the plan the commands gave for that entry', async () => {
    const { ctx, actions, asked, previewed } = context({});
    askRestore(ctx, 'e1');
    await previewed;
    expect(asked).toEqual(['e1']);
    expect(actions).toEqual([
      { type: 'dialog', dialog: { kind: 'restore', entryId: 'e1', preview: null } },
      { type: 'dialog-preview', entryId: 'e1', preview: PREVIEW },
    ]);
  });

  it("the check-out prompt shows the commands' refusal in their words", async () => {
    const refusal: Refusal = { ok: false, reason: 'not-restored', message: 'checkpoints are off: git is missing' };
    const { ctx, actions, previewed } = context({ preview: refusal });
    openFilesDialog(ctx, 'checkout', 'e1');
    await previewed;
    expect(actions.at(-1)).toEqual({
      type: 'dialog-preview',
      entryId: 'e1',
      preview: { ok: false, reason: 'checkpoints are off: git is missing' },
    });
  });

  it('a restore the commands refuse up front opens no prompt and asks for no preview', () => {
    const refusal: Refusal = {
      ok: false,
      reason: 'turn-running',
      message: 'a turn is running: restore files when it ends',
    };
    const { ctx, actions, asked } = context({ refusal });
    askRestore(ctx, 'e1');
    expect(asked).toEqual([]);
    expect(actions).toEqual([
      { type: 'flash', flash: { level: expect.any(String), text: 'a turn is running: restore files when it ends' } },
    ]);
  });
});

describe('the restore prompt says what it cannot bring back', () => {
  const text = (width: number, uncheckpointed: number) =>
    filesDialogLines(
      { kind: 'restore', entryId: 'e1', preview: { ...PREVIEW, target: { ...PREVIEW.target, uncheckpointed } } },
      width,
    )
      .map((line) => line.map((s) => s.text).join(''))
      .join('\n');

  it('warns, under its title, when calls after the entry ran without a checkpoint', () => {
    const shown = text(200, 2);
    expect(shown.split('\n')[1]).toBe(
      '! 2 calls after e1 ran without a checkpoint: their file changes cannot be undone, so the files would be restored to how they were after them, at e2',
    );
    // Wrapped whole at 80 columns: every word is still there.
    expect(text(80, 2).replace(/\s+/g, ' ')).toContain(
      'the files would be restored to how they were after them, at e2',
    );
  });

  it('says nothing more when every call after the entry had its checkpoint', () => {
    expect(text(200, 0)).not.toContain('without a checkpoint');
  });
});
