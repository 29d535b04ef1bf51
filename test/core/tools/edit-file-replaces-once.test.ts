import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool } from '../../../src/core/tools/builtin/edit-file';
import { occurrences } from '../../../src/core/tools/builtin/edit-plan';
import { sha256Hex } from '../../../src/core/tools/builtin/file-io';
import { tempWorkspace } from './temp-workspace';

describe('edit_file', () => {
  it('replaces exactly one occurrence and shows a diff', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'a.ts');
    await writeFile(file, 'const a = 1;\nconst b = 2;\n');
    const out = await editFileTool.execute({ path: 'a.ts', old_text: 'b = 2', new_text: 'b = 3' }, ws.ctx);
    expect(out.ok).toBe(true);
    expect(out.content).toBe('Edited a.ts: replaced 1 occurrence.');
    expect(await readFile(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    expect(out.display).toEqual({
      kind: 'diff',
      path: 'a.ts',
      diff: '--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3;',
    });
  });

  it('inserts new_text literally, "$&" and all', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'a.txt');
    await writeFile(file, 'price: X\n');
    await editFileTool.execute({ path: 'a.txt', old_text: 'X', new_text: "$&$1$'" }, ws.ctx);
    expect(await readFile(file, 'utf8')).toBe("price: $&$1$'\n");
  });

  it('fails when old_text is missing, and leaves the file alone', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'a.txt');
    await writeFile(file, 'hello\n');
    const out = await editFileTool.execute({ path: 'a.txt', old_text: 'goodbye', new_text: 'x' }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('old_text was not found in a.txt');
    expect(await readFile(file, 'utf8')).toBe('hello\n');
  });

  it('fails when old_text occurs more than once, saying how many times and where', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'a.txt');
    await writeFile(file, 'x = 1\ny = 2\nx = 1\nx = 1\n');
    const out = await editFileTool.execute({ path: 'a.txt', old_text: 'x = 1', new_text: 'x = 9' }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('old_text occurs 3 times in a.txt (at lines 1, 3, 4)');
    expect(await readFile(file, 'utf8')).toBe('x = 1\ny = 2\nx = 1\nx = 1\n');
  });

  it('counts overlapping occurrences as ambiguous', () => {
    expect(occurrences('aaa', 'aa')).toEqual([0, 1]);
  });

  it('prepares the edited content’s hash and the text around the edit, and fails in prepare the same way as in execute', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), 'one two\n');
    const input = { path: 'a.txt', old_text: 'two', new_text: 'three' };
    const prepared = await editFileTool.prepare?.(input, ws.ctx);
    expect(prepared).toEqual({
      sha256: sha256Hex('one three\n'),
      before: 'one ',
      after: '\n',
      priorFile: expect.stringMatching(/^\d+:c?\d+$/),
    });
    expect(await editFileTool.guard?.(input, prepared, ws.ctx)).toBe(false);
    await editFileTool.execute(input, ws.ctx);
    expect(await editFileTool.guard?.(input, prepared, ws.ctx)).toBe(true);
    const ambiguous = { path: 'a.txt', old_text: 'e', new_text: 'E' };
    const expected = (await editFileTool.execute(ambiguous, ws.ctx)).content;
    await expect(editFileTool.prepare?.(ambiguous, ws.ctx)).rejects.toThrow(expected);
  });

  it('refuses a missing file, an empty old_text, and a no-op edit', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), 'x\n');
    expect((await editFileTool.execute({ path: 'nope.txt', old_text: 'a', new_text: 'b' }, ws.ctx)).content).toBe(
      'nope.txt does not exist. To create it, use write_file.',
    );
    expect((await editFileTool.execute({ path: 'a.txt', old_text: '', new_text: 'b' }, ws.ctx)).content).toContain(
      'old_text is empty',
    );
    expect((await editFileTool.execute({ path: 'a.txt', old_text: 'x', new_text: 'x' }, ws.ctx)).content).toContain(
      'identical',
    );
  });

  it('refuses a binary file', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'b.bin'), Buffer.from([1, 0, 2]));
    const out = await editFileTool.execute({ path: 'b.bin', old_text: '\u0001', new_text: 'x' }, ws.ctx);
    expect(out).toEqual({ ok: false, content: 'b.bin is a binary file. edit_file only edits text files.' });
  });
});
