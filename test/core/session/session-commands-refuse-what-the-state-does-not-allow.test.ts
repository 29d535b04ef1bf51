import { afterEach, describe, expect, it } from 'vitest';
import type { RestoreOutcome } from '../../../src/core/session/restore-files';
import { AppendBatch, currentHead } from '../../../src/core/session/cursor';
import { labelOf } from '../../../src/core/session/labels';
import { type CommandAgent, SessionCommands } from '../../../src/core/session/session-commands';
import { sessionName } from '../../../src/core/session/session-name';
import type { SessionStore } from '../../../src/core/storage/session-store';
import { faultyOps } from '../../support/fault-ops';
import { createStore, openStore, tempDir } from '../../support/storage-fixtures';

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

/** A store with two prompts on one branch; returns their ids. */
function twoPrompts(store: SessionStore): [string, string] {
  const ids: string[] = [];
  for (const text of ['first', 'second']) {
    const batch = new AppendBatch(store);
    ids.push(batch.entry('user', { text }));
    store.commit(batch.build());
  }
  return [ids[0]!, ids[1]!];
}

function session(options: { ops?: ReturnType<typeof faultyOps> } = {}) {
  const dir = tempDir('tole-commands-');
  dirs.push(dir);
  const store = createStore(dir.path, options.ops);
  const [first, second] = twoPrompts(store);
  let running = false;
  const restores: string[] = [];
  const agent: CommandAgent = {
    hasCheckpointFor: (entryId) => entryId === first,
    restoreFiles: async (entryId): Promise<RestoreOutcome> => {
      restores.push(entryId);
      return { ok: false, reason: 'the test agent restores nothing' };
    },
  };
  const commands = new SessionCommands(store, agent, () => running);
  return {
    store,
    dir,
    first,
    second,
    commands,
    restores,
    setRunning: (value: boolean) => {
      running = value;
    },
  };
}

