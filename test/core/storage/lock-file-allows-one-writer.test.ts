import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { lockPathFor } from '../../../src/core/storage/lock-file';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const pid = Number(child.stdout);
  expect(() => process.kill(pid, 0)).toThrowError(expect.objectContaining({ code: 'ESRCH' }));
  return pid;
}

describe('the lock file', () => {
  it('refuses a second writable opener in the same process, naming the pid', () => {
    const store = createStore(dir.path);
    expect(() => openStore(store.path)).toThrowError(
      expect.objectContaining({
        kind: 'locked',
        details: expect.objectContaining({ pid: process.pid, host: hostname() }),
      }),
    );
    expect(() => openStore(store.path)).toThrowError(`locked by pid ${process.pid}`);
    store.close();
  });

  it('lets a read-only open see the session alongside the writer, and the writer go on', () => {
    const store = createStore(dir.path);
    store.commit(entryCommit(store, null, 'seen by the reader'));
    const reader = openStore(store.path, { readOnly: true });
    expect(snapshot(reader)).toEqual(snapshot(store));
    expect(() => reader.commit(entryCommit(reader, null, 'no'))).toThrowError(
      expect.objectContaining({ kind: 'read-only' }),
    );
    store.commit(entryCommit(store, 'e_1', 'the writer is not disturbed'));
    reader.close();
    store.close();
    expect(openStore(store.path).tree.size).toBe(2);
  });

  it('is released on close, so the next opener gets in', () => {
    const store = createStore(dir.path);
    store.close();
    const again = openStore(store.path);
    expect(JSON.parse(readFileSync(lockPathFor(store.path), 'utf8'))).toMatchObject({ pid: process.pid });
    again.close();
    expect(() => readFileSync(lockPathFor(store.path))).toThrowError(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('is taken over when the pid it names on this host is gone', () => {
    const store = createStore(dir.path);
    store.close();
    const pid = deadPid();
    writeFileSync(lockPathFor(store.path), JSON.stringify({ pid, host: hostname(), nonce: 'dead', createdAt: 1 }));
    const opened = openStore(store.path);
    expect(JSON.parse(readFileSync(lockPathFor(store.path), 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
    });
    opened.close();
  });

  it('is not taken over when it was written on another host, whose pids cannot be checked', () => {
    const store = createStore(dir.path);
    store.close();
    writeFileSync(
      lockPathFor(store.path),
      JSON.stringify({ pid: deadPid(), host: 'elsewhere.example', nonce: 'x', createdAt: 1 }),
    );
    expect(() => openStore(store.path)).toThrowError(
      expect.objectContaining({ kind: 'locked', message: expect.stringContaining('elsewhere.example') }),
    );
  });

  it('names the lock file to delete when it cannot be read', () => {
    const store = createStore(dir.path);
    store.close();
    writeFileSync(lockPathFor(store.path), '');
    expect(() => openStore(store.path)).toThrowError(
      expect.objectContaining({ kind: 'locked', message: expect.stringContaining(lockPathFor(store.path)) }),
    );
  });
});
