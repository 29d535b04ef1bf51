/**
 * A restore that fails before it writes any file says so: nothing was written, the files are as
 * they were (and there is no restore to undo). Here its first step, removing a file the turn made
 * in a folder that is then made immutable (read-only when not root), fails with EPERM: node's
 * rmSync went on to list the file as a folder, so the restore said "failed part way: ENOTDIR: not
 * a directory, scandir". The session's result, the commands' refusal and what the workspace holds
 * all agree.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removalFailure } from '../../../src/core/checkpoints/remove-in-workspace';
import { SessionCommands } from '../../../src/core/session/session-commands';
import { entriesOfType } from '../../support/agent-fixtures';
import { afterTheTest } from '../../support/after-the-test';
import { writeFileReply } from '../../support/checkpoint-reads';
import { scriptedAgentPerTest } from '../../support/scripted-agent';
import { asRoot, canMakeUnwritable, setWritable } from '../../support/unwritable-folder';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'done' } }, dirsPrefix: 'tole-restore-none-' });

describe('a restore that fails before it writes any file', () => {
  it.runIf(canMakeUnwritable())('says nothing was written and why, and leaves every file as it was', async () => {
    const at = (name: string): string => join(scripted.dirs.root, name);
    mkdirSync(at('ro'));
    writeFileSync(at('a.txt'), 'a before\n');
    const built = scripted.agent({ policy: { yes: true }, checkpointHome: scripted.dirs.home });
    afterTheTest(() => built.store.close());
    const { agent, store } = built;
    scripted.server.push(writeFileReply('call_w', 'ro/w.txt', 'written\n'));
    expect((await agent.runTurn('write ro/w.txt', new AbortController().signal, () => {})).outcome).toBe('done');
    writeFileSync(at('a.txt'), 'a by hand\n');
    const [prompt] = entriesOfType(store, 'user');
    const commands = new SessionCommands(store, agent, () => false);

    setWritable(at('ro'), false);
    const outcome = await commands.restore(prompt!.id, () => {}).finally(() => setWritable(at('ro'), true));

    const code = asRoot ? 'EPERM' : 'EACCES';
    expect(outcome).toMatchObject({ ok: false, reason: 'not-restored' });
    const said = outcome.ok ? '' : outcome.message;
    expect(said).toMatch(
      new RegExp(
        `^files not restored: the restore failed before it wrote any file: nothing was written, the files are as they were: ro/w\\.txt could not be removed: permission denied \\(${code}\\): .*chattr -i`,
      ),
    );
    expect(said).not.toMatch(/part way|ENOTDIR|scandir/);
    const [result] = entriesOfType(store, 'restore_result');
    expect(result!.payload).toMatchObject({ outcome: 'error', added: 0, changed: 0, removed: 0 });
    expect(`files not restored: ${result!.payload.content}`).toBe(said);
    expect(readFileSync(at('ro/w.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('a by hand\n');

    // Made writable again, the same restore goes through.
    expect(await commands.restore(prompt!.id, () => {})).toMatchObject({ ok: true });
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('a before\n');
  });
});

describe('a file a restore cannot remove', () => {
  it('is named with what happened and what to do', () => {
    expect(removalFailure('d/f', 'EPERM', 'EPERM: operation not permitted')).toMatch(
      /^d\/f could not be removed: permission denied \(EPERM\): .*make them writable/,
    );
    expect(removalFailure('d/f', 'EISDIR', 'EISDIR')).toMatch(/it is a folder now.*move it out of the way/);
    expect(removalFailure('d/f', 'EIO', 'EIO: i/o error, unlink')).toBe(
      'd/f could not be removed: EIO: i/o error, unlink',
    );
  });
});
