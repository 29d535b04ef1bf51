import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listDirTool } from '../../../src/core/tools/builtin/list-dir';
import { tempWorkspace } from './temp-workspace';

describe('list_dir', () => {
  it('lists entries sorted, directories marked with "/", files with sizes, symlinks with targets', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'src'));
    await writeFile(path.join(ws.root, 'b.txt'), '12345');
    await writeFile(path.join(ws.root, 'a.txt'), '');
    await symlink('b.txt', path.join(ws.root, 'c-link'));
    const out = await listDirTool.execute({ path: '.' }, ws.ctx);
    expect(out).toEqual({
      ok: true,
      content: ['./ (4 entries)', 'a.txt  0 bytes', 'b.txt  5 bytes', 'c-link -> b.txt', 'src/'].join('\n'),
    });
  });

  it('lists a subdirectory', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'src/core'), { recursive: true });
    const out = await listDirTool.execute({ path: 'src' }, ws.ctx);
    expect(out).toEqual({ ok: true, content: 'src/ (1 entry)\ncore/' });
  });

  it('refuses a file and a missing path with words the model can act on', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), 'x');
    expect(await listDirTool.execute({ path: 'a.txt' }, ws.ctx)).toEqual({
      ok: false,
      content: 'a.txt is a file, not a directory. Use read_file to read it.',
    });
    expect(await listDirTool.execute({ path: 'gone' }, ws.ctx)).toEqual({
      ok: false,
      content: 'gone does not exist. List its parent to see what is there.',
    });
  });

  it('refuses a directory outside the workspace', async () => {
    const ws = await tempWorkspace();
    const out = await listDirTool.execute({ path: '..' }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('outside the workspace');
  });
});
