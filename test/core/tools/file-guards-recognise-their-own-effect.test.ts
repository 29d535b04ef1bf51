import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deletePathTool } from '../../../src/core/tools/builtin/delete-path';
import { EDIT_CONTEXT_CHARS, editVerdict, prepareEditMarks } from '../../../src/core/tools/builtin/edit-guard';
import { editFileTool } from '../../../src/core/tools/builtin/edit-file';
import { tempWorkspace } from './temp-workspace';

/** The verdict on `now` for replacing the one `oldText` of `before` with `newText`. */
function verdictFor(before: string, oldText: string, newText: string, now: string): unknown {
  const at = before.indexOf(oldText);
  expect(before.indexOf(oldText, at + 1)).toBe(-1);
  return editVerdict(now, oldText, newText, prepareEditMarks(before, at, oldText, newText));
}

describe('the edit_file guard judges the file as it is, by the edit’s own result', () => {
  it('an edit whose new text holds its old text (it still matches after it ran) is done, not applied again', () => {
    expect(verdictFor('A\nC\n', 'A\n', 'A\nB\n', 'A\nB\nC\n')).toBe(true);
    expect(verdictFor('A\nC\n', 'A\n', 'A\nB\n', 'A\nB\nC\nappended by a hook\n')).toBe(true);
    expect(verdictFor('A\nC\n', 'A\n', 'A\nB\n', 'A\nC\nappended by a hook\n')).toBe(false);
  });

  it('the new text appearing elsewhere too is still one edit; the old text appearing elsewhere makes it unknown', () => {
    expect(verdictFor('A\nC\n', 'A\n', 'A\nB\n', 'A\nB\nC\nA\nB\n')).toBe(true);
    expect(verdictFor('x\nA\nC\n', 'A\n', 'A\nB\n', 'x\nA\nB\nC\nx\nA\nC\n')).toEqual({ unknown: expect.any(String) });
  });

  it('says unknown when the text around the edit changed, or its result stands twice with its context', () => {
    expect(verdictFor('A\nC\n', 'A\n', 'A\nB\n', 'A\nB\nX\n')).toEqual({ unknown: expect.stringContaining('neither') });
    expect(verdictFor('A\nC\n', 'A\n', 'A\nB\n', 'A\nB\nC\nA\nB\nC\n')).toEqual({ unknown: expect.any(String) });
    expect(verdictFor('A\nC\n', 'A\n', 'A\nB\n', '')).toEqual({ unknown: expect.any(String) });
  });

  it('a change farther away than the recorded context leaves the verdict alone', () => {
    const far = 'x'.repeat(EDIT_CONTEXT_CHARS + 1);
    const before = `head\n${far}\nold\n${far}\ntail\n`;
    expect(
      verdictFor(before, 'old', 'new', before.replace('head', 'HEAD').replace('tail', 'TAIL').replace('old', 'new')),
    ).toBe(true);
    expect(verdictFor(before, 'old', 'new', before.replace('head', 'HEAD'))).toBe(false);
  });

  it('an edit that deletes text, or empties the file, is recognised', () => {
    expect(verdictFor('keep drop keep\n', ' drop', '', 'keep keep\n')).toBe(true);
    expect(verdictFor('keep drop keep\n', ' drop', '', 'keep drop keep\n')).toBe(false);
    expect(verdictFor('all', 'all', '', '')).toBe(true);
    expect(verdictFor('all', 'all', '', 'all')).toBe(false);
    expect(verdictFor('all', 'all', '', 'other')).toEqual({ unknown: expect.any(String) });
  });

  it('old text inside the new text’s context (new = old repeated) does not count against the edit being done', () => {
    expect(verdictFor('[a]', 'a', 'aa', '[aa]')).toBe(true);
    expect(verdictFor('[a]', 'a', 'aa', '[a]')).toBe(false);
    expect(verdictFor('[a]', 'a', '', '[]')).toBe(true);
  });

  it('on disk: a missing file and an intent from an older tole (whole-file hash only) are unknown unless the hash matches', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'a.txt');
    await writeFile(file, 'A\nC\n');
    const input = { path: 'a.txt', old_text: 'A\n', new_text: 'A\nB\n' };
    const prepared = (await editFileTool.prepare?.(input, ws.ctx)) as { sha256: string };
    await writeFile(file, 'A\nB\nC\nD\n');
    expect(await editFileTool.guard?.(input, prepared, ws.ctx)).toBe(true);
    expect(await editFileTool.guard?.(input, { sha256: prepared.sha256 }, ws.ctx)).toEqual({
      unknown: expect.any(String),
    });
    await writeFile(file, 'A\nB\nC\n');
    expect(await editFileTool.guard?.(input, { sha256: prepared.sha256 }, ws.ctx)).toBe(true);
    await rm(file);
    expect(await editFileTool.guard?.(input, prepared, ws.ctx)).toEqual({ unknown: expect.any(String) });
  });
});