describe('session commands', () => {
  it('check out moves the head, and says whether the next prompt starts a branch', () => {
    const s = session();
    const done = s.commands.checkout(s.first);
    expect(done).toEqual({ ok: true, entryId: s.first, leaf: false });
    expect(currentHead(s.store).entryId).toBe(s.first);
    expect(s.commands.checkout(s.second)).toEqual({ ok: true, entryId: s.second, leaf: true });
  });

  it('refuses to check out while a turn runs, and writes nothing', () => {
    const s = session();
    s.setRunning(true);
    const seq = s.store.lastSeq;
    const refused = s.commands.checkout(s.first);
    expect(refused).toMatchObject({ ok: false, reason: 'turn-running' });
    expect(refused.ok ? '' : refused.message).toMatch(/Esc to stop it/);
    expect(s.store.lastSeq).toBe(seq);
    expect(currentHead(s.store).entryId).toBe(s.second);
  });

  it('refuses an entry that is not in the session, and the entry already checked out', () => {
    const s = session();
    expect(s.commands.checkout('e-nope')).toMatchObject({ ok: false, reason: 'no-entry' });
    expect(s.commands.checkout(s.second)).toMatchObject({ ok: false, reason: 'already-checked-out' });
    expect(s.commands.label('e-nope', 'x')).toMatchObject({ ok: false, reason: 'no-entry' });
    expect(s.commands.label(null, 'x')).toMatchObject({ ok: false, reason: 'no-entry' });
  });

  it('an edited prompt branches beside its entry, unless a turn runs', () => {
    const s = session();
    s.setRunning(true);
    const refused = s.commands.branchBeside(s.second, s.first);
    expect(refused).toMatchObject({ ok: false, reason: 'turn-running' });
    expect(refused.ok ? '' : refused.message).toContain('it stays in the editor');
    s.setRunning(false);
    expect(s.commands.branchBeside(s.second, s.first)).toMatchObject({ ok: true });
    expect(currentHead(s.store).entryId).toBe(s.first);
    // The first prompt's parent is the root: the edit starts a new tree from nothing.
    expect(s.commands.branchBeside(s.first, null)).toMatchObject({ ok: true });
    expect(currentHead(s.store).entryId).toBeNull();
  });

  it('a read-only session refuses every write, and nothing is written', () => {
    const s = session();
    s.store.close();
    const store = openStore(s.store.path, { readOnly: true });
    const commands = new SessionCommands(store, {}, () => false);
    expect(commands.checkout(s.first)).toMatchObject({ ok: false, reason: 'read-only' });
    expect(commands.label(s.first, 'x')).toMatchObject({ ok: false, reason: 'read-only' });
    expect(commands.name('x')).toMatchObject({ ok: false, reason: 'read-only' });
    expect(commands.branchBeside(s.second, s.first)).toMatchObject({ ok: false, reason: 'read-only' });
    expect(commands.restoreRefusal(s.first)).toMatchObject({ ok: false, reason: 'read-only' });
    store.close();
  });

  it('labels and names are set, removed, and say whether there was one', () => {
    const s = session();
    expect(s.commands.label(s.first, '  keep   this ')).toEqual({ ok: true, label: 'keep this', had: false });
    expect(labelOf(s.store, s.first)).toBe('keep this');
    expect(s.commands.label(s.first, '')).toEqual({ ok: true, label: null, had: true });
    expect(s.commands.name('the plan')).toEqual({ ok: true, name: 'the plan', had: false });
    expect(sessionName(s.store)).toBe('the plan');
    expect(s.commands.name('')).toEqual({ ok: true, name: null, had: true });
  });

  it('a commit storage refuses comes back as not-committed, with the reason, not as a throw', () => {
    const ops = faultyOps();
    const s = session({ ops });
    ops.failFdatasync = true;
    const refused = s.commands.checkout(s.first);
    expect(refused).toMatchObject({ ok: false, reason: 'not-committed' });
    expect(refused.ok ? '' : refused.message).toMatch(new RegExp(`^could not check out ${s.first}: `));
  });

  it('restore refuses a missing entry, an entry no checkpoint holds, and a host without checkpoints', async () => {
    const s = session();
    expect(await s.commands.restore('e-nope', () => {})).toMatchObject({ ok: false, reason: 'no-entry' });
    expect(await s.commands.restore(s.second, () => {})).toMatchObject({ ok: false, reason: 'no-checkpoint' });
    expect(s.restores).toEqual([]);
    // One the checkpoints hold goes to the agent, and its failure is said in its words.
    const failed = await s.commands.restore(s.first, () => {});
    expect(failed).toEqual({
      ok: false,
      reason: 'not-restored',
      message: 'files not restored: the test agent restores nothing',
    });
    expect(s.restores).toEqual([s.first]);
    const bare = new SessionCommands(s.store, {}, () => false);
    expect(await bare.restore(s.first, () => {})).toMatchObject({ ok: false, reason: 'no-checkpoints' });
    expect(bare.restoreRefusal(s.first)).toMatchObject({ ok: false, reason: 'no-checkpoints' });
  });

  it('asking to restore while a turn runs is refused before any preview', () => {
    const s = session();
    s.setRunning(true);
    expect(s.commands.restoreRefusal(s.first)).toMatchObject({ ok: false, reason: 'turn-running' });
    s.setRunning(false);
    expect(s.commands.restoreRefusal(s.first)).toBeNull();
  });

  it('asking again starts at the prompt, and is refused during a turn, for a missing entry and a blocked prompt', () => {
    const s = session();
    expect(s.commands.retryFrom(s.second)).toEqual({ ok: true, from: s.second });
    expect(s.commands.retryFrom(null)).toMatchObject({ ok: false, reason: 'nothing-to-retry' });
    expect(s.commands.retryFrom('e-nope')).toMatchObject({ ok: false, reason: 'no-entry' });
    const batch = new AppendBatch(s.store);
    const blocked = batch.entry('user', { text: 'not sent', blocked: 'a hook said no' });
    s.store.commit(batch.build());
    expect(s.commands.retryFrom(blocked)).toMatchObject({ ok: false, reason: 'nothing-to-retry' });
    s.setRunning(true);
    expect(s.commands.retryFrom(s.second)).toMatchObject({ ok: false, reason: 'turn-running' });
  });
});
