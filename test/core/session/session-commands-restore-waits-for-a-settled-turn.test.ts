/**
 * A restore is refused while a call a stop cut short waits to be settled: settling it may run the
 * call again (a write is idempotent) and undo part of the restore. A restore cut short does not
 * count (it is finished by running it again). The preview asks nothing of a writer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RestorePlan } from '../../../src/core/checkpoints/checkpoint-store';
import { NS } from '../../../src/core/registers/namespaces';
import { AppendBatch } from '../../../src/core/session/cursor';
import type { RestoreOutcome, RestorePreview } from '../../../src/core/session/restore-files';
import { type CommandAgent, SessionCommands } from '../../../src/core/session/session-commands';
import type { PendingIntent } from '../../../src/core/session/tool-step';
import type { SessionStore } from '../../../src/core/storage/session-store';
import { createStore, openStore, tempDir } from '../../support/storage-fixtures';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const PLAN: RestorePlan = {
  checkpoint: 'c'.repeat(40),
  added: ['a.txt'],
  changed: [],
  removed: [],
  leftOut: [],
  bytes: { added: [Buffer.from('a.txt')], changed: [], removed: [] },
};

function session() {
  const dir = tempDir('tole-commands-restore-');
  dirs.push(dir);
  const store = createStore(dir.path);
  const batch = new AppendBatch(store);
  const prompt = batch.entry('user', { text: 'write a file' });
  store.commit(batch.build());
  const restores: string[] = [];
  const agent: CommandAgent = {
    hasCheckpointFor: () => true,
    previewRestore: async (entryId): Promise<RestorePreview> => ({
      ok: true,
      target: { entryId, heldBy: entryId, checkpoint: 'c'.repeat(40), uncheckpointed: 0 },
      plan: PLAN,
    }),
    restoreFiles: async (entryId): Promise<RestoreOutcome> => {
      restores.push(entryId);
      return { ok: true, plan: PLAN, entryId, undoEntryId: 'e-undo' };
    },
  };
  return { store, prompt, restores, commands: new SessionCommands(store, agent, () => false) };
}

/** Commits an intent of `tool` with its pending register, as a turn does before the effect. */
function pendingIntent(store: SessionStore, callId: string, kind?: 'restore'): void {
  const batch = new AppendBatch(store);
  const entryId = batch.entry('tool_intent', {
    callId,
    tool: 'write_file',
    input: { path: 'a.txt', content: 'x' },
    subject: 'a.txt',
    risk: 'Write',
    reason: 'writes a file',
    replay: 'idempotent',
    approval: { approved: true, by: 'yes' },
  });
  batch.register(NS.pending, callId, {
    entryId,
    callId,
    tool: kind ?? 'write_file',
    approved: true,
    ...(kind ? { kind } : {}),
  } satisfies PendingIntent);
  store.commit(batch.build());
}

describe('restoring files after a stop', () => {
  it('is refused while a call the stop cut short is not settled, and the agent is not asked', async () => {
    const s = session();
    pendingIntent(s.store, 'w1');
    const asked = s.commands.restoreRefusal(s.prompt);
    expect(asked).toMatchObject({ ok: false, reason: 'turn-unsettled' });
    expect(asked?.message).toMatch(/1 call\(s\) not settled yet: open the session in tole/);
    expect(await s.commands.restore(s.prompt, () => {})).toMatchObject({ ok: false, reason: 'turn-unsettled' });
    expect(s.restores).toEqual([]);
  });

  it('goes ahead when only a restore was cut short (the restore finishes it first)', async () => {
    const s = session();
    pendingIntent(s.store, 'restore_9', 'restore');
    expect(s.commands.restoreRefusal(s.prompt)).toBeNull();
    expect(await s.commands.restore(s.prompt, () => {})).toMatchObject({ ok: true, undoEntryId: 'e-undo' });
    expect(s.restores).toEqual([s.prompt]);
  });

  it('a preview is given read-only, and refuses an entry not in the session', async () => {
    const s = session();
    s.store.close();
    const store = openStore(s.store.path, { readOnly: true });
    const agent: CommandAgent = {
      previewRestore: async (entryId) => ({
        ok: true,
        target: { entryId, heldBy: entryId, checkpoint: 'c', uncheckpointed: 0 },
        plan: PLAN,
      }),
    };
    const commands = new SessionCommands(store, agent, () => false);
    expect(await commands.previewRestore(s.prompt)).toMatchObject({ ok: true, plan: PLAN });
    expect(await commands.previewRestore('e-nope')).toMatchObject({ ok: false, reason: 'no-entry' });
    expect(await new SessionCommands(store, {}, () => false).previewRestore(s.prompt)).toMatchObject({
      ok: false,
      reason: 'no-checkpoints',
    });
    store.close();
  });

  it("a preview that fails is refused in the preview's own words", async () => {
    const s = session();
    const agent: CommandAgent = { previewRestore: async () => ({ ok: false, reason: 'checkpoints are off: no git' }) };
    const refused = await new SessionCommands(s.store, agent, () => false).previewRestore(s.prompt);
    expect(refused).toEqual({ ok: false, reason: 'not-restored', message: 'checkpoints are off: no git' });
  });
});
