/**
 * The workspace check resolves every symlink in a path; the file is opened a moment later. A
 * symlink put into the path in between (the last component, or a directory on the way) must not
 * let a file tool read or write outside the workspace.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDirectoryChecked, removeTree } from '../../../src/core/tools/builtin/checked-open';
import {
  hashFileIfPresent,
  openFileForReading,
  readTextFile,
  writeFileDurably,
} from '../../../src/core/tools/builtin/file-io';
import { walkWorkspace } from '../../../src/core/tools/builtin/walk-workspace';
import { resolveWorkspacePath } from '../../../src/core/tools/workspace';
import { checkedPath, tempWorkspace } from './temp-workspace';

describe('a symlink swapped in after the workspace check', () => {
  it('as the file itself: reads and hashes are refused (ELOOP), the outside file is not read', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.outside, 'secret.txt'), 'SECRET\n');
    await writeFile(path.join(ws.root, 'notes.txt'), 'notes\n');
    const target = await checkedPath(ws.root, 'notes.txt');
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
    const target = await checkedPath(ws.root, 'sub/f.txt');
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
    await writeFileDurably(await checkedPath(ws.root, 'sub/f.txt'), 'hello\n', 'call_2');
    const target = await checkedPath(ws.root, 'sub/f.txt');
    expect(await readTextFile(target)).toEqual({ kind: 'text', text: 'hello\n' });
    expect(await hashFileIfPresent(target)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('as a directory write_file is about to create: nothing is created through the planted link', async () => {
    const ws = await tempWorkspace();
    const target = await checkedPath(ws.root, 'new/deeper/f.txt');
    expect(target.missing).toEqual(['new', 'deeper', 'f.txt']);
    await symlink(ws.outside, path.join(ws.root, 'new'));
    await expect(writeFileDurably(target, 'planted\n', 'call_3')).rejects.toMatchObject({ code: 'ESWAPPED' });
    expect(await readdir(ws.outside)).toEqual([]);
  });

  it('a FIFO swapped in for the file: the open returns at once and refuses it, nothing hangs', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'data.txt'), 'data\n');
    const target = await checkedPath(ws.root, 'data.txt');
    await rm(path.join(ws.root, 'data.txt'));
    execFileSync('mkfifo', [path.join(ws.root, 'data.txt')]);
    // Without O_NONBLOCK this open would wait for a writer forever.
    await expect(openFileForReading(target)).rejects.toMatchObject({ code: 'ESPECIAL' });
    await expect(readTextFile(target)).rejects.toMatchObject({ code: 'ESPECIAL' });
  });

  it('delete: a directory swapped for a link to outside after the check is refused, the outside kept', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'build'));
    await writeFile(path.join(ws.outside, 'keep.txt'), 'keep\n');
    const target = await resolveWorkspacePath(ws.root, 'build', { followLastSymlink: false });
    if (!target.ok || target.path.found.kind === 'missing') throw new Error('build should be there');
    await rename(path.join(ws.root, 'build'), path.join(ws.root, 'build-old'));
    await symlink(ws.outside, path.join(ws.root, 'build'));
    const parent = await openDirectoryChecked(ws.root, ws.root, target.path.existingDirectory);
    try {
      await expect(removeTree(parent, 'build', target.path.found)).rejects.toMatchObject({ code: 'ESWAPPED' });
    } finally {
      await parent.handle.close();
    }
    expect(await readdir(ws.outside)).toEqual(['keep.txt']);
  });

  it('delete: a link inside the tree being removed is unlinked, never followed', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'tree/inner'), { recursive: true });
    await writeFile(path.join(ws.outside, 'keep.txt'), 'keep\n');
    await symlink(ws.outside, path.join(ws.root, 'tree/inner/out'));
    const parent = await openDirectoryChecked(ws.root, ws.root, null);
    try {
      await removeTree(parent, 'tree');
    } finally {
      await parent.handle.close();
    }
    expect(await readdir(ws.root)).toEqual([]);
    expect(await readdir(ws.outside)).toEqual(['keep.txt']);
  });

  it('walk: a directory swapped for a link to outside during the walk is not entered', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'b'));
    await writeFile(path.join(ws.root, 'b', 'inside.txt'), 'inside\n');
    await writeFile(path.join(ws.root, 'c.txt'), 'c\n');
    await writeFile(path.join(ws.outside, 'secret.txt'), 'SECRET\n');
    const start = await checkedPath(ws.root, '.');
    if (start.found.kind !== 'directory') throw new Error('the root is a directory');
    const seen: string[] = [];
    const walk = await walkWorkspace(
      ws.root,
      { absolutePath: ws.root, ...start.found },
      new AbortController().signal,
      async (entry): Promise<'continue'> => {
        seen.push(entry.relativePath);
        if (entry.relativePath === 'c.txt') {
          // `b` was listed (and its identity taken) before this visit; swap it now.
          await rename(path.join(ws.root, 'b'), path.join(ws.root, 'b-old'));
          await symlink(ws.outside, path.join(ws.root, 'b'));
        }
        return 'continue';
      },
    );
    expect(seen).toEqual(['c.txt']);
    expect(walk.unreadableDirectories).toBe(1);
  });
});
