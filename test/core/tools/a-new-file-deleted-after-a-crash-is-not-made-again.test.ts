/**
 * write_file of a path that did not exist: a tole killed after the effect and before its
 * settlement, whose new file the user then deletes, finds the path missing on resume, as before
 * the call. The guard must not call that "not done" (the resume would make the file again on the
 * approval given before the crash) unless it can prove the call never made it: its folder is the
 * same one, unchanged since the call was prepared, or the call's own temporary file still stands
 * beside the path (the rename never came).
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderAtRest } from '../../../src/core/tools/builtin/absent-path';
import { temporaryName } from '../../../src/core/tools/builtin/file-io';
import { writeFileTool } from '../../../src/core/tools/builtin/write-file';
import type { ToolContext } from '../../../src/core/tools/tool';
import { untilFolderAtRest } from '../../support/folder-at-rest';
import { tempWorkspace } from './temp-workspace';

const guard = (input: { path: string; content: string }, prepared: unknown, ctx: ToolContext) =>
  writeFileTool.guard?.(input, prepared, ctx);

/** Unknown, for whichever reason (the folder may have changed within one tick of the clock: not "changed since"). */
const UNKNOWN = { unknown: expect.stringContaining('write it again if so') };
/** Unknown because the folder, at rest when the call was prepared, changed since. */
const UNKNOWN_CHANGED = { unknown: expect.stringMatching(/changed since the call was prepared.*write it again if so/) };

