import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/tools/builtin/file-io';
import { writeFileTool } from '../../../src/core/tools/builtin/write-file';
import { untilFolderAtRest } from '../../support/folder-at-rest';
import { tempWorkspace } from './temp-workspace';

describe('write_file', () => {
  it('is a hot, guarded Write tool whose subject is the path', () => {
    expect(writeFileTool).toMatchObject({ declaredRisk: 'Write', replay: 'guarded', tier: 'hot' });
    expect(writeFileTool.subject({ path: 'a.txt', content: '' })).toBe('a.txt');
  });

  it('creates the file and its missing parent directories, leaving no temporary file', async () => {
    const ws = await tempWorkspace();
    const out = await writeFileTool.execute({ path: 'deep/er/new.txt', content: 'one\ntwo\n' }, ws.ctx);
    expect(out.ok).toBe(true);
    expect(out.content).toBe('Created deep/er/new.txt (8 bytes, 2 lines).');
    expect(await readFile(path.join(ws.root, 'deep/er/new.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(await readdir(path.join(ws.root, 'deep/er'))).toEqual(['new.txt']);
    expect(out.display).toEqual({
      kind: 'diff',
      path: 'deep/er/new.txt',
      diff: '--- /dev/null\n+++ b/deep/er/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two',
    });
  });

  it('replaces an existing file, keeps its permission bits, and shows a diff against the old content', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'run.sh');
    await writeFile(file, 'a\nb\nc\n', { mode: 0o751 });
    const out = await writeFileTool.execute({ path: 'run.sh', content: 'a\nB\nc\n' }, ws.ctx);
    expect(out.content).toBe('Wrote run.sh (6 bytes, 3 lines).');
    expect(await readFile(file, 'utf8')).toBe('a\nB\nc\n');
    expect((await stat(file)).mode & 0o777).toBe(0o751);
    expect(out.display).toEqual({
      kind: 'diff',
      path: 'run.sh',
      diff: '--- a/run.sh\n+++ b/run.sh\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c',
    });
  });

  it('prepares the hash of the intended content and of the file before; the guard says done, not done or unknown', async () => {
    const ws = await tempWorkspace();
    await untilFolderAtRest(ws.root);
    const input = { path: 'g.txt', content: 'intended' };
    const prepared = await writeFileTool.prepare?.(input, ws.ctx);
    expect(prepared).toEqual({
      sha256: sha256Hex('intended'),
      priorSha256: null,
      priorStamp: null,
      priorAbsence: {
        folder: '.',
        id: expect.any(String),
        changedNs: expect.stringMatching(/^\d+$/),
        seenMs: expect.any(Number),
      },
    });
    expect(await writeFileTool.guard?.(input, prepared, ws.ctx)).toBe(false);
    await writeFileTool.execute(input, ws.ctx);
    expect(await writeFileTool.guard?.(input, prepared, ws.ctx)).toBe(true);
    // Changed by someone else since: writing again would overwrite their change.
    await writeFile(path.join(ws.root, 'g.txt'), 'changed by someone');
    expect(await writeFileTool.guard?.(input, prepared, ws.ctx)).toEqual({
      unknown: expect.stringContaining('changed'),
    });
    expect(await writeFileTool.guard?.(input, { nonsense: true }, ws.ctx)).toEqual({ unknown: expect.any(String) });
    // An existing file: still as before is "not done".
    const again = await writeFileTool.prepare?.(input, ws.ctx);
    expect(again).toEqual({
      sha256: sha256Hex('intended'),
      priorSha256: sha256Hex('changed by someone'),
      priorStamp: expect.stringMatching(/^\d+:\d+$/),
      priorAbsence: null,
    });
    expect(await writeFileTool.guard?.(input, again, ws.ctx)).toBe(false);
  });

  it('a file written and then put back as it was is unknown to the guard, not "not done": a resume would undo the undo', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'note.txt');
    const input = { path: 'note.txt', content: 'from tole\n' };
    const putBack = {
      // git checkout, an editor saving by rename
      'by a new file': async () => {
        await writeFile(`${file}.new`, 'orig\n');
        await rename(`${file}.new`, file);
      },
      // the same inode written again in place
      'in place': () => writeFile(file, 'orig\n'),
    };
    for (const [how, undo] of Object.entries(putBack)) {
      await writeFile(file, 'orig\n');
      const prepared = await writeFileTool.prepare?.(input, ws.ctx);
      expect(await writeFileTool.guard?.(input, prepared, ws.ctx), `${how}: untouched`).toBe(false);
      await writeFileTool.execute(input, ws.ctx);
      await undo();
      expect(await readFile(file, 'utf8')).toBe('orig\n');
      expect(await writeFileTool.guard?.(input, prepared, ws.ctx), how).toEqual({
        unknown: expect.stringContaining('not as the same file'),
      });
      // An intent of an older tole records no stamp: as before, "not done".
      const { priorStamp: _, ...older } = prepared as Record<string, unknown>;
      expect(await writeFileTool.guard?.(input, older, ws.ctx), `${how}: no stamp`).toBe(false);
    }
  });

  it('refuses a directory as its target, in prepare and in execute', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'dir'));
    const input = { path: 'dir', content: 'x' };
    await expect(writeFileTool.prepare?.(input, ws.ctx)).rejects.toThrow(
      'dir is a directory; write_file needs a file path.',
    );
    expect(await writeFileTool.execute(input, ws.ctx)).toEqual({
      ok: false,
      content: 'dir is a directory; write_file needs a file path.',
    });
  });

  it('reports a path through a file as a result', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'file'), 'x');
    const out = await writeFileTool.execute({ path: 'file/child.txt', content: 'x' }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toBe(
      'Path "file/child.txt": file is a file, not a directory, so nothing can lie below it. Check the path with list_dir.',
    );
  });
});
