import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';
import { holdingTheLock } from '../../support/lock-holder';

const dir = tempDir();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  dir.remove();
});

describe('two processes opening one session', () => {
  it('refuse the second with "locked by pid N", allow a read-only view, and let it in once the first is gone', async () => {
    const store = createStore(dir.path);
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
