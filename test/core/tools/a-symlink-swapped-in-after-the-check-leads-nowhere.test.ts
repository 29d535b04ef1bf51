/**
 * The workspace check resolves every symlink in a path; the file is opened a moment later. A
 * symlink put into the path in between (the last component, or a directory on the way) must not
 * let a file tool read or write outside the workspace.
 */
import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFileIfPresent, readTextFile, writeFileDurably } from '../../../src/core/tools/builtin/file-io';
import { resolveWorkspacePath, type WorkspacePath } from '../../../src/core/tools/workspace';
import { tempWorkspace } from './temp-workspace';

async function checked(root: string, requested: string): Promise<WorkspacePath> {
  const resolved = await resolveWorkspacePath(root, requested);
  if (!resolved.ok) throw new Error(resolved.error.message);
  return resolved.path;
}

describe('a symlink swapped in after the workspace check', () => {
  it('as the file itself: reads and hashes are refused (ELOOP), the outside file is not read', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.outside, 'secret.txt'), 'SECRET\n');
    await writeFile(path.join(ws.root, 'notes.txt'), 'notes\n');
    const target = await checked(ws.root, 'notes.txt');
    await rename(target.absolutePath, `${target.absolutePath}.old`);
    await symlink(path.join(ws.outside, 'secret.txt'), target.absolutePath);
    await expect(readTextFile(target)).rejects.toMatchObject({ code: 'ELOOP' });
    expect(await hashFileIfPresent(target)).toBeNull();
  });

  it('as a directory on the way: reads are refused and a write lands nowhere outside', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.outside, 'f.txt'), 'SECRET\n');
    await mkdir(path.join(ws.root, 'sub'));
    await writeFile(path.join(ws.root, 'sub', 'f.txt'), 'inside\n');
    const target = await checked(ws.root, 'sub/f.txt');
    await rename(path.join(ws.root, 'sub'), path.join(ws.root, 'sub-old'));
    await symlink(ws.outside, path.join(ws.root, 'sub'));

    await expect(readTextFile(target)).rejects.toMatchObject({ code: 'ESWAPPED' });
    await expect(writeFileDurably(target, 'overwritten\n', 'call_1')).rejects.toMatchObject({ code: 'ESWAPPED' });
    expect(await readFile(path.join(ws.outside, 'f.txt'), 'utf8')).toBe('SECRET\n');
    expect(await readdir(ws.outside)).toEqual(['f.txt']);
  });

  it('nothing swapped: the same calls work as before', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'sub'));
    await writeFileDurably(await checked(ws.root, 'sub/f.txt'), 'hello\n', 'call_2');
    const target = await checked(ws.root, 'sub/f.txt');
    expect(await readTextFile(target)).toEqual({ kind: 'text', text: 'hello\n' });
    expect(await hashFileIfPresent(target)).toMatch(/^[0-9a-f]{64}$/);
  });
});