describe('write_file of a new file: missing again on resume is "not done" only when the call surely never made it', () => {
  it('made, then deleted by the user: unknown, whatever the folder looked like before', async () => {
    const ws = await tempWorkspace();
    await untilFolderAtRest(ws.root);
    const input = { path: 'new.txt', content: 'from tole\n' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    expect(await guard(input, prepared, ws.ctx)).toBe(false);
    expect((await writeFileTool.execute(input, ws.ctx)).ok).toBe(true);
    expect(await guard(input, prepared, ws.ctx)).toBe(true);
    unlinkSync(path.join(ws.root, 'new.txt'));
    expect(await guard(input, prepared, ws.ctx)).toEqual(UNKNOWN_CHANGED);
  });

  it('made in a folder changed just before (no proof possible), then deleted: unknown', async () => {
    const ws = await tempWorkspace();
    const input = { path: 'new.txt', content: 'from tole\n' };
    writeFileSync(path.join(ws.root, 'sibling.txt'), 'just now');
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    await writeFileTool.execute(input, ws.ctx);
    unlinkSync(path.join(ws.root, 'new.txt'));
    expect(await guard(input, prepared, ws.ctx)).toEqual(UNKNOWN);
  });

  it('never made, the folder untouched since it came to rest: not done', async () => {
    const ws = await tempWorkspace();
    await untilFolderAtRest(ws.root);
    const input = { path: 'new.txt', content: 'from tole\n' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    expect(await guard(input, prepared, ws.ctx)).toBe(false);
  });

  it('never made, but the folder changed just before it was prepared: unknown, saying why', async () => {
    const ws = await tempWorkspace();
    writeFileSync(path.join(ws.root, 'sibling.txt'), 'just now');
    const input = { path: 'new.txt', content: 'from tole\n' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    const { changedNs, seenMs } = (prepared as { priorAbsence: { changedNs: string; seenMs: number } }).priorAbsence;
    // The margin is what decides: recorded within it, nothing proves a later change moved the time.
    expect(folderAtRest(BigInt(changedNs), seenMs)).toBe(false);
    expect(await guard(input, prepared, ws.ctx)).toEqual({ unknown: expect.stringContaining('too recently') });
  });

  it('never made, but something else changed the folder since: unknown (the safe side)', async () => {
    const ws = await tempWorkspace();
    await untilFolderAtRest(ws.root);
    const input = { path: 'new.txt', content: 'from tole\n' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    writeFileSync(path.join(ws.root, 'other.txt'), 'an editor');
    expect(await guard(input, prepared, ws.ctx)).toEqual(UNKNOWN_CHANGED);
  });

  it("made, deleted, and the folder's times set back to what they were (touch -d): still unknown, the change time moved", async () => {
    const ws = await tempWorkspace();
    await untilFolderAtRest(ws.root);
    const before = statSync(ws.root, { bigint: true }).mtimeNs;
    const input = { path: 'new.txt', content: 'from tole\n' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    await writeFileTool.execute(input, ws.ctx);
    unlinkSync(path.join(ws.root, 'new.txt'));
    const at = `@${before / 1_000_000_000n}.${String(before % 1_000_000_000n).padStart(9, '0')}`;
    execFileSync('touch', ['-a', '-m', '-d', at, ws.root]);
    expect(statSync(ws.root, { bigint: true }).mtimeNs).toBe(before);
    expect(await guard(input, prepared, ws.ctx)).toEqual(UNKNOWN_CHANGED);
  });

  it('made, then moved away within the folder or out of it: unknown', async () => {
    for (const to of ['renamed.txt', '../outside/new.txt']) {
      const ws = await tempWorkspace();
      await untilFolderAtRest(ws.root);
      const input = { path: 'new.txt', content: 'from tole\n' };
      const prepared = await writeFileTool.prepare?.(input, ws.ctx);
      await writeFileTool.execute(input, ws.ctx);
      renameSync(path.join(ws.root, 'new.txt'), path.join(ws.root, to));
      expect(await guard(input, prepared, ws.ctx), to).toEqual(UNKNOWN_CHANGED);
    }
  });

  it('killed after its temporary file was written and before the rename: not done, and running it again leaves no temporary file', async () => {
    const ws = await tempWorkspace();
    const input = { path: 'new.txt', content: 'from tole\n' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    // What writeFileDurably leaves when killed between writing its file and renaming it into place.
    writeFileSync(path.join(ws.root, temporaryName('new.txt', ws.ctx.callId)), 'from t');
    expect(await guard(input, prepared, ws.ctx)).toBe(false);
    // Another call's temporary file (another call id) proves nothing about this one.
    expect(await guard(input, prepared, { ...ws.ctx, callId: 'call-2' })).toEqual(UNKNOWN);
    expect((await writeFileTool.execute(input, ws.ctx)).ok).toBe(true);
    expect(readdirSync(ws.root)).toEqual(['new.txt']);
    // A directory by the temporary file's name is not tole's file: no proof.
    unlinkSync(path.join(ws.root, 'new.txt'));
    mkdirSync(path.join(ws.root, temporaryName('new.txt', ws.ctx.callId)));
    expect(await guard(input, prepared, ws.ctx)).toEqual(UNKNOWN);
  });

  it('into missing folders: not done while they are still missing and the folder above is untouched; unknown once a level exists', async () => {
    const ws = await tempWorkspace();
    await untilFolderAtRest(ws.root);
    const input = { path: 'deep/er/new.txt', content: 'x' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    expect(prepared).toMatchObject({ priorAbsence: { folder: '.' } });
    expect(await guard(input, prepared, ws.ctx)).toBe(false);
    // Killed after making a level (the user may also have deleted the file made below it).
    mkdirSync(path.join(ws.root, 'deep'));
    expect(await guard(input, prepared, ws.ctx)).toEqual(UNKNOWN_CHANGED);
    // Made whole, then the user removed the whole tree.
    await writeFileTool.execute(input, ws.ctx);
    rmSync(path.join(ws.root, 'deep'), { recursive: true });
    expect(await guard(input, prepared, ws.ctx)).toEqual(UNKNOWN_CHANGED);
  });

  it('the folder removed and made again, or the path now leading through a link to another folder at rest: unknown', async () => {
    const ws = await tempWorkspace();
    mkdirSync(path.join(ws.root, 'a'));
    mkdirSync(path.join(ws.root, 'b'));
    symlinkSync('a', path.join(ws.root, 'link'));
    for (const dir of ['a', 'b']) await untilFolderAtRest(path.join(ws.root, dir));
    const input = { path: 'link/new.txt', content: 'x' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    expect(await guard(input, prepared, ws.ctx)).toBe(false);
    await writeFileTool.execute(input, ws.ctx);
    expect(existsSync(path.join(ws.root, 'a/new.txt'))).toBe(true);
    // The user points the link at b, untouched all along: the path is missing there.
    unlinkSync(path.join(ws.root, 'link'));
    symlinkSync('b', path.join(ws.root, 'link'));
    expect(await guard(input, prepared, ws.ctx)).toEqual(UNKNOWN_CHANGED);

    // The folder itself deleted and made again (empty, as it was).
    const other = { path: 'b/new.txt', content: 'x' };
    const before = await writeFileTool.prepare?.(other, ws.ctx);
    expect(await guard(other, before, ws.ctx)).toBe(false);
    rmSync(path.join(ws.root, 'b'), { recursive: true });
    mkdirSync(path.join(ws.root, 'b'));
    expect(await guard(other, before, ws.ctx)).toEqual(UNKNOWN_CHANGED);
  });

  it('an intent of an older tole (no record of the folder) is unknown, not "not done"', async () => {
    const ws = await tempWorkspace();
    await untilFolderAtRest(ws.root);
    const input = { path: 'new.txt', content: 'x' };
    const { priorAbsence: _, ...older } = (await writeFileTool.prepare?.(input, ws.ctx)) as Record<string, unknown>;
    expect(await guard(input, older, ws.ctx)).toEqual({ unknown: expect.stringContaining('older tole') });
    // A forged or rotten record proves nothing either.
    for (const priorAbsence of [{ folder: '.', id: 'x', changedNs: '-1', seenMs: 0 }, { folder: '.' }, 'yes'])
      expect(await guard(input, { ...older, priorAbsence }, ws.ctx)).toEqual({ unknown: expect.any(String) });
  });

  it('something not a file there now (a directory, a FIFO) is "not done": running again fails and writes nothing', async () => {
    const ws = await tempWorkspace();
    const input = { path: 'new.txt', content: 'x' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    mkdirSync(path.join(ws.root, 'new.txt'));
    expect(await guard(input, prepared, ws.ctx)).toBe(false);
    expect((await writeFileTool.execute(input, ws.ctx)).ok).toBe(false);
    rmSync(path.join(ws.root, 'new.txt'), { recursive: true });
    execFileSync('mkfifo', [path.join(ws.root, 'new.txt')]);
    expect(await guard(input, prepared, ws.ctx)).toBe(false);
    expect((await writeFileTool.execute(input, ws.ctx)).ok).toBe(false);
  });
});
