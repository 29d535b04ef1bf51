/**
 * A git that hangs cannot hold a checkpoint, nor the turn waiting on it: when the checkpoint's
 * time limit passes, or the user presses Esc, its gits are killed with their process groups (a
 * wrapper's child included), the checkpoint fails or says it was interrupted, and the next
 * checkpoint works (a killed pipe is started again). The git here is a real wrapper first on the
 * path that hangs at one step while a flag file exists; the time limit is a timer the test fires
 * once the wrapper says it hangs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import type { StartTimer } from '../../../src/core/checkpoints/git-stop';
import { NS } from '../../../src/core/registers/namespaces';
import { RESTORE_INTERRUPTED, uncheckpointedWarning } from '../../../src/core/session/restore-files';
import { SessionCommands } from '../../../src/core/session/session-commands';
import { entriesOfType, resultsFor } from '../../support/agent-fixtures';
import { afterTheTest } from '../../support/after-the-test';
import { fileInCheckpoint, writeFileReply } from '../../support/checkpoint-reads';
import { scriptedAgentPerTest } from '../../support/scripted-agent';
import { type HangingGit, hangingGit, testTimer } from '../../support/hanging-git';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'done' } }, dirsPrefix: 'tole-git-hang-' });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/^\S+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

async function killed(pids: { git: number; child: number }): Promise<void> {
  await vi.waitFor(() => expect([alive(pids.git), alive(pids.child)]).toEqual([false, false]), { timeout: 10_000 });
}

function checkpointsWith(git: HangingGit, timer: StartTimer): Checkpoints {
  const { home, root } = scripted.dirs;
  const made = Checkpoints.create({ home, workspaceRoot: root, gitBinary: git.binary, timer });
  afterTheTest(() => made.close());
  return made;
}

describe('a hanging git', () => {
  it("is killed with its group when the checkpoint's time limit passes; the checkpoint fails and the next one works", async () => {
    const git = hangingGit();
    const limit = testTimer();
    const checkpoints = checkpointsWith(git, limit.timer);
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'a\n');
    git.hangAt('update-index');
    const taking = checkpoints.take();
    const pids = await git.hanging();
    limit.expire();
    const failed = await taking;
    expect(failed).toMatchObject({
      ok: false,
      firstReport: true,
      reason: expect.stringMatching(/git update-index was stopped: it ran past the checkpoint time limit of 300 s/),
    });
    await killed(pids);

    git.release();
    const taken = await checkpoints.take();
    if (!taken.ok) throw new Error(taken.reason);
    expect(fileInCheckpoint(checkpoints.directory, taken.id, 'a.txt')).toBe('a\n');
  });

  it('is killed at once by Esc: the checkpoint says interrupted, and is not reported as checkpoints being off', async () => {
    const git = hangingGit();
    const checkpoints = checkpointsWith(git, testTimer().timer);
    git.hangAt('status');
    const esc = new AbortController();
    const taking = checkpoints.take('scan', esc.signal);
    const pids = await git.hanging();
    esc.abort();
    expect(await taking).toEqual({ ok: false, reason: 'interrupted by the user', interrupted: true });
    await killed(pids);

    // The first real failure is still the first report.
    git.hangAt('status');
    const limit = testTimer();
    const later = checkpointsWith(git, limit.timer);
    const failing = later.take();
    await git.hanging();
    limit.expire();
    expect(await failing).toMatchObject({ ok: false, firstReport: true });
  });

  it('behind another checkpoint is left at once by Esc, while that one runs on to its own limit', async () => {
    const git = hangingGit();
    const limit = testTimer();
    const checkpoints = checkpointsWith(git, limit.timer);
    git.hangAt('status');
    let firstSettled = false;
    const first = checkpoints.take().finally(() => {
      firstSettled = true;
    });
    const esc = new AbortController();
    const second = checkpoints.take('scan', esc.signal);
    const pids = await git.hanging();
    esc.abort();
    expect(await second).toMatchObject({ ok: false, interrupted: true });
    expect(firstSettled).toBe(false);
    limit.expire();
    expect(await first).toMatchObject({ ok: false, reason: expect.stringMatching(/time limit/) });
    await killed(pids);
  });

  it('in a pipe of the known-path checkpoints is killed and the pipe started again', async () => {
    const git = hangingGit();
    const limit = testTimer();
    const checkpoints = checkpointsWith(git, limit.timer);
    const at = (name: string): string => join(scripted.dirs.root, name);
    writeFileSync(at('a.txt'), 'a\n');
    expect((await checkpoints.take()).ok).toBe(true);

    writeFileSync(at('b.txt'), 'b\n');
    checkpoints.noteChanges(['b.txt']);
    git.hangAt('check-ignore');
    const taking = checkpoints.take('known-paths');
    const pids = await git.hanging();
    limit.expire();
    // The limit stops every git of the checkpoint: the hanging check-ignore, and a cat-file that
    // may still be running beside it, whichever failure is told first. The hanging git's death is
    // checked by its pids, its pipe's new start by the checkpoints below.
    expect(await taking).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/git [a-z-]+ was stopped: it ran past the checkpoint time limit/),
    });
    await killed(pids);

    git.release();
    expect((await checkpoints.take()).ok).toBe(true);
    // A known-path checkpoint reads only the named path: c.txt, not d.txt changed behind tole's back.
    writeFileSync(at('c.txt'), 'c\n');
    writeFileSync(at('d.txt'), 'd\n');
    checkpoints.noteChanges(['c.txt']);
    const known = await checkpoints.take('known-paths');
    if (!known.ok) throw new Error(known.reason);
    expect(fileInCheckpoint(checkpoints.directory, known.id, 'c.txt')).toBe('c\n');
    expect(fileInCheckpoint(checkpoints.directory, known.id, 'd.txt')).toBe('');
  });
});

describe('a turn whose checkpoint hangs', () => {
  function agentOver(git: HangingGit, timer: StartTimer) {
    const built = scripted.agent({ policy: { yes: true }, deps: { checkpoints: checkpointsWith(git, timer) } });
    afterTheTest(() => built.store.close());
    return built;
  }

  it('ends at Esc without running the call', async () => {
    const git = hangingGit();
    const { agent, store } = agentOver(git, testTimer().timer);
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'a\n');
    git.hangAt('update-index');
    scripted.server.push(writeFileReply('call_w', 'w.txt', 'written\n'));
    const esc = new AbortController();
    const turn = agent.runTurn('write w', esc.signal, () => {});
    const pids = await git.hanging();
    esc.abort();
    await turn;
    await killed(pids);
    expect(existsSync(join(scripted.dirs.root, 'w.txt'))).toBe(false);
    expect(resultsFor(store, 'call_w').map((r) => r.payload.outcome)).toEqual(['interrupted']);
    expect(entriesOfType(store, 'tool_intent')).toEqual([]);
  });

  it('past its time limit runs the call with no checkpoint named, and says why', async () => {
    const git = hangingGit();
    const limit = testTimer();
    const { agent, store } = agentOver(git, limit.timer);
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'a\n');
    git.hangAt('update-index');
    scripted.server.push(writeFileReply('call_w', 'w.txt', 'written\n'));
    const turn = agent.runTurn('write w', new AbortController().signal, () => {});
    await git.hanging();
    limit.expire();
    expect((await turn).outcome).toBe('done');
    expect(readFileSync(join(scripted.dirs.root, 'w.txt'), 'utf8')).toBe('written\n');
    const [intent] = entriesOfType(store, 'tool_intent');
    expect(intent!.payload.checkpoint).toBeUndefined();
    const notices = entriesOfType(store, 'notice').map((n) => n.payload.text);
    expect(notices).toEqual([expect.stringMatching(/^checkpoints are off: .*ran past the checkpoint time limit/)]);
  });
});

describe('checkpoints that fail in a row', () => {
  it('are each told on their call, the first in full; the checkpoint after them says they are on again', async () => {
    const git = hangingGit();
    const limit = testTimer();
    const checkpoints = checkpointsWith(git, limit.timer);
    const built = scripted.agent({ policy: { yes: true }, deps: { checkpoints } });
    afterTheTest(() => built.store.close());
    const { agent, store } = built;
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'a\n');
    for (const n of [1, 2, 3, 4]) scripted.server.push(writeFileReply(`call_${n}`, `w${n}.txt`, `${n}\n`));
    git.hangAt('update-index');
    const turn = agent.runTurn('write four files', new AbortController().signal, () => {});
    for (const _ of [1, 2, 3]) {
      await git.hanging();
      limit.expire();
    }
    git.release();
    expect((await turn).outcome).toBe('done');

    const intents = entriesOfType(store, 'tool_intent');
    expect(intents.map((i) => i.payload.checkpoint === undefined)).toEqual([true, true, true, false]);
    const notices = entriesOfType(store, 'notice').map((n) => n.payload.text);
    expect(notices).toEqual([
      expect.stringMatching(
        /^checkpoints are off: .*ran past the checkpoint time limit.*until a checkpoint is taken again/,
      ),
      expect.stringMatching(/^no checkpoint for this call either \(2 calls in a row without one\): .*time limit/),
      expect.stringMatching(/^no checkpoint for this call either \(3 calls in a row without one\): .*time limit/),
      'checkpoints are on again: this call has one (3 calls before it ran without one, and cannot be restored).',
    ]);
    // Each notice is committed in the line of its own call's intent, before it.
    for (const [i, intent] of intents.entries()) {
      const notice = entriesOfType(store, 'notice')[i]!;
      expect(notice.seq).toBeLessThan(intent.seq);
      if (i > 0) expect(notice.seq).toBeGreaterThan(intents[i - 1]!.seq);
    }

    // A restore to the prompt cannot bring back what the three calls without a checkpoint wrote:
    // the first checkpoint after it is the fourth call's, and the preview says so.
    const [prompt] = entriesOfType(store, 'user');
    const preview = await new SessionCommands(store, agent, () => false).previewRestore(prompt!.id);
    expect(preview).toMatchObject({ ok: true, target: { heldBy: intents[3]!.id, uncheckpointed: 3 } });
    expect(preview.ok && uncheckpointedWarning(preview.target)).toBe(
      `3 calls after ${prompt!.id} ran without a checkpoint: their file changes cannot be undone, so the files would be restored to how they were after them, at ${intents[3]!.id}`,
    );
    // From the fourth call's own intent nothing ran without one.
    const fromFourth = await agent.previewRestore(intents[3]!.id);
    expect(fromFourth.ok && fromFourth.target.uncheckpointed).toBe(0);

    // The next failure is a new run of them: told in full again.
    expect(await checkpoints.take()).toMatchObject({ ok: true });
    git.hangAt('status');
    const failing = checkpoints.take();
    await git.hanging();
    limit.expire();
    expect(await failing).toMatchObject({ ok: false, firstReport: true, inARow: 1 });
  });
});

describe('a checkpoint that fails as Esc comes', () => {
  it('is not counted: the call does not run, and the next failure is told in full', async () => {
    const git = hangingGit();
    const limit = testTimer();
    const esc = new AbortController();
    let escaped = false;
    // Esc comes in the instant after the first checkpoint failed at its time limit, before its call would run.
    const built = scripted.agent({
      policy: { yes: true },
      deps: {
        checkpoints: checkpointsWith(git, limit.timer),
        fault: (point) => {
          if (point !== 'after-checkpoint' || escaped) return;
          escaped = true;
          esc.abort();
        },
      },
    });
    afterTheTest(() => built.store.close());
    const { agent, store } = built;
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'a\n');
    git.hangAt('update-index');
    scripted.server.push(writeFileReply('call_1', 'one.txt', '1\n'));
    const first = agent.runTurn('write one', esc.signal, () => {});
    await git.hanging();
    limit.expire();
    await first;
    expect(existsSync(join(scripted.dirs.root, 'one.txt'))).toBe(false);
    expect(resultsFor(store, 'call_1').map((r) => r.payload.outcome)).toEqual(['interrupted']);
    const told = () =>
      entriesOfType(store, 'notice')
        .filter((n) => n.payload.source === 'checkpoint')
        .map((n) => n.payload.text);
    expect(told()).toEqual([]);

    // The next call whose checkpoint fails is the first of a run: told in full, not "either (2 in a row)".
    scripted.server.push(writeFileReply('call_2', 'two.txt', '2\n'));
    const second = agent.runTurn('write two', new AbortController().signal, () => {});
    await git.hanging();
    limit.expire();
    expect((await second).outcome).toBe('done');
    expect(readFileSync(join(scripted.dirs.root, 'two.txt'), 'utf8')).toBe('2\n');
    expect(told()).toEqual([
      expect.stringMatching(
        /^checkpoints are off: .*ran past the checkpoint time limit.*until a checkpoint is taken again/,
      ),
    ]);
  });
});

describe('a restore, through the session commands', () => {
  /** A session whose turn wrote w.txt (checkpointed before), then w.txt changed by hand: a restore to the prompt removes it. */
  async function restorable(git: HangingGit, timer: StartTimer, fault?: (point: string) => void) {
    const checkpoints = checkpointsWith(git, timer);
    const built = scripted.agent({ policy: { yes: true }, deps: { checkpoints, ...(fault ? { fault } : {}) } });
    afterTheTest(() => built.store.close());
    const { agent, store } = built;
    writeFileSync(join(scripted.dirs.root, 'kept.txt'), 'kept\n');
    scripted.server.push(writeFileReply('call_w', 'w.txt', 'written\n'));
    expect((await agent.runTurn('write w', new AbortController().signal, () => {})).outcome).toBe('done');
    writeFileSync(join(scripted.dirs.root, 'kept.txt'), 'changed by hand\n');
    const [prompt] = entriesOfType(store, 'user');
    return { agent, store, prompt: prompt!.id, commands: new SessionCommands(store, agent, () => false), checkpoints };
  }

  it('is stopped by Esc while it checkpoints the files as they are now: nothing restored, the session says so', async () => {
    const git = hangingGit();
    const { store, prompt, commands, checkpoints } = await restorable(git, testTimer().timer);
    const seqBefore = store.lastSeq;
    // The checkpoint's ref, moved by a git that keeps running: ended here, it is started again there.
    checkpoints.close();
    git.hangAt('update-ref');
    const esc = new AbortController();
    const restoring = commands.restore(prompt, () => {}, esc.signal);
    const pids = await git.hanging();
    esc.abort();
    expect(await restoring).toEqual({
      ok: false,
      reason: 'not-restored',
      message: `files not restored: ${RESTORE_INTERRUPTED}`,
    });
    await killed(pids);
    expect(readFileSync(join(scripted.dirs.root, 'w.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(join(scripted.dirs.root, 'kept.txt'), 'utf8')).toBe('changed by hand\n');
    expect(entriesOfType(store, 'restore')).toEqual([]);
    const added = [...store.tree.all()].filter((entry) => entry.seq > seqBefore);
    expect(added.map((entry) => [entry.type, entry.type === 'notice' ? entry.payload.text : ''])).toEqual([
      ['notice', `restore of the files to ${prompt} ${RESTORE_INTERRUPTED}`],
    ]);
    expect(store.registers.entries(NS.pending)).toEqual([]);

    // The checkpoints work after it, and so does the restore.
    git.release();
    expect(await commands.restore(prompt, () => {})).toMatchObject({ ok: true });
    expect(existsSync(join(scripted.dirs.root, 'w.txt'))).toBe(false);
  });

  it("whose checkpoint fails is refused apart from the calls' run: the next call's failure is still told in full", async () => {
    const git = hangingGit();
    const limit = testTimer();
    const { agent, store, prompt, commands, checkpoints } = await restorable(git, limit.timer);
    checkpoints.close();
    git.hangAt('update-ref');
    const restoring = commands.restore(prompt, () => {});
    await git.hanging();
    limit.expire();
    expect(await restoring).toMatchObject({
      ok: false,
      message: expect.stringMatching(/could not be checkpointed first/),
    });

    scripted.server.push(writeFileReply('call_v', 'v.txt', 'v\n'));
    const turn = agent.runTurn('write v', new AbortController().signal, () => {});
    await git.hanging();
    limit.expire();
    expect((await turn).outcome).toBe('done');
    const notices = entriesOfType(store, 'notice').map((n) => n.payload.text);
    expect(notices).toEqual([expect.stringMatching(/^checkpoints are off: .*until a checkpoint is taken again/)]);
  });

  it('is stopped by Esc while it plans, before any checkpoint', async () => {
    const git = hangingGit();
    const { store, prompt, commands } = await restorable(git, testTimer().timer);
    git.hangAt('status');
    const esc = new AbortController();
    const restoring = commands.restore(prompt, () => {}, esc.signal);
    const pids = await git.hanging();
    esc.abort();
    expect(await restoring).toMatchObject({ ok: false, message: `files not restored: ${RESTORE_INTERRUPTED}` });
    await killed(pids);
    expect(readFileSync(join(scripted.dirs.root, 'w.txt'), 'utf8')).toBe('written\n');
    expect(entriesOfType(store, 'restore')).toEqual([]);
  });

  it('is stopped by Esc that comes as its checkpoint finishes, before the intent', async () => {
    const git = hangingGit();
    const esc = new AbortController();
    let restoring = false;
    const { store, prompt, commands } = await restorable(git, testTimer().timer, (point) => {
      if (restoring && point === 'after-checkpoint') esc.abort();
    });
    restoring = true;
    expect(await commands.restore(prompt, () => {}, esc.signal)).toMatchObject({
      ok: false,
      message: `files not restored: ${RESTORE_INTERRUPTED}`,
    });
    expect(readFileSync(join(scripted.dirs.root, 'w.txt'), 'utf8')).toBe('written\n');
    expect(entriesOfType(store, 'restore')).toEqual([]);
  });

  it('is left at once by Esc while its plan waits behind another checkpoint, which runs on to its own limit', async () => {
    const git = hangingGit();
    const limit = testTimer();
    const { store, prompt, commands, checkpoints } = await restorable(git, limit.timer);
    git.hangAt('status');
    let firstSettled = false;
    const first = checkpoints.take().finally(() => {
      firstSettled = true;
    });
    const pids = await git.hanging();
    const esc = new AbortController();
    const restoring = commands.restore(prompt, () => {}, esc.signal);
    esc.abort();
    expect(await restoring).toMatchObject({ ok: false, message: `files not restored: ${RESTORE_INTERRUPTED}` });
    expect(firstSettled).toBe(false);
    expect(entriesOfType(store, 'restore')).toEqual([]);
    limit.expire();
    expect(await first).toMatchObject({ ok: false, reason: expect.stringMatching(/time limit/) });
    await killed(pids);
    expect(readFileSync(join(scripted.dirs.root, 'w.txt'), 'utf8')).toBe('written\n');
  });

  it('refuses Esc once it writes files: it finishes whole, and a notice said so when Esc came', async () => {
    const git = hangingGit();
    const esc = new AbortController();
    const { store, prompt, commands } = await restorable(git, testTimer().timer, (point) => {
      if (point === 'during-restore') esc.abort();
    });
    const outcome = await commands.restore(prompt, () => {}, esc.signal);
    if (!outcome.ok) throw new Error(outcome.message);
    expect(existsSync(join(scripted.dirs.root, 'w.txt'))).toBe(false);
    expect(readFileSync(join(scripted.dirs.root, 'kept.txt'), 'utf8')).toBe('kept\n');
    const [intent] = entriesOfType(store, 'restore');
    const [result] = entriesOfType(store, 'restore_result');
    expect(result!.payload.outcome).toBe('ok');
    const refused = entriesOfType(store, 'notice').filter((n) =>
      /Esc came while the files were being written/.test(n.payload.text),
    );
    expect(refused.map((n) => n.payload.text)).toEqual([expect.stringContaining(`restore to its entry ${intent!.id}`)]);
    expect(refused[0]!.seq).toBeGreaterThan(intent!.seq);
    expect(refused[0]!.seq).toBeLessThan(result!.seq);
    expect(store.registers.entries(NS.pending)).toEqual([]);
  });
});
