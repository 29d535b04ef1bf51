/**
 * The fault simulator runs the file tools' filesystem calls synchronously (sync-tool-fs.ts). Its
 * seeds judge what edit_file and write_file did, so those calls must still be the tools' real
 * ones: the symlink and FIFO swaps the tools refuse on node's promise calls
 * (test/core/tools/a-symlink-swapped-in-after-the-check-leads-nowhere.test.ts) are refused the same
 * way on the simulator's, a write lands whole with the file's mode kept, and the swap lasts only
 * while a schedule runs.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hashFileIfPresent,
  openFileForReading,
  readStart,
  readTextFile,
  sha256Hex,
  writeFileDurably,
} from '../../src/core/tools/builtin/file-io';
import { NODE_TOOL_FS, setToolFs, toolFs } from '../../src/core/tools/tool-fs';
import { checkedPath, tempWorkspace } from '../core/tools/temp-workspace';
import { runSchedule } from './simulate';
import { SYNC_TOOL_FS } from './sync-tool-fs';

/** Runs `body` with the simulator's calls, and node's again after. */
async function onSyncCalls(body: () => Promise<void>): Promise<void> {
  setToolFs(SYNC_TOOL_FS);
  try {
    await body();
  } finally {
    setToolFs(NODE_TOOL_FS);
  }
}

describe("the simulator's synchronous file calls", () => {
  it('refuse a symlink swapped in for the file (ELOOP) and read nothing outside', () =>
    onSyncCalls(async () => {
      const ws = await tempWorkspace();
      await writeFile(path.join(ws.outside, 'secret.txt'), 'SECRET\n');
      await writeFile(path.join(ws.root, 'notes.txt'), 'notes\n');
      const target = await checkedPath(ws.root, 'notes.txt');
      await rename(target.absolutePath, `${target.absolutePath}.old`);
      await symlink(path.join(ws.outside, 'secret.txt'), target.absolutePath);
      await expect(readTextFile(target)).rejects.toMatchObject({ code: 'ELOOP' });
      expect(await hashFileIfPresent(target)).toBeNull();
    }));

  it('refuse a directory on the way swapped for a link to outside (ESWAPPED), and write nothing there', () =>
    onSyncCalls(async () => {
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
    }));

  it('refuse a directory write_file would create once a link is planted there', () =>
    onSyncCalls(async () => {
      const ws = await tempWorkspace();
      const target = await checkedPath(ws.root, 'new/deeper/f.txt');
      await symlink(ws.outside, path.join(ws.root, 'new'));
      await expect(writeFileDurably(target, 'planted\n', 'call_3')).rejects.toMatchObject({ code: 'ESWAPPED' });
      expect(await readdir(ws.outside)).toEqual([]);
    }));

  it('open a FIFO swapped in for the file without blocking, and refuse it', () =>
    onSyncCalls(async () => {
      const ws = await tempWorkspace();
      await writeFile(path.join(ws.root, 'data.txt'), 'data\n');
      const target = await checkedPath(ws.root, 'data.txt');
      await rm(path.join(ws.root, 'data.txt'));
      execFileSync('mkfifo', [path.join(ws.root, 'data.txt')]);
      // A synchronous open without O_NONBLOCK would block this very thread forever.
      await expect(openFileForReading(target)).rejects.toMatchObject({ code: 'ESPECIAL' });
    }));

  it('write a file whole, keep its mode, create missing directories, and read and hash it back', () =>
    onSyncCalls(async () => {
      const ws = await tempWorkspace();
      await writeFile(path.join(ws.root, 'kept.txt'), 'old\n');
      await chmod(path.join(ws.root, 'kept.txt'), 0o640);
      await writeFileDurably(await checkedPath(ws.root, 'kept.txt'), 'new text\n', 'call_4');
      expect(await readFile(path.join(ws.root, 'kept.txt'), 'utf8')).toBe('new text\n');
      expect((await stat(path.join(ws.root, 'kept.txt'))).mode & 0o7777).toBe(0o640);

      const text = 'x'.repeat(100_000);
      await writeFileDurably(await checkedPath(ws.root, 'a/b/big.txt'), text, 'call_5');
      const target = await checkedPath(ws.root, 'a/b/big.txt');
      expect(await readTextFile(target)).toEqual({ kind: 'text', text });
      expect(await hashFileIfPresent(target)).toBe(sha256Hex(text));
      const handle = await openFileForReading(target);
      try {
        expect((await readStart(handle, 5)).toString()).toBe('xxxxx');
      } finally {
        await handle.close();
      }
      // No temporary file is left beside the written ones.
      expect((await readdir(ws.root)).sort()).toEqual(['a', 'kept.txt']);
      expect(await readdir(path.join(ws.root, 'a/b'))).toEqual(['big.txt']);
    }));

  it("are the tools' calls only while a schedule runs", async () => {
    const running = runSchedule(1);
    expect(toolFs()).toBe(SYNC_TOOL_FS);
    expect((await running).problems).toEqual([]);
    expect(toolFs()).toBe(NODE_TOOL_FS);
  });
});