describe('the edit_file guard tells its own edit undone from an edit never made', () => {
  const input = { path: 'a.txt', old_text: 'A\n', new_text: 'A\nB\n' };

  it('an edit made and then undone (a new file put in place, or the old text typed back in) is unknown, not "not done"', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'a.txt');
    const undo = {
      // git checkout, an editor saving by rename: the file as it was, a new inode (maybe the freed number)
      'put back by a new file': async () => {
        await writeFile(`${file}.new`, 'A\nC\n');
        await rename(`${file}.new`, file);
      },
      // the edit taken out in place, other lines kept: tole's file, not the one the edit replaced
      'undone in place': () => writeFile(file, 'A\nC\nD\n'),
    };
    for (const [how, revert] of Object.entries(undo)) {
      await writeFile(file, 'A\nC\n');
      const prepared = await editFileTool.prepare?.(input, ws.ctx);
      expect(await editFileTool.guard?.(input, prepared, ws.ctx), `${how}: untouched`).toBe(false);
      expect((await editFileTool.execute(input, ws.ctx)).ok).toBe(true);
      await revert();
      expect(await editFileTool.guard?.(input, prepared, ws.ctx), how).toEqual({
        unknown: expect.stringContaining('replaced since'),
      });
      // An intent of an older tole records no prior file: judged by the text alone, as before.
      const { priorFile: _, ...older } = prepared as Record<string, unknown>;
      expect(await editFileTool.guard?.(input, older, ws.ctx), `${how}: no prior file`).toBe(false);
    }
  });

  it('the file changed in place before the edit ran (a hook, an editor writing in place) is still "not done"', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'a.txt');
    await writeFile(file, 'A\nC\n');
    const prepared = await editFileTool.prepare?.(input, ws.ctx);
    await appendFile(file, 'D\n');
    await writeFile(file, 'A\nC\nD\nE\n');
    expect(await editFileTool.guard?.(input, prepared, ws.ctx)).toBe(false);
    // Saved by rename instead: another file, so the edit may have been made and undone in it: unknown (the safe side).
    await writeFile(`${file}.new`, 'A\nC\nD\nE\n');
    await rename(`${file}.new`, file);
    expect(await editFileTool.guard?.(input, prepared, ws.ctx)).toEqual({ unknown: expect.any(String) });
  });
});

describe('the delete_path guard tells its deletion from something new in the path', () => {
  it('a file or a directory deleted and then put back as it was is unknown, not "not done": a resume would delete it again', async () => {
    const ws = await tempWorkspace();
    const putBack = {
      'a.txt': async () => writeFile(path.join(ws.root, 'a.txt'), 'kept\n'),
      src: async () => {
        await mkdir(path.join(ws.root, 'src'));
        await writeFile(path.join(ws.root, 'src', 'main.ts'), 'kept\n');
      },
    };
    for (const [name, make] of Object.entries(putBack)) {
      await make();
      const prepared = await deletePathTool.prepare?.({ path: name }, ws.ctx);
      expect(await deletePathTool.guard?.({ path: name }, prepared, ws.ctx), `${name}: untouched`).toBe(false);
      await deletePathTool.execute({ path: name }, ws.ctx);
      // Put back as it was (its freed inode number may well be given to the copy).
      await make();
      expect(await deletePathTool.guard?.({ path: name }, prepared, ws.ctx), name).toEqual({
        unknown: expect.stringContaining('not the same one'),
      });
      const { ino: _, ...older } = prepared as Record<string, unknown>;
      expect(await deletePathTool.guard?.({ path: name }, older, ws.ctx), `${name}: no inode recorded`).toBe(false);
    }
  });

  it('gone is done; the same file still there is not done; a different file there now is unknown', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'a.txt');
    await writeFile(file, 'old');
    const prepared = await deletePathTool.prepare?.({ path: 'a.txt' }, ws.ctx);
    expect(await deletePathTool.guard?.({ path: 'a.txt' }, prepared, ws.ctx)).toBe(false);
    await rm(file);
    expect(await deletePathTool.guard?.({ path: 'a.txt' }, prepared, ws.ctx)).toBe(true);
    await writeFile(file, 'new work written after the deletion');
    expect(await deletePathTool.guard?.({ path: 'a.txt' }, prepared, ws.ctx)).toEqual({ unknown: expect.any(String) });
  });

  it('a directory partly deleted is not done; a file where the directory was is unknown', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'build/deep'), { recursive: true });
    const prepared = await deletePathTool.prepare?.({ path: 'build' }, ws.ctx);
    await rm(path.join(ws.root, 'build/deep'), { recursive: true });
    expect(await deletePathTool.guard?.({ path: 'build' }, prepared, ws.ctx)).toBe(false);
    await rm(path.join(ws.root, 'build'), { recursive: true });
    await writeFile(path.join(ws.root, 'build'), 'a file now');
    expect(await deletePathTool.guard?.({ path: 'build' }, prepared, ws.ctx)).toEqual({ unknown: expect.any(String) });
  });

  it('a path missing when prepared is not done (running it again fails the same way) until something appears there', async () => {
    const ws = await tempWorkspace();
    const prepared = await deletePathTool.prepare?.({ path: 'ghost' }, ws.ctx);
    expect(await deletePathTool.guard?.({ path: 'ghost' }, prepared, ws.ctx)).toBe(false);
    await writeFile(path.join(ws.root, 'ghost'), 'new');
    expect(await deletePathTool.guard?.({ path: 'ghost' }, prepared, ws.ctx)).toEqual({ unknown: expect.any(String) });
  });
});
