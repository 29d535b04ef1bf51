import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deletePathTool } from '../../../src/core/tools/builtin/delete-path';
import { tempWorkspace } from './temp-workspace';

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

describe('delete_path', () => {
  it('is Destructive, guarded and hot', () => {
    expect(deletePathTool).toMatchObject({ declaredRisk: 'Destructive', replay: 'guarded', tier: 'hot' });
    expect(deletePathTool.assess({ path: 'x' }).risk).toBe('Destructive');
    expect(deletePathTool.subject({ path: 'x' })).toBe('x');
  });

  it('deletes a file; the guard says the effect happened once it is gone', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), 'x');
    expect(await deletePathTool.guard?.({ path: 'a.txt' }, undefined, ws.ctx)).toBe(false);
    expect(await deletePathTool.execute({ path: 'a.txt' }, ws.ctx)).toEqual({ ok: true, content: 'Deleted a.txt.' });
    expect(await exists(path.join(ws.root, 'a.txt'))).toBe(false);
    expect(await deletePathTool.guard?.({ path: 'a.txt' }, undefined, ws.ctx)).toBe(true);
  });

  it('deletes a directory tree', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'build/deep'), { recursive: true });
    await writeFile(path.join(ws.root, 'build/deep/x.o'), 'x');
    const out = await deletePathTool.execute({ path: 'build' }, ws.ctx);
    expect(out).toEqual({ ok: true, content: 'Deleted the directory build and everything in it.' });
    expect(await exists(path.join(ws.root, 'build'))).toBe(false);
  });

  it('deletes a symlink itself, not the directory it points to', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'real'));
    await writeFile(path.join(ws.root, 'real/keep.txt'), 'keep');
    await symlink('real', path.join(ws.root, 'alias'));
    const out = await deletePathTool.execute({ path: 'alias' }, ws.ctx);
    expect(out.ok).toBe(true);
    expect(await readFile(path.join(ws.root, 'real/keep.txt'), 'utf8')).toBe('keep');
    expect(await deletePathTool.guard?.({ path: 'alias' }, undefined, ws.ctx)).toBe(true);
  });

  it('refuses the workspace root and a missing path', async () => {
    const ws = await tempWorkspace();
    expect((await deletePathTool.execute({ path: '.' }, ws.ctx)).content).toContain(
      'Refusing to delete the workspace root',
    );
    expect(await exists(ws.root)).toBe(true);
    expect(await deletePathTool.execute({ path: 'gone' }, ws.ctx)).toEqual({
      ok: false,
      content: 'gone does not exist; nothing to delete.',
    });
  });
});
