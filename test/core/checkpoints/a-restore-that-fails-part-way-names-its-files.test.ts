/**
 * A restore that fails once it writes files says which files it restored and which not (read
 * again from the workspace, not guessed), and the one action that puts every file back as it was
 * before it: restoring to its own entry, whose checkpoint holds them. The result committed to the
 * session says it, and the session commands hand the entry to the host. The write fails for real:
 * a folder the restore cannot write into (made immutable as root, read-only otherwise); and a
 * restore whose git ran past the time limit says what cannot be known.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { SessionCommands } from '../../../src/core/session/session-commands';
import { entriesOfType } from '../../support/agent-fixtures';
import { afterTheTest } from '../../support/after-the-test';
import { writeFileReply } from '../../support/checkpoint-reads';
import { hangingGit, testTimer } from '../../support/hanging-git';
import { scriptedAgentPerTest } from '../../support/scripted-agent';
import { canMakeUnwritable, setWritable } from '../../support/unwritable-folder';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'done' } }, dirsPrefix: 'tole-restore-part-' });

/**
 * A session whose turn wrote w.txt (checkpointed before it, with a.txt, ro/f.txt and z.txt), then
 * a.txt, ro/f.txt and z.txt changed by hand: a restore to the prompt overwrites three and removes w.txt.
 */
async function restorable(checkpoints?: Checkpoints) {
  const at = (name: string): string => join(scripted.dirs.root, name);
  mkdirSync(at('ro'));
  for (const name of ['a.txt', 'ro/f.txt', 'z.txt']) writeFileSync(at(name), `${name} before\n`);
  const built = scripted.agent({
    policy: { yes: true },
    ...(checkpoints ? { deps: { checkpoints } } : { checkpointHome: scripted.dirs.home }),
  });
  afterTheTest(() => built.store.close());
  const { agent, store } = built;
  scripted.server.push(writeFileReply('call_w', 'w.txt', 'written\n'));
  expect((await agent.runTurn('write w', new AbortController().signal, () => {})).outcome).toBe('done');
  for (const name of ['a.txt', 'ro/f.txt', 'z.txt']) writeFileSync(at(name), `${name} by hand\n`);
  const [prompt] = entriesOfType(store, 'user');
  const files = (): Record<string, string> =>
    Object.fromEntries(['a.txt', 'ro/f.txt', 'z.txt', 'w.txt'].map((name) => [name, read(at(name))]));
  return { store, prompt: prompt!.id, commands: new SessionCommands(store, agent, () => false), files };
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '(none)';
  }
}

describe('a restore that fails part way', () => {
  it.runIf(canMakeUnwritable())(
    'names the files it restored and those it did not, and the entry that puts them all back',
    async () => {
      const { store, prompt, commands, files } = await restorable();
      const before = files();
      const ro = join(scripted.dirs.root, 'ro');
      setWritable(ro, false);
      // Writable again before the test's folders are removed, whatever happens.
      const outcome = await commands.restore(prompt, () => {}).finally(() => setWritable(ro, true));
      const [intent] = entriesOfType(store, 'restore');
      expect(outcome).toMatchObject({ ok: false, reason: 'partly-restored', undoEntryId: intent!.id });
      const [result] = entriesOfType(store, 'restore_result');
      expect(result!.payload.outcome).toBe('error');
      const said = result!.payload.content;
      expect(said).toBe(outcome.ok ? '' : outcome.message);
      expect(said).toMatch(/^the restore failed part way: git checkout failed \(exit \d+\): .*ro\/f\.txt/);
      expect(said).toContain('. Restored 3 of 4 (~ a.txt, ~ z.txt, - w.txt); not restored: ~ ro/f.txt; ');
      expect(said).toMatch(
        new RegExp(`to put every file back as it was before this restore, restore to its entry ${intent!.id}$`),
      );
      // What it says is what the workspace holds.
      expect(files()).toEqual({
        'a.txt': 'a.txt before\n',
        'ro/f.txt': 'ro/f.txt by hand\n',
        'z.txt': 'z.txt before\n',
        'w.txt': '(none)',
      });

      // The one action it names puts every file back as it was before the restore.
      expect(await commands.restore(intent!.id, () => {})).toMatchObject({ ok: true });
      expect(files()).toEqual(before);
    },
  );

  it('stopped by its time limit says its files could not be read again, and the entry that puts them back', async () => {
    const git = hangingGit();
    const limit = testTimer();
    const { home, root } = scripted.dirs;
    const checkpoints = Checkpoints.create({ home, workspaceRoot: root, gitBinary: git.binary, timer: limit.timer });
    afterTheTest(() => checkpoints.close());
    const { store, prompt, commands, files } = await restorable(checkpoints);
    const before = files();
    git.hangAt('checkout');
    const restoring = commands.restore(prompt, () => {});
    await git.hanging();
    limit.expire();
    const outcome = await restoring;
    const [intent] = entriesOfType(store, 'restore');
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'partly-restored',
      undoEntryId: intent!.id,
      message: expect.stringMatching(
        new RegExp(
          `^the restore failed part way: git checkout was stopped: it ran past the checkpoint time limit .*\\. Which of its files were written could not be read again: restore again to finish it, or to put every file back as it was before this restore, restore to its entry ${intent!.id} \\(its checkpoint holds them all\\)$`,
        ),
      ),
    });

    git.release();
    expect(await commands.restore(intent!.id, () => {})).toMatchObject({ ok: true });
    expect(files()).toEqual(before);
  });
});
