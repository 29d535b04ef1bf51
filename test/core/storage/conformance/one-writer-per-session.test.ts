import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { entryCommit, openStore, snapshot, tempDir } from '../../../support/storage-fixtures';
import { holdingTheLock } from '../../../support/lock-holder';
import { BACKENDS, createIn, skipUnavailable } from './backends';

const dir = tempDir();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  dir.remove();
});

describe.each(BACKENDS)('%s backend: one writer per session', (backend) => {
  if (skipUnavailable(backend)) return;

  it('refuses a second writer in the same process with kind "locked", and lets one in after close', () => {
    const store = createIn(dir.path, backend);
    store.commit(entryCommit(store, null, 'held'));
    expect(() => openStore(store.path)).toThrowError(
      expect.objectContaining({ kind: 'locked', details: expect.objectContaining({ pid: process.pid }) }),
    );
    store.close();
    const next = openStore(store.path);
    expect(next.tree.size).toBe(1);
    next.close();
  });

  it('refuses a second process with "locked by pid N", allows a read-only view, and lets it in once the holder is gone', async () => {
    const store = createIn(dir.path, backend);
    store.commit(entryCommit(store, null, 'before the holder'));
    const state = snapshot(store);
    store.close();

    const first = await holdingTheLock(store.path);
    children.push(first.child);
    expect(() => openStore(store.path)).toThrowError(
      expect.objectContaining({ kind: 'locked', details: expect.objectContaining({ pid: first.child.pid }) }),
    );
    expect(() => openStore(store.path)).toThrowError(`session is locked by pid ${first.child.pid}`);
    const view = openStore(store.path, { readOnly: true });
    expect(snapshot(view)).toEqual(state);
    view.close();

    first.child.kill('SIGKILL');
    await first.done;
    const after = openStore(store.path);
    after.commit(entryCommit(after, 'e_1', 'after the holder died'));
    expect(after.lastSeq).toBe(state.lastSeq + 2);
    after.close();
  });
});
