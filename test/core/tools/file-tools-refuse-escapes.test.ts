import { readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { deletePathTool } from '../../../src/core/tools/builtin/delete-path';
import { editFileTool } from '../../../src/core/tools/builtin/edit-file';
import { readFileTool } from '../../../src/core/tools/builtin/read-file';
import { writeFileTool } from '../../../src/core/tools/builtin/write-file';
import type { ToolOutput } from '../../../src/core/tools/tool';
import { tempWorkspace, type TempWorkspace } from './temp-workspace';

/** Every way out of the workspace the tests try, given the outside directory holding secret.txt. */
function escapes(ws: TempWorkspace): Record<string, string> {
  const depth = path.relative(ws.root, ws.outside); // "../outside"
  return {
    'a relative ../ path': `${depth}/secret.txt`,
    '../../etc/passwd style': `../../${path.basename(path.dirname(ws.root))}/outside/secret.txt`,
    'an absolute path outside': path.join(ws.outside, 'secret.txt'),
    'a symlink to an outside file': 'link-to-secret',
    'a path below a symlinked outside directory': 'link-to-outside/secret.txt',
  };
}

function expectRefused(out: ToolOutput, how: string): void {
  expect(out.ok, how).toBe(false);
  expect(out.content, how).toContain('outside the workspace');
}

describe('file tools refuse paths that leave the workspace', () => {
  let ws: TempWorkspace;
  const secret = (): string => path.join(ws.outside, 'secret.txt');

  beforeEach(async () => {
    ws = await tempWorkspace();
    await writeFile(secret(), 'the secret\n');
    await symlink(secret(), path.join(ws.root, 'link-to-secret'));
    await symlink(ws.outside, path.join(ws.root, 'link-to-outside'));
  });

  it('refuses the literal ../../etc/passwd', async () => {
    expectRefused(await readFileTool.execute({ path: '../../etc/passwd' }, ws.ctx), '../../etc/passwd');
  });

  it('read_file refuses every escape', async () => {
    for (const [how, p] of Object.entries(escapes(ws))) {
      const out = await readFileTool.execute({ path: p }, ws.ctx);
      expectRefused(out, how);
      expect(out.content).not.toContain('the secret');
    }
  });

  it('write_file refuses every escape, in prepare and in execute, and the outside file is untouched', async () => {
    for (const [how, p] of Object.entries(escapes(ws))) {
      const input = { path: p, content: 'overwritten' };
      await expect(writeFileTool.prepare?.(input, ws.ctx), how).rejects.toThrow('outside the workspace');
      expectRefused(await writeFileTool.execute(input, ws.ctx), how);
      expect(await writeFileTool.guard?.(input, { sha256: 'x' }, ws.ctx)).toBe(false);
    }
    expect(await readFile(secret(), 'utf8')).toBe('the secret\n');
    expect(await readdir(ws.outside)).toEqual(['secret.txt']);
  });

  it('write_file does not create a new file through a symlinked outside directory', async () => {
    expectRefused(await writeFileTool.execute({ path: 'link-to-outside/new.txt', content: 'x' }, ws.ctx), 'new file');
    expect(await readdir(ws.outside)).toEqual(['secret.txt']);
  });

  it('edit_file refuses every escape and the outside file is untouched', async () => {
    for (const [how, p] of Object.entries(escapes(ws))) {
      const input = { path: p, old_text: 'secret', new_text: 'edited' };
      await expect(editFileTool.prepare?.(input, ws.ctx), how).rejects.toThrow('outside the workspace');
      expectRefused(await editFileTool.execute(input, ws.ctx), how);
    }
    expect(await readFile(secret(), 'utf8')).toBe('the secret\n');
  });

  it('delete_path refuses every escape and the outside file is untouched', async () => {
    const { 'a symlink to an outside file': _theLinkItself, ...through } = escapes(ws);
    for (const [how, p] of Object.entries(through)) {
      expectRefused(await deletePathTool.execute({ path: p }, ws.ctx), how);
      expect(await deletePathTool.guard?.({ path: p }, undefined, ws.ctx), how).toBe(false);
    }
    expect(await readFile(secret(), 'utf8')).toBe('the secret\n');
  });

  it('delete_path on a symlink to outside removes the link in the workspace, never what it points to', async () => {
    for (const link of ['link-to-secret', 'link-to-outside']) {
      const out = await deletePathTool.execute({ path: link }, ws.ctx);
      expect(out, link).toEqual({
        ok: true,
        content: `Deleted the symlink ${link}; whatever it pointed to was left alone.`,
      });
      expect(await deletePathTool.guard?.({ path: link }, undefined, ws.ctx), link).toBe(true);
    }
    expect(await readdir(ws.root)).toEqual([]);
    expect(await readdir(ws.outside)).toEqual(['secret.txt']);
    expect(await readFile(secret(), 'utf8')).toBe('the secret\n');
  });
});
