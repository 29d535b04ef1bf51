import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_FILE_DEFAULT_LIMIT_LINES, readFileTool } from '../../../src/core/tools/builtin/read-file';
import { MODEL_OUTPUT_CAP_BYTES } from '../../../src/core/tools/cap-output';
import { tempWorkspace } from './temp-workspace';

const lines = (count: number): string => Array.from({ length: count }, (_, i) => `row ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('is a cold, idempotent, read-only tool whose subject is the path', () => {
    expect(readFileTool).toMatchObject({
      name: 'read_file',
      declaredRisk: 'ReadOnly',
      replay: 'idempotent',
      tier: 'cold',
    });
    expect(readFileTool.subject({ path: 'a.ts' })).toBe('a.ts');
    expect(readFileTool.assess({ path: 'a.ts' }).risk).toBe('ReadOnly');
  });

  it('returns numbered lines and says it reached the end', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), 'alpha\nbeta\n');
    const out = await readFileTool.execute({ path: 'a.txt' }, ws.ctx);
    expect(out).toEqual({ ok: true, content: '     1\talpha\n     2\tbeta\n[a.txt: lines 1-2 of 2, end of file]' });
  });

  it('reads from a 1-based offset for limit lines and says how to read more', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), lines(10));
    const out = await readFileTool.execute({ path: 'a.txt', offset: 4, limit: 3 }, ws.ctx);
    expect(out.ok).toBe(true);
    expect(out.content.split('\n').slice(0, 3)).toEqual(['     4\trow 4', '     5\trow 5', '     6\trow 6']);
    expect(out.content).toContain('lines 4-6 shown; the file continues');
    expect(out.content).toContain('read_file {"path": "a.txt", "offset": 7}');
  });

  it(`stops at ${READ_FILE_DEFAULT_LIMIT_LINES} lines by default`, async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'long.txt'), lines(5000));
    const out = await readFileTool.execute({ path: 'long.txt' }, ws.ctx);
    expect(out.content).toContain(`\trow ${READ_FILE_DEFAULT_LIMIT_LINES}\n`);
    expect(out.content).not.toContain(`\trow ${READ_FILE_DEFAULT_LIMIT_LINES + 1}\n`);
    expect(out.content).toContain(`"offset": ${READ_FILE_DEFAULT_LIMIT_LINES + 1}`);
  });

  it('stops before the output cap rather than losing the middle of a file', async () => {
    const ws = await tempWorkspace();
    await writeFile(
      path.join(ws.root, 'wide.txt'),
      Array.from({ length: 500 }, (_, i) => `${i + 1} ${'w'.repeat(200)}`).join('\n'),
    );
    const out = await readFileTool.execute({ path: 'wide.txt' }, ws.ctx);
    expect(Buffer.byteLength(out.content)).toBeLessThanOrEqual(MODEL_OUTPUT_CAP_BYTES);
    expect(out.content).not.toContain('elided');
    const last = Number(out.content.match(/lines 1-(\d+) shown/)?.[1]);
    expect(last).toBeGreaterThan(100);
    expect(out.content).toContain(`"offset": ${last + 1}`);
  });

  it('refuses an offset past the end', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), lines(3));
    const out = await readFileTool.execute({ path: 'a.txt', offset: 9 }, ws.ctx);
    expect(out).toEqual({ ok: false, content: 'offset 9 is past the end of a.txt, which has 3 lines.' });
  });

  it('says when a file is empty', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'empty.txt'), '');
    expect(await readFileTool.execute({ path: 'empty.txt' }, ws.ctx)).toEqual({
      ok: true,
      content: 'empty.txt is empty.',
    });
  });

  it('refuses a binary file', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    const out = await readFileTool.execute({ path: 'image.png' }, ws.ctx);
    expect(out).toEqual({ ok: false, content: 'image.png is a binary file; read_file only reads text.' });
  });

  it('refuses a directory and points to list_dir', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'src'));
    const out = await readFileTool.execute({ path: 'src' }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('src is a directory');
    expect(out.content).toContain('list_dir');
  });

  it('reports a missing file as a result, not an exception', async () => {
    const ws = await tempWorkspace();
    expect(await readFileTool.execute({ path: 'nope.txt' }, ws.ctx)).toEqual({
      ok: false,
      content: 'nope.txt does not exist. Use list_dir or glob to find the file.',
    });
  });

  it.skipIf(process.getuid?.() === 0)('reports an unreadable file as a result', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.root, 'locked.txt');
    await writeFile(file, 'x');
    await chmod(file, 0o000);
    expect(await readFileTool.execute({ path: 'locked.txt' }, ws.ctx)).toEqual({
      ok: false,
      content: 'Permission denied for locked.txt.',
    });
  });

  it('cuts one enormous line instead of returning all of it', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'min.js'), 'y'.repeat(100_000));
    const out = await readFileTool.execute({ path: 'min.js' }, ws.ctx);
    expect(out.ok).toBe(true);
    expect(out.content).toContain('[... line cut: 100000 characters]');
    expect(out.content.length).toBeLessThan(5000);
  });
});
